export { destructiveDescriptionVerbs } from './description-actions.js';
export { LINT_RULES, type LintRuleId, lintRuleSeverity } from './lint-rules.js';
export { DEFAULT_DESCRIPTION_BUDGET } from './lint-texts.js';
export { MAX_TOOL_NAME_LENGTH } from './lint-tool-name.js';
export { compareFindings, type LintToolsOptions, lintTools } from './lint-tools.js';
export { type NameActions, nameActions } from './name-actions.js';
export { splitNameWords } from './split-name-words.js';
