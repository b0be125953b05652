import type { ToolConfig } from '../registry/index.js';
import type { LoadedToolOverride } from './config/index.js';
import type { PinAssessment } from './gateway-pins.js';

const sameAnnotations = (a: ToolConfig['annotations'], b: ToolConfig['annotations']): boolean => {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => (a as Record<string, unknown>)[key] === (b as Record<string, unknown>)[key])
  );
};

/** Whether two configurations of a server's tool say the same (annotations key by key). */
export const sameToolConfig = (a: ToolConfig, b: ToolConfig): boolean =>
  a.enabled === b.enabled &&
  a.timeoutMs === b.timeoutMs &&
  sameAnnotations(a.annotations, b.annotations) &&
  a.scopes === b.scopes &&
  a.trusted === b.trusted &&
  a.requireApproval?.reason === b.requireApproval?.reason &&
  a.requireApproval?.version === b.requireApproval?.version &&
  a.blocked?.reason === b.blocked?.reason;

/**
 * The registry configuration of one server's tool (set with `configureOrigin`): its annotation overrides; trust of its
 * annotations when its pin says they were verified; while it is not pinned under
 * `newTools: ask`, no trust of its annotations and a person's approval of every call; and
 * while its pins hold it back, `blocked` with the reason (the policy refuses its calls).
 */
export const serverToolConfig = (
  override: LoadedToolOverride | undefined,
  assessment: PinAssessment,
  name: string,
): ToolConfig | undefined => {
  const unpinned = assessment.unpinned.get(name);
  const annotations = override?.annotations;
  const blocked = assessment.blocked.get(name);
  const config: ToolConfig = {
    ...(annotations === undefined ? {} : { annotations }),
    ...(override?.scopes === undefined ? {} : { scopes: override.scopes }),
    ...(assessment.verified.has(name) ? { trusted: true } : {}),
    ...(unpinned === undefined
      ? {}
      : {
          trusted: false,
          requireApproval: { reason: unpinned.reason, version: unpinned.hash },
        }),
    ...(blocked === undefined ? {} : { blocked: { reason: blocked } }),
  };
  return Object.keys(config).length === 0 ? undefined : config;
};
