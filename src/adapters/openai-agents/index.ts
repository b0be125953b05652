// hintgate for the OpenAI Agents SDK (`hintgate/openai-agents`): a runtime's tools as
// `@openai/agents` function tools. Needs `@openai/agents` installed (an optional peer).

export type { AgentsToolsOptions } from './agents-tools-options.js';
export {
  type AgentsTool,
  type AgentsToolParameters,
  createAgentsTools,
} from './create-agents-tools.js';
export type { AgentsToolOutput } from './to-agents-output.js';
