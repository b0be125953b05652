import type { CallResult } from '../tool/index.js';

/** What a call of an `arriveAll` pass granted as it arrived stands for, until it runs. */
export const SOON: unique symbol = Symbol('soon');

/**
 * What a call of an `arriveAll` pass that waits for its grant stands for: its result goes
 * to the batch's `BatchResults` when it ends.
 */
export const WAIT: unique symbol = Symbol('wait');

/** A call's outcome: its result, or {@link SOON} or {@link WAIT} in an `arriveAll` pass. */
export type Outcome = CallResult | Promise<CallResult> | typeof SOON | typeof WAIT;
