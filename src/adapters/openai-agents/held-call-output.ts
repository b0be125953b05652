import type { CheckedCall } from './call-order.js';

/**
 * What the model reads for a call held back behind an earlier call of its response (see
 * `checkCall`): it did not run, why, and when to make it again.
 */
export function heldCallOutput(held: CheckedCall, behind: CheckedCall): string {
  const state = behind.blocking === 'asks' ? "waits for the user's approval" : 'was not run either';
  return `Error (deferred): "${held.call.name}" was not run. It must run after call ${behind.call.id} ("${behind.call.name}"), an earlier call of this response that it conflicts with, which ${state}. Make this call again once ${behind.call.id} has its result.`;
}
