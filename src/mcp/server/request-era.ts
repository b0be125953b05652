import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  PROTOCOL_VERSION_META_KEY,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { isModernRevision } from '../protocol-revision.js';

const envelopeOf = (ctx: ServerContext): Readonly<Record<string, unknown>> | undefined =>
  ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined;

/**
 * Whether a request speaks the 2026-07-28 era: it carries the per-request envelope, or the
 * instance is bound to a 2026+ revision.
 */
export function isModernRequest(server: Server, ctx: ServerContext): boolean {
  if (envelopeOf(ctx)?.[PROTOCOL_VERSION_META_KEY] !== undefined) return true;
  return isModernRevision(server.getNegotiatedProtocolVersion());
}

/** The capabilities the client declared: per request (2026-07-28) or at initialize (2025). */
export function clientCapabilities(
  server: Server,
  ctx: ServerContext,
): ClientCapabilities | undefined {
  const declared = envelopeOf(ctx)?.[CLIENT_CAPABILITIES_META_KEY];
  if (typeof declared === 'object' && declared !== null) return declared as ClientCapabilities;
  return server.getClientCapabilities();
}
