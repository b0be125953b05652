// hintgate for the OpenAI Agents SDK (`hintgate/openai-agents`): a runtime's tools as
// `@openai/agents` function tools. Needs `@openai/agents` installed (an optional peer).

export type { AgentsTool, AgentsToolParameters } from './agents-tool.js';
export type { AgentsToolsOptions } from './agents-tools-options.js';
export { createAgentsTools } from './create-agents-tools.js';
export type { AgentsToolOutput } from './to-agents-output.js';
