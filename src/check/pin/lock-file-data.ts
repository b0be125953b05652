import { HintgateError } from '../../errors/index.js';
import { HINT_NAMES, isPlainObject, nullRecord, type ToolAnnotations } from '../../tool/index.js';
import { DEFINITION_FIELDS, type DefinitionField } from './definition-hash.js';
import {
  type PinnedDefinition,
  type PinnedJson,
  pinnedDefinitionBodyHash,
} from './pinned-definition.js';

/** Version of the lock file format this module reads and writes. */
export const LOCK_FILE_VERSION = 1;

/** What `hintgate check --probe` found out about a pinned tool's annotations. */
export type PinVerdict = 'verified' | 'violation' | 'inconclusive';

/** Values of {@link PinVerdict}. */
export const PIN_VERDICTS = ['verified', 'violation', 'inconclusive'] as const;

/** One pinned tool. */
export interface PinnedTool {
  /** `definitionHash` of the tool when it was pinned. */
  readonly hash: string;
  /** `definitionBodyHash` (the definition without its name), to recognise renames. */
  readonly bodyHash: string;
  /** A digest per field of the definition, to say which fields changed. */
  readonly fields: Readonly<Partial<Record<DefinitionField, string>>>;
  /** Title and hints as claimed when pinned, three states kept (absent hints left out). */
  readonly annotations: ToolAnnotations;
  /** When this definition was first pinned, as an ISO 8601 time. */
  readonly pinnedAt: string;
  /** Verdict of a side-effect probe of this very definition, when one was recorded. */
  readonly verdict?: PinVerdict;
  /**
   * The definition itself (title, description, schemas, annotations, hint `_meta`), so that
   * a change can be reviewed as a diff. Absent in pins written before hintgate recorded it;
   * when present it matches `bodyHash`.
   */
  readonly definition?: PinnedDefinition;
}

/** The pins of one upstream server. */
export interface PinnedServer {
  /**
   * Pinned tools by name. The lock files this module reads and writes hold records without
   * a prototype (a tool may be named `constructor`); look names up with an own-property
   * check (`Object.hasOwn`).
   */
  readonly tools: Readonly<Record<string, PinnedTool>>;
}

/**
 * Contents of `hintgate.lock`:
 * `{ "version": 1, "servers": { [server]: { "tools": { [tool]: PinnedTool } } } }`.
 */
export interface LockFile {
  readonly version: typeof LOCK_FILE_VERSION;
  /** Pins by server name (a record without a prototype, as `tools`). */
  readonly servers: Readonly<Record<string, PinnedServer>>;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const EXPECTED_SHAPE =
  '{ "version": 1, "servers": { "<server>": { "tools": { "<tool>": { "hash", "bodyHash", "fields", "annotations", "pinnedAt", "verdict"?, "definition"? } } } } }';

/** A lock file with no pins. */
export function emptyLockFile(): LockFile {
  return { version: LOCK_FILE_VERSION, servers: nullRecord() };
}

export const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

export function invalidFile(path: string, problem: string, cause?: unknown): HintgateError {
  return new HintgateError(
    'invalid_lock_file',
    `The lock file ${path} ${problem}. Fix it by hand (expected ${EXPECTED_SHAPE}), or move it away and run \`hintgate pin\` to pin the tools as they are now; hintgate will not overwrite it.`,
    cause === undefined ? undefined : { cause },
  );
}

/** Reports a problem at `where` (a path into the data, `""` for the root) as a phrase. */
export type Fail = (where: string, what: string) => never;

function checkAnnotations(value: unknown, where: string, fail: Fail): ToolAnnotations {
  if (!isPlainObject(value)) fail(where, 'is not an object');
  const out: Record<string, string | boolean> = {};
  // Sorted, as the lock file writes them: its text is then JSON.stringify's (canonicalText).
  for (const [key, claimed] of Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (key === 'title') {
      if (typeof claimed !== 'string') fail(`${where}.title`, 'is not a string');
      out.title = claimed;
    } else if ((HINT_NAMES as readonly string[]).includes(key)) {
      if (typeof claimed !== 'boolean') fail(`${where}.${key}`, 'is not true or false');
      out[key] = claimed;
    } else {
      fail(`${where}.${key}`, 'is not an MCP annotation (title or one of the four hints)');
    }
  }
  return out as ToolAnnotations;
}

const checkDigest = (value: unknown, where: string, fail: Fail): string => {
  if (typeof value !== 'string' || !DIGEST.test(value)) {
    fail(where, 'is not a "sha256:<64 hex digits>" digest');
  }
  return value;
};

const DEFINITION_KEYS: ReadonlySet<string> = new Set(DEFINITION_FIELDS);

/** Checks a recorded definition's shape, and that it is the definition `bodyHash` covers. */
function checkDefinition(
  value: unknown,
  bodyHash: string,
  where: string,
  fail: Fail,
): PinnedDefinition {
  if (!isPlainObject(value)) fail(where, 'is not an object');
  for (const key of Object.keys(value)) {
    if (!DEFINITION_KEYS.has(key)) {
      fail(`${where}.${key}`, `is not one of ${[...DEFINITION_KEYS].join(', ')}`);
    }
  }
  const { title, description, inputSchema, outputSchema, annotations, meta } = value;
  if (title !== undefined && typeof title !== 'string') fail(`${where}.title`, 'is not a string');
  const lines = Array.isArray(description) && description.every((l) => typeof l === 'string');
  if (typeof description !== 'string' && !lines) {
    fail(`${where}.description`, 'is not a string or a list of lines');
  }
  for (const [key, field] of Object.entries({ inputSchema, outputSchema, annotations, meta })) {
    if ((field !== undefined || key === 'inputSchema') && !isPlainObject(field)) {
      fail(`${where}.${key}`, 'is not an object');
    }
  }
  // Keys sorted, as the lock file writes them (see checkTool).
  const definition = {
    ...(annotations === undefined ? {} : { annotations }),
    description,
    inputSchema,
    ...(meta === undefined ? {} : { meta }),
    ...(outputSchema === undefined ? {} : { outputSchema }),
    ...(title === undefined ? {} : { title }),
  } as PinnedDefinition & { readonly inputSchema: PinnedJson };
  if (pinnedDefinitionBodyHash(definition) !== bodyHash) {
    fail(
      where,
      'does not match its bodyHash (was it edited by hand?); a review would show a definition that was not the one pinned',
    );
  }
  return definition;
}

export function checkTool(value: unknown, where: string, fail: Fail): PinnedTool {
  if (!isPlainObject(value)) fail(where, 'is not an object');
  const { fields, pinnedAt, verdict } = value;
  const hash = checkDigest(value.hash, `${where}.hash`, fail);
  const bodyHash = checkDigest(value.bodyHash, `${where}.bodyHash`, fail);
  if (!isPlainObject(fields)) fail(`${where}.fields`, 'is not an object');
  const digests: Partial<Record<DefinitionField, string>> = {};
  for (const [field, digest] of Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!(DEFINITION_FIELDS as readonly string[]).includes(field)) {
      fail(`${where}.fields.${field}`, `is not one of ${DEFINITION_FIELDS.join(', ')}`);
    }
    digests[field as DefinitionField] = checkDigest(digest, `${where}.fields.${field}`, fail);
  }
  const annotations = checkAnnotations(value.annotations, `${where}.annotations`, fail);
  if (typeof pinnedAt !== 'string' || Number.isNaN(Date.parse(pinnedAt))) {
    fail(`${where}.pinnedAt`, 'is not an ISO 8601 time');
  }
  if (verdict !== undefined && !(PIN_VERDICTS as readonly unknown[]).includes(verdict)) {
    fail(`${where}.verdict`, `is not one of ${PIN_VERDICTS.join(', ')}`);
  }
  const definition =
    value.definition === undefined
      ? undefined
      : checkDefinition(value.definition, bodyHash, `${where}.definition`, fail);
  // Keys sorted at every level: a pin whose schemas are sorted too is written with
  // JSON.stringify by canonicalText, not with a sorting pass over the whole definition.
  return {
    annotations,
    bodyHash,
    ...(definition === undefined ? {} : { definition }),
    fields: digests,
    hash,
    pinnedAt,
    ...(verdict === undefined ? {} : { verdict: verdict as PinVerdict }),
  };
}

/** Checks the shape of lock file data down to each server's `tools`, not the tools. */
export function checkOutline(data: unknown, fail: Fail): asserts data is LockFile {
  if (!isPlainObject(data)) fail('', 'is not a JSON object');
  if (data.version !== LOCK_FILE_VERSION) {
    fail(
      '',
      `has version ${JSON.stringify(data.version) ?? '(none)'}, but this hintgate reads version ${LOCK_FILE_VERSION}`,
    );
  }
  if (!isPlainObject(data.servers)) fail('servers', 'is not an object');
  for (const [server, entry] of Object.entries(data.servers)) {
    const where = `servers[${JSON.stringify(server)}]`;
    if (!isPlainObject(entry)) fail(where, 'is not an object');
    if (!isPlainObject(entry.tools)) fail(`${where}.tools`, 'is not an object');
  }
}

export const toolWhere = (server: string, tool: string): string =>
  `servers[${JSON.stringify(server)}].tools[${JSON.stringify(tool)}]`;

/** Tools checked between two turns of the event loop when a lock is read asynchronously. */
const TOOLS_PER_SLICE = 500;

/**
 * Checks the shape of parsed lock file data and returns a clean copy (unknown keys of tool
 * entries are dropped); yields after every {@link TOOLS_PER_SLICE} tools, so that a reader
 * may let other work run between slices of a lock of thousands of pins.
 */
function* checkLock(data: unknown, fail: Fail): Generator<void, LockFile> {
  checkOutline(data, fail);
  // Server and tool names come from outside: `__proto__` or `constructor` are names too.
  const servers = nullRecord<PinnedServer>();
  let checked = 0;
  for (const [server, entry] of Object.entries(data.servers)) {
    const tools = nullRecord<PinnedTool>();
    for (const [tool, pinned] of Object.entries(entry.tools)) {
      tools[tool] = checkTool(pinned, toolWhere(server, tool), fail);
      checked += 1;
      if (checked % TOOLS_PER_SLICE === 0) yield;
    }
    servers[server] = { tools };
  }
  return { version: LOCK_FILE_VERSION, servers };
}

export const describeProblem = (where: string, what: string): string =>
  where === '' ? what : `has ${where} that ${what}`;

/** `JSON.parse` of a lock file's text, and how its problems are reported. */
function parsed(text: string, path: string): { data: unknown; fail: Fail } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw invalidFile(path, `is not valid JSON (${messageOf(error)})`, error);
  }
  const fail: Fail = (where, what) => {
    throw invalidFile(path, describeProblem(where, what));
  };
  return { data, fail };
}

/**
 * Parses the text of a lock file. Rejects anything but the version 1 shape with
 * `invalid_lock_file`, naming `path` and what is wrong.
 */
export function parseLockFile(text: string, path: string): LockFile {
  const { data, fail } = parsed(text, path);
  const steps = checkLock(data, fail);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * {@link parseLockFile}, checking the pins in slices with a turn of the event loop between
 * them: a lock of thousands of pins (tens of megabytes) does not hold the event loop for
 * the whole check, so a gateway that reads it while its servers start, or again while it
 * serves, answers its servers and clients meanwhile.
 */
export async function parseLockFileInTurns(text: string, path: string): Promise<LockFile> {
  const { data, fail } = parsed(text, path);
  const steps = checkLock(data, fail);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    await nextTurn();
  }
}
