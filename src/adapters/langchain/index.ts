// hintgate for LangChain and LangGraph (`hintgate/langchain`): a runtime's tools as LangChain
// tools, and an agent middleware that asks about calls through LangGraph's interrupt().
// Needs @langchain/core, @langchain/langgraph, langchain and zod installed (optional peers).

export type {
  HintgateActionRequest,
  HintgateApprovalRequest,
  HintgateReviewConfig,
} from './approval-request.js';
export { createHintgateMiddleware, type HintgateMiddleware } from './create-hintgate-middleware.js';
export { createLangChainTools, type LangChainTool } from './create-langchain-tools.js';
export type { LangChainToolsOptions } from './langchain-tools-options.js';
export type { HintgateApprovalResponse, HintgateDecision } from './read-approval-response.js';
