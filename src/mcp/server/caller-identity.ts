import {
  CLIENT_INFO_META_KEY,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { CallerIdentity } from '../../audit/index.js';
import type { ApprovalAnswer, ApprovalAnswerer, Approver } from '../../policy/index.js';
import { isPlainObject } from '../../tool/index.js';
import { NO_APPROVAL_CHANNEL_WHY } from './approval-form.js';

/** A string a client stated, capped; `undefined` for anything else or an empty one. */
export const stated = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value.slice(0, 200) : undefined;

/** What one instance knows of its connection: its session, transport and token principal. */
export interface ConnectionInfo {
  readonly session: string;
  readonly transport?: string;
  readonly principal?: string;
  /** Scopes its principal's token grants (HTTP), added to the server's. */
  readonly scopes?: readonly string[];
}

/**
 * The approver, with who answers stamped on each answer (for the audit record): the
 * client through `channel`, or nobody when the client could not be asked.
 */
export const stamped = (
  approver: Approver,
  channel: ApprovalAnswerer['channel'],
  who?: string,
): Approver => {
  const stamp = (answer: ApprovalAnswer): ApprovalAnswer => {
    if (answer.answeredBy !== undefined) return answer;
    const unasked = answer.asked === false && answer.reason?.startsWith(NO_APPROVAL_CHANNEL_WHY);
    const answeredBy: ApprovalAnswerer = unasked
      ? { channel: 'none' }
      : { channel, ...(who === undefined ? {} : { who }) };
    return { ...answer, answeredBy };
  };
  return (request, options) => {
    const answer = approver(request, options);
    return answer instanceof Promise ? answer.then(stamp) : stamp(answer);
  };
};

/**
 * Who makes a call on `server`: the client's stated name and version (from the request's
 * envelope on 2026-07-28, else from `initialize`), the transport (`http` for a request
 * that came over HTTP, else the instance's), and the token's principal.
 */
export function callerIdentity(
  server: Server,
  ctx: ServerContext | undefined,
  connection: ConnectionInfo | undefined,
): CallerIdentity {
  const envelope = ctx?.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined;
  const info: unknown = envelope?.[CLIENT_INFO_META_KEY] ?? server.getClientVersion();
  const name = isPlainObject(info) ? stated(info.name) : undefined;
  const version = isPlainObject(info) ? stated(info.version) : undefined;
  const principal = stated(ctx?.http?.authInfo?.clientId) ?? connection?.principal;
  return {
    ...(name === undefined
      ? {}
      : { client: { name, ...(version === undefined ? {} : { version }) } }),
    transport: ctx?.http !== undefined ? 'http' : (connection?.transport ?? 'in-process'),
    ...(principal === undefined ? {} : { principal }),
  };
}

/** The caller's client as one string, `name version`, for who answered an approval. */
export const whoOf = (caller: CallerIdentity): string | undefined =>
  caller.client === undefined
    ? undefined
    : `${caller.client.name}${caller.client.version === undefined ? '' : ` ${caller.client.version}`}`;
