/** Prefix of the `_meta` keys hintgate adds to tool listings and results. */
export const META_PREFIX = 'dev.hintgate/';

/** `_meta` keys of a listed tool. */
export const TOOL_META = {
  /** Origin (server or code) the tool comes from. */
  origin: `${META_PREFIX}origin`,
  /** `read`, `write` or `destructive`, from the effective hints. */
  class: `${META_PREFIX}class`,
  /** Whether hintgate acts on the tool's own annotations. */
  trusted: `${META_PREFIX}trusted`,
  /** The four hints hintgate acts on (spec defaults for an untrusted origin). */
  effective: `${META_PREFIX}effective`,
  /** False when the tool skips the mode's asking (`gated: false`). */
  gated: `${META_PREFIX}gated`,
} as const;
