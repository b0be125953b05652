export { type BuildSystemPromptOptions, buildSystemPrompt } from './build-system-prompt.js';
export { type PromptTool, promptToolClass } from './prompt-tool.js';
export { type SelectToolsOptions, selectTools } from './select-tools.js';
export { splitWords } from './tool-search-index.js';
