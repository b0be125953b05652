import type { RunContext } from '@openai/agents';
import type { ToolCall } from '../../runtime/index.js';
import type { AdapterContext } from './adapter-context.js';
import type { CheckedCall } from './call-order.js';
import { sdkApproval } from './sdk-approval.js';

/** The earlier call of `blockers` that `call` conflicts with (waits for, in hintgate's plan). */
const conflictingBlocker = async (
  context: AdapterContext,
  blockers: readonly CheckedCall[],
  call: ToolCall,
): Promise<CheckedCall | undefined> => {
  const scopes = context.callerOptions.scopes;
  // Ids of the plan's own: a model may give two calls of a response the same id.
  const plan = await context.runtime.plan(
    [
      ...blockers.map((blocker, index) => ({ ...blocker.call, id: String(index) })),
      { ...call, id: 'call' },
    ],
    scopes === undefined ? {} : { scopes },
  );
  const waitsFor = plan.at(-1)?.waitsFor ?? [];
  return blockers.find((_, index) => waitsFor.includes(String(index)));
};

/**
 * The SDK's `needsApproval` of a call: whether hintgate's policy asks a person about it.
 * The call takes its place in the step's order now, before anything is awaited (the SDK
 * checks the calls of a step in the model's order). A call the person approved already
 * (the SDK checks it again when the run resumes) keeps its approval. A call that may run
 * but conflicts with an earlier call of the step that waits for a person (or is held
 * itself) is held: it must not run before that call, which runs only after the run
 * resumes, so its `execute` reports that instead of running it.
 */
export async function checkCall(
  context: AdapterContext,
  runContext: RunContext<unknown>,
  call: ToolCall,
  sdkName: string,
): Promise<boolean> {
  const { order, runtime } = context;
  const checked = order.check(call, runContext);
  try {
    if (sdkApproval(runContext, sdkName, call.id) !== undefined) {
      order.expect(checked);
      return true;
    }
    const { decision } = await runtime.decide(call, context.callerOptions);
    if (decision === 'ask') {
      order.ask(checked);
      return true;
    }
    // A call hintgate denies runs too (it never reaches the tool): its result is the denial.
    if (decision === 'allow') {
      const found = order.blockersBefore(checked);
      const blockers = found instanceof Promise ? await found : found;
      const blocker =
        blockers.length === 0 ? undefined : await conflictingBlocker(context, blockers, call);
      if (blocker !== undefined) {
        order.hold(checked, blocker);
        return false;
      }
    }
    order.expect(checked);
    return false;
  } catch (error) {
    order.drop(checked);
    throw error;
  }
}
