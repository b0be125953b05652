import type { DecideOptions, Runtime } from '../../runtime/index.js';
import type { CallOrder } from './call-order.js';

/** What every tool of one `createAgentsTools` call shares. */
export interface AdapterContext {
  readonly runtime: Runtime;
  readonly order: CallOrder;
  /** The caller's scopes and session, for decisions, plans and turns. */
  readonly callerOptions: DecideOptions;
  /** How hintgate remembers an approval given with `alwaysApprove`. */
  readonly alwaysApprove: 'session' | 'always';
}
