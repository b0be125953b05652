import { join, resolve } from 'node:path';
import { createJsonlAuditSink } from '../audit/node.js';
import { asError } from '../errors/index.js';
import { createMcpToolServer } from '../mcp/index.js';
import { DEFAULT_MODE } from '../policy/index.js';
import { createApprovalStore } from '../policy/node.js';
import { createRegistry } from '../registry/index.js';
import { createRuntime } from '../runtime/index.js';
import { createWorkspaceTools } from '../tools/index.js';
import { backgroundAudit } from './background-audit.js';
import type { CreateGatewayOptions, Gateway } from './create-gateway.js';
import { gatewayToolStates } from './gateway-tool-states.js';

/**
 * The gateway of the embedded default (`createGateway` without a configuration): the
 * built-in workspace tools, like `hintgate serve`, with state in `<workspace>/.hintgate/`.
 */
export async function workspaceGateway(
  options: CreateGatewayOptions,
  report: (error: Error) => void,
): Promise<Gateway> {
  const workspace = resolve(options.workspace ?? process.cwd());
  const sinks = [
    createJsonlAuditSink({ path: join(workspace, '.hintgate', 'audit.jsonl') }),
    ...(options.auditSinks ?? []),
  ];
  const registry = createRegistry({
    ...(options.env === undefined ? {} : { env: options.env }),
    onListenerError: (error) => report(asError(error)),
  });
  registry.addOrigin({
    name: 'local',
    layer: 'bundled',
    tools: createWorkspaceTools({
      workspace,
      protectedPaths: ['.hintgate'],
      ...(options.fetchAllow === undefined ? {} : { fetchAllow: options.fetchAllow }),
    }),
  });
  await options.discoverTools?.(registry);
  const runtime = createRuntime({
    registry,
    workspace,
    mode: options.mode ?? DEFAULT_MODE,
    approvals: createApprovalStore({ path: join(workspace, '.hintgate', 'approvals.json') }),
    auditSinks: sinks,
  });
  const toolServer = createMcpToolServer({
    runtime,
    onError: report,
    ...(options.approvalChannels === undefined
      ? {}
      : { approvalChannels: options.approvalChannels }),
    ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
    instructions: () => runtime.systemPrompt(),
  });
  const events = backgroundAudit(sinks, report);
  return {
    runtime,
    toolServer,
    connections: new Map(),
    readiness: [],
    blockedTools: () => new Map(),
    reloadPins: async () => {},
    toolStates: () => gatewayToolStates({ registry: runtime.registry, blocked: new Map() }),
    recordEvent: events.write,
    async close(closeOptions) {
      await events.settled();
      await runtime.close(closeOptions);
      await toolServer.close();
    },
  };
}
