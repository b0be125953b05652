export { disabledEnvVar, type Env, readDisabledEnv } from './env-disabled.js';
export type { OriginInfo, OriginOptions } from './origin-options.js';
export { qualifiedToolName, TOOL_NAME_SEPARATOR } from './qualified-tool-name.js';
export type {
  DisabledBy,
  RegisteredTool,
  ShadowedTool,
  ToolChange,
  ToolDescription,
} from './registered-tool.js';
export type { BlockedTool, RequiredApproval, ToolConfig } from './tool-config.js';
export { TOOL_LAYERS, type ToolLayer } from './tool-layer.js';
export {
  createRegistry,
  type RegistryLoader,
  type RegistryOptions,
  type ToolChangeListener,
  ToolRegistry,
  type VisibilityOptions,
} from './tool-registry.js';
