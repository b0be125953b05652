// hintgate for LangChain and LangGraph (`hintgate/langchain`): a runtime's tools as LangChain
// tools. Needs @langchain/core installed (an optional peer).

export { createLangChainTools, type LangChainTool } from './create-langchain-tools.js';
export type { LangChainToolsOptions } from './langchain-tools-options.js';
