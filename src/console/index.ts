// The gateway's web console: the approvals inbox, the audit trail and the tools. Node only.

export {
  ConsoleAuditTrail,
  type ConsoleAuditTrailOptions,
} from './console-audit-trail.js';
export { CONSOLE_CSP } from './console-http.js';
export {
  type ConsoleChoice,
  ConsoleInbox,
  type ConsoleInboxOptions,
  type PendingApproval,
} from './console-inbox.js';
export {
  type GatewayConsole,
  type GatewayConsoleOptions,
  prepareGatewayConsole,
} from './gateway-console.js';
export {
  type ConsoleGateway,
  type ConsoleServer,
  type ConsoleServerOptions,
  MIN_CONSOLE_TOKEN_LENGTH,
  startConsoleServer,
} from './start-console-server.js';
