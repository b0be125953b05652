import type { EffectiveHints, Tool, ToolAnnotations, ToolClass } from '../tool/index.js';
import type { BlockedTool, RequiredApproval } from './tool-config.js';
import type { ToolLayer } from './tool-layer.js';

/** A definition of a name that a later layer's definition hides. */
export interface ShadowedTool {
  /** Origin of the hidden definition. */
  readonly origin: string;
  /** Layer of the hidden definition. */
  readonly layer: ToolLayer;
  /** File the hidden definition was loaded from, when it comes from a tool module. */
  readonly file?: string;
}

/** A tool as the registry resolved it: the winner of its name, with origin and trust. */
export interface RegisteredTool {
  /**
   * The tool. Validate arguments with `tool.inputSchema` before `tool.execute`: the registry
   * holds tools of every argument type.
   */
  readonly tool: Tool;
  /** The tool's name. */
  readonly name: string;
  /** Name of the origin that provides it. */
  readonly origin: string;
  /** Layer of that origin. */
  readonly layer: ToolLayer;
  /** File the tool was loaded from, when it comes from a tool module of a `tools/` folder. */
  readonly file?: string;
  /** Definitions of the same name in earlier layers that this one hides, nearest first. */
  readonly shadows: readonly ShadowedTool[];
  /**
   * Whether `effective` comes from `claimed`: the origin is trusted (or the configuration
   * trusts this tool), or the configuration overrides annotations.
   */
  readonly trusted: boolean;
  /** Annotations as claimed by the tool, with the configuration's override merged over them. */
  readonly claimed: ToolAnnotations;
  /** Hints the policy and the scheduler use: from `claimed` if trusted, else the spec defaults. */
  readonly effective: EffectiveHints;
  /** Class derived from `effective`. */
  readonly class: ToolClass;
  /** Scopes a caller must all hold to see the tool (configuration's, else the tool's). */
  readonly scopes: readonly string[];
  /** Set when the configuration requires a person's approval of every call. */
  readonly requireApproval?: RequiredApproval;
  /**
   * Timeout of a call in milliseconds set by the configuration; it wins over the tool's own
   * `timeoutMs`, a call's own timeout wins over it.
   */
  readonly timeoutMs?: number;
  /** Set when the configuration holds the tool back: not listed, every call denied. */
  readonly blocked?: BlockedTool;
}

/** Where a disabled name was disabled: `enabled: false` in config, or `TOOL_<NAME>_DISABLED`. */
export type DisabledBy = 'config' | 'env';

/** One name as `ToolRegistry.describe` reports it, visible or not (for `/tools`). */
export interface ToolDescription extends Omit<RegisteredTool, 'tool'> {
  /** Whether the name is enabled (callers' scopes not considered). */
  readonly visible: boolean;
  /** Why the name is hidden; absent when `visible`. `config` wins when both disable it. */
  readonly disabledBy?: DisabledBy;
}

/** One change of the enabled winners (callers' scopes not considered). */
export interface ToolChange {
  /**
   * `added`: a name became visible; `removed`: it stopped being visible; `updated`: its
   * winner is another tool or origin, or its scopes, trust or annotations changed.
   */
  readonly type: 'added' | 'removed' | 'updated';
  /** The tool name. */
  readonly name: string;
  /** Origin of the winner; for `removed`, of the winner that went away. */
  readonly origin: string;
}
