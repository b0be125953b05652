import { HintgateError } from '../errors/index.js';
import type { Tool } from '../tool/index.js';
import { defineTool, isTool, TOOL_NAME_PATTERN } from '../tool/index.js';

/** Options of {@link createAliasTool}. */
export interface AliasToolOptions {
  /** The name the tool is also offered under, such as ak-coder's `bash` for `run_command`. */
  readonly name: string;
  /**
   * What the model reads. Default: a sentence saying which tool this is the same as,
   * then that tool's description.
   */
  readonly description?: string;
}

/**
 * The same tool under another name, so that prompts written for another agent's tool names
 * work unchanged (ak-coder's `str_replace` and `bash` for `edit_file` and `run_command`).
 * Arguments, annotations, resource keys, approval keys, timeout, retries and execution are
 * the tool's own, and its `nameOnOrigin` is the tool's name: policy rules, remembered
 * approvals and audit bind to the original, so a rule on `run_command` also governs
 * `bash`. The arguments are validated by the tool's JSON Schema. A rate limit is kept
 * apart for each name.
 *
 * @throws HintgateError `invalid_option` when `tool` is not a tool made by `defineTool`, or
 * `invalid_tool_name` when the name breaks the MCP naming rules.
 */
export function createAliasTool(tool: Tool, options: AliasToolOptions): Tool {
  if (!isTool(tool)) {
    throw new HintgateError(
      'invalid_option',
      'createAliasTool: tool must be a tool made by defineTool (or a built-in tool factory).',
    );
  }
  const { name } = options;
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name) || name === tool.name) {
    throw new HintgateError(
      'invalid_tool_name',
      `createAliasTool: name ${JSON.stringify(name)} must be another name than "${tool.name}", of 1-128 characters of A-Z, a-z, 0-9, "_", "-" and ".".`,
    );
  }
  const original = tool.nameOnOrigin ?? tool.name;
  const { resources, approvalKey } = tool;
  return defineTool({
    name,
    nameOnOrigin: original,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description:
      options.description ??
      `The ${tool.name} tool under the name ${name}; it works exactly like ${tool.name}. ${tool.description}`,
    annotations: tool.annotations,
    inputSchema: tool.inputSchema.jsonSchema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema.jsonSchema }),
    ...(resources === undefined ? {} : { resources: (args) => resources.call(tool, args) }),
    ...(approvalKey === undefined ? {} : { approvalKey: (args) => approvalKey.call(tool, args) }),
    ...(tool.timeoutMs === undefined ? {} : { timeoutMs: tool.timeoutMs }),
    ...(tool.rateLimit === undefined ? {} : { rateLimit: tool.rateLimit }),
    ...(tool.retry === undefined ? {} : { retry: tool.retry }),
    gated: tool.gated,
    scopes: tool.scopes,
    ...(tool.maxOutputChars === undefined ? {} : { maxOutputChars: tool.maxOutputChars }),
    ...(tool.meta === undefined ? {} : { meta: tool.meta }),
    execute: (args, context) => tool.execute(args, context),
  });
}
