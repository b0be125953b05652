// hintgate for the Vercel AI SDK (`hintgate/ai-sdk`): a runtime's tools as AI SDK tools, and
// AI SDK tools as hintgate tools. Needs `ai` (v7) installed (an optional peer).

export type { AiSdkToolsOptions } from './ai-sdk-tools-options.js';
export {
  type ApprovalResponseOptions,
  approvalResponse,
  type HintgateApprovalResponse,
} from './approval-response.js';
export {
  type AiSdkToolApproval,
  type AiSdkTools,
  createAiSdkTools,
} from './create-ai-sdk-tools.js';
export {
  type AiSdkToolConfig,
  type FromAiSdkToolsOptions,
  fromAiSdkTools,
} from './from-ai-sdk-tools.js';
export { type AiSdkModelOutput, toModelOutput } from './to-model-output.js';
