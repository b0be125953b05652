import type { LoadedToolOverride } from '../gateway/config/index.js';
import { listedSchema } from '../mcp/index.js';
import type { ToolSchema } from '../tool/index.js';
import {
  type DefineToolOptions,
  defineTool,
  type SchemaInput,
  type Tool,
  withExecute,
} from '../tool/index.js';

/** A gateway tool, or the upstream tool as it is with why its overrides were not applied. */
export interface GatewayToolOutcome {
  readonly tool: Tool;
  /** Set when an override could not be applied; the tool then runs without the overrides. */
  readonly problem?: string;
}

const asListed = (schema: ToolSchema<unknown>): SchemaInput =>
  listedSchema(schema.jsonSchema, schema);

/**
 * The tool the gateway offers for an upstream tool: the upstream tool itself when it keeps
 * its name and has no resource, timeout or rate limit override, else a tool of the exposed
 * name with those settings whose `execute` calls the upstream tool (which keeps calling the
 * server by its own name), and whose `nameOnOrigin` is that name. Schemas, title, description, annotations and `_meta` are carried
 * as listed. Annotation overrides and `disabled` are applied elsewhere (registry
 * configuration), since they change what hintgate believes, not what the tool is.
 *
 * `execute`, when given, replaces the call to the upstream tool (a retry after a reconnect
 * wraps it; see `retryAfterReconnect`); with no other change the tool is the upstream tool
 * with that `execute` (`withExecute`).
 *
 * An override that cannot be applied (a resource template naming no argument of the tool)
 * leaves the tool without overrides, which is the more cautious choice (without resource
 * keys a call locks the whole server), and says why in `problem`.
 */
export function gatewayTool(
  upstream: Tool,
  exposedName: string,
  override: LoadedToolOverride | undefined,
  execute?: Tool['execute'],
): GatewayToolOutcome {
  const settings = {
    ...(override?.resources === undefined ? {} : { resources: [...override.resources] }),
    ...(override?.timeoutMs === undefined ? {} : { timeoutMs: override.timeoutMs }),
    ...(override?.rateLimit === undefined ? {} : { rateLimit: override.rateLimit }),
  };
  if (exposedName === upstream.name && Object.keys(settings).length === 0) {
    // Only the call changes: the definition, checked when the upstream tool was made, is
    // carried as it is (a catalog of thousands of tools is not defined twice).
    return { tool: execute === undefined ? upstream : withExecute(upstream, execute) };
  }
  const define = (extra: typeof settings): Tool =>
    defineTool({
      name: exposedName,
      // Rules and approvals bind to the server's own name, whatever the tool is offered as.
      nameOnOrigin: upstream.nameOnOrigin ?? upstream.name,
      ...(upstream.title === undefined ? {} : { title: upstream.title }),
      description: upstream.description,
      annotations: upstream.annotations,
      inputSchema: asListed(upstream.inputSchema),
      ...(upstream.outputSchema === undefined
        ? {}
        : { outputSchema: asListed(upstream.outputSchema) }),
      ...(upstream.meta === undefined ? {} : { meta: upstream.meta }),
      ...(upstream.listingExtras === undefined ? {} : { listingExtras: upstream.listingExtras }),
      ...(upstream.gated ? {} : { gated: false }),
      ...extra,
      execute: execute ?? ((args, context) => upstream.execute(args, context)),
    } as DefineToolOptions<SchemaInput>) as Tool;
  try {
    return { tool: define(settings) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      tool: exposedName === upstream.name && !execute ? upstream : define({}),
      problem: `the overrides of tool "${upstream.name}" were not applied: ${reason}`,
    };
  }
}
