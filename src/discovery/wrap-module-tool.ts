import type { Tool, ToolContext } from '../tool/index.js';

/**
 * The same tool, whose `execute` first waits for `ready` (its module's `init`, run once
 * before the module's first call). Everything else (brand included) is the tool's own.
 */
export function wrapModuleTool(tool: Tool, ready: () => Promise<void>): Tool {
  const descriptors = Object.getOwnPropertyDescriptors(tool);
  const execute = async (args: Parameters<Tool['execute']>[0], context: ToolContext) => {
    await ready();
    return tool.execute(args, context);
  };
  descriptors.execute = { value: execute, enumerable: true, writable: false, configurable: false };
  return Object.freeze(Object.create(Object.getPrototypeOf(tool), descriptors) as Tool);
}
