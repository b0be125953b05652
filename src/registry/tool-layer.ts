/**
 * Registry layers, earliest first: a tool name in a later layer shadows the same name in
 * every earlier one (`project` beats `global` beats `bundled`).
 */
export const TOOL_LAYERS = ['bundled', 'global', 'project'] as const;

/** One of {@link TOOL_LAYERS}. */
export type ToolLayer = (typeof TOOL_LAYERS)[number];
