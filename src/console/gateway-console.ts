import type { AuditSink } from '../audit/index.js';
import type { Approver } from '../policy/index.js';
import { ConsoleAuditTrail } from './console-audit-trail.js';
import { ConsoleInbox } from './console-inbox.js';
import {
  type ConsoleGateway,
  type ConsoleServer,
  startConsoleServer,
} from './start-console-server.js';

/** Options of {@link prepareGatewayConsole}. */
export interface GatewayConsoleOptions {
  /** The gateway's JSONL audit log, whose end the audit page starts with. */
  readonly auditPath: string;
  /** Where "always" answers are written, as the inbox tells. */
  readonly approvalsFile?: string;
  /** Port on 127.0.0.1. Default 0 (a free one). */
  readonly port?: number;
  /** Login token. Default: a random one per start. */
  readonly token?: string;
  /** The configuration file, for the `hintgate pin` command on the tools page. */
  readonly configFile?: string;
}

/** A console made before its gateway: what to give `createGateway`, then `start`. */
export interface GatewayConsole {
  /** For `createGateway`'s `approvalChannels`. */
  readonly approvalChannels: readonly Approver[];
  /** For `createGateway`'s `auditSinks`. */
  readonly auditSinks: readonly AuditSink[];
  /** Serves the console of the started gateway. */
  start(gateway: ConsoleGateway): Promise<ConsoleServer>;
  /** Closes the console (started or not): what waits in its inbox goes to the other channels. */
  close(): Promise<void>;
}

/**
 * Prepares the web console of a gateway: its inbox (an approval channel) and audit trail
 * (an audit sink, with the end of the audit log read first) exist before the gateway, so
 * that nothing the gateway does while starting is missed; `start` then serves them.
 */
export async function prepareGatewayConsole(
  options: GatewayConsoleOptions,
): Promise<GatewayConsole> {
  const inbox = new ConsoleInbox(
    options.approvalsFile === undefined ? {} : { approvalsFile: options.approvalsFile },
  );
  const trail = new ConsoleAuditTrail();
  await trail.loadHistory(options.auditPath);
  let server: ConsoleServer | undefined;
  return {
    approvalChannels: [inbox.approver],
    auditSinks: [trail],
    async start(gateway) {
      server = await startConsoleServer({
        gateway,
        inbox,
        trail,
        ...(options.port === undefined ? {} : { port: options.port }),
        ...(options.token === undefined ? {} : { token: options.token }),
        ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
      });
      return server;
    },
    async close() {
      inbox.close();
      await server?.close();
    },
  };
}
