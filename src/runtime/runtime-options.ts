import type { AuditSink } from '../audit/index.js';
import { HintgateError } from '../errors/index.js';
import type {
  Approver,
  Authorizer,
  Mode,
  PersistentApprovals,
  PolicyRule,
  SharedSessionApprovals,
} from '../policy/index.js';
import { ToolRegistry } from '../registry/index.js';
import type { Clock } from '../schedule/index.js';
import type { RetryOptions, Tool, ToolAnnotations } from '../tool/index.js';
import { isPlainObject, isTimerMs, MAX_TIMER_MS } from '../tool/index.js';
import { checkPolicyOptions } from './check-policy-options.js';

/** Trust settings: annotations of an untrusted origin are reported but not used. */
export interface TrustOptions {
  /** Origin name -> whether its annotations are trusted (overrides the origin's own flag). */
  readonly origins?: Readonly<Record<string, boolean>>;
  /**
   * Tool name -> annotations to use for it, trusted whatever its origin. For an untrusted
   * origin, hints not stated here take the spec defaults.
   */
  readonly tools?: Readonly<Record<string, ToolAnnotations>>;
}

/** Options of `createRuntime`. Give `tools` or `registry`, not both. */
export interface RuntimeOptions {
  /** Tools defined in code: registered as origin `local` (trusted, project layer). */
  readonly tools?: readonly Tool[];
  /** A registry to resolve tools from (layers, origins, trust, scopes). */
  readonly registry?: ToolRegistry;
  /** Scopes of the caller when `execute` is not told otherwise. Default none. */
  readonly scopes?: readonly string[];
  /**
   * How much runs without asking: `plan`, `ask` (default), `auto`, `allowlist`, `yolo`.
   * See docs/policy.md.
   */
  readonly mode?: Mode;
  /** Policy rules (allow / ask / deny by tool, origin, annotations, approval key). */
  readonly rules?: readonly PolicyRule[];
  /** Asks a person to approve a call. Without one, calls that need approval are denied. */
  readonly approver?: Approver;
  /**
   * Where `always` approvals are kept for the project, for example
   * `createApprovalStore({ path })` from `hintgate/node`, or `sharedAlwaysApprovals` over
   * shared state. Default: none (an `always` answer holds for the session).
   */
  readonly approvals?: PersistentApprovals;
  /**
   * Session approvals kept where several processes see them (`sharedSessionApprovals`), so
   * that every gateway replica honours an approval given for a session. Default: in memory.
   */
  readonly sharedSessions?: SharedSessionApprovals;
  /** Time a person has to answer one approval request, in ms. Default 300000. */
  readonly approvalTimeoutMs?: number;
  /** Which origins' annotations to trust, and trusted annotation overrides per tool. */
  readonly trust?: TrustOptions;
  /**
   * A custom policy hook instead of the built-in policy engine (then `mode`, `rules`,
   * `approver`, `approvals` and `approvalTimeoutMs` must not be given).
   */
  readonly authorizer?: Authorizer;
  /** Timeout of a call (all attempts) when neither call nor tool sets one, in ms. Default 60000. */
  readonly defaultTimeoutMs?: number;
  /** Cap on the text of one result, in characters. Default 25000. */
  readonly maxOutputChars?: number;
  /** Retry settings for read-only and idempotent tools. Default 3 attempts, 100 ms base, 5 s cap. */
  readonly retry?: RetryOptions;
  /**
   * Concurrency cap per origin, overriding the origin's own. Without either, trusted
   * origins are unbounded and untrusted ones run one call at a time.
   */
  readonly concurrency?: Readonly<Record<string, number>>;
  /** Order open-world writes across origins through the shared `world` lock. Default true. */
  readonly serializeOpenWorldWrites?: boolean;
  /** Directory that absolute paths in resource keys are made relative to. Default `process.cwd()`. */
  readonly workspace?: string;
  /** Where audit events go. Default none. */
  readonly auditSinks?: readonly AuditSink[];
  /** Put arguments (secrets redacted) into audit events, not only their digest. Default false. */
  readonly auditArguments?: boolean;
  /**
   * How long a timed-out or cancelled call keeps its locks while the tool has not stopped,
   * in ms, before later conflicting calls may start anyway. Default 2000.
   */
  readonly releaseGraceMs?: number;
  /** Time source and timers. Default: the system clock. */
  readonly clock?: Clock;
  /** Random numbers in [0, 1) for backoff jitter. Default `Math.random`. */
  readonly random?: () => number;
}

const KNOWN = new Set<string>([
  'tools',
  'registry',
  'scopes',
  'authorizer',
  'mode',
  'rules',
  'approver',
  'approvals',
  'sharedSessions',
  'approvalTimeoutMs',
  'trust',
  'defaultTimeoutMs',
  'maxOutputChars',
  'retry',
  'concurrency',
  'serializeOpenWorldWrites',
  'workspace',
  'auditSinks',
  'auditArguments',
  'releaseGraceMs',
  'clock',
  'random',
]);

const invalid = (message: string): never => {
  throw new HintgateError('invalid_option', `createRuntime: ${message}`);
};

const positive = (value: unknown): boolean =>
  typeof value === 'number' && value > 0 && !Number.isNaN(value);

/**
 * Checks runtime options.
 *
 * @throws HintgateError `invalid_option` saying which option is wrong and what it takes.
 */
export function checkRuntimeOptions(options: unknown): asserts options is RuntimeOptions {
  if (!isPlainObject(options))
    invalid('expects one options object, e.g. createRuntime({ tools }).');
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!KNOWN.has(key))
      invalid(`unknown option "${key}". Known options: ${[...KNOWN].join(', ')}.`);
  }
  if (o.tools !== undefined && o.registry !== undefined) {
    invalid(
      'give either tools or registry, not both; add the tools to the registry as an origin instead.',
    );
  }
  if (o.registry !== undefined && !(o.registry instanceof ToolRegistry)) {
    invalid('registry must be made by createRegistry().');
  }
  if (o.tools === undefined && o.registry === undefined) {
    invalid('give tools (an array of defineTool() results) or a registry.');
  }
  if (o.tools !== undefined && !Array.isArray(o.tools))
    invalid('tools must be an array of defineTool() results.');
  if (o.maxOutputChars !== undefined && !positive(o.maxOutputChars)) {
    invalid('maxOutputChars must be a positive number.');
  }
  for (const key of ['defaultTimeoutMs', 'releaseGraceMs'] as const) {
    if (o[key] !== undefined && !isTimerMs(o[key])) {
      invalid(`${key} must be milliseconds in (0, ${MAX_TIMER_MS}].`);
    }
  }
  if (
    o.scopes !== undefined &&
    !(Array.isArray(o.scopes) && o.scopes.every((s) => typeof s === 'string'))
  ) {
    invalid('scopes must be a list of strings.');
  }
  if (o.concurrency !== undefined) {
    if (!isPlainObject(o.concurrency))
      invalid('concurrency must map origin names to positive integers.');
    for (const [origin, cap] of Object.entries(o.concurrency as object)) {
      if (!(cap === Number.POSITIVE_INFINITY || (Number.isInteger(cap) && cap > 0))) {
        invalid(`concurrency["${origin}"] must be a positive integer or Infinity.`);
      }
    }
  }
  if (o.auditSinks !== undefined) {
    const sinks = o.auditSinks;
    if (
      !Array.isArray(sinks) ||
      sinks.some((s) => typeof (s as { write?: unknown })?.write !== 'function')
    ) {
      invalid('auditSinks must be a list of sinks with a write(event) method.');
    }
  }
  checkPolicyOptions(o, invalid);
  if (o.retry !== undefined) {
    const r = o.retry as Record<string, unknown>;
    const ok =
      isPlainObject(r) &&
      (r.attempts === undefined || (Number.isInteger(r.attempts) && (r.attempts as number) >= 1)) &&
      [r.baseDelayMs, r.maxDelayMs].every(
        (d) => d === undefined || (typeof d === 'number' && d >= 0),
      );
    if (!ok)
      invalid('retry must be { attempts?: integer >= 1, baseDelayMs?: ms, maxDelayMs?: ms }.');
  }
  if (o.workspace !== undefined && typeof o.workspace !== 'string')
    invalid('workspace must be a directory path.');
  if (o.random !== undefined && typeof o.random !== 'function')
    invalid('random must be a function returning [0, 1).');
  const clock = o.clock as Record<string, unknown> | null | undefined;
  if (
    clock !== undefined &&
    (typeof clock !== 'object' ||
      clock === null ||
      ['now', 'setTimeout', 'clearTimeout'].some((key) => typeof clock[key] !== 'function'))
  )
    invalid(
      'clock must be { now(), setTimeout(callback, ms), clearTimeout(handle) }, as createFakeClock() of hintgate/testing makes one.',
    );
}
