import type { ToolProgress } from '../tool/index.js';

/** One tool call of a model turn. */
export interface ToolCall {
  /** The model's id for the call; unique within a batch. */
  readonly id: string;
  /** Tool name. */
  readonly name: string;
  /** Arguments: an object, or its JSON text (as some model APIs deliver them). Default `{}`. */
  readonly arguments?: unknown;
  /** Timeout of this call in milliseconds, overriding the tool's and the runtime's. */
  readonly timeoutMs?: number;
  /**
   * Receives the progress the tool reports while it runs (for example to relay it to the
   * MCP client that asked for it). A listener that throws is ignored.
   */
  readonly onProgress?: (progress: ToolProgress) => void;
}
