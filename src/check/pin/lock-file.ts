import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { canonicalJson } from '../../audit/index.js';
import { HintgateError } from '../../errors/index.js';
import {
  acquireFileLock,
  FileLockLostError,
  FileLockTimeoutError,
  formatBytes,
  RegularFileError,
  readRegularFile,
  writeFileAtomic,
} from '../../fs/index.js';
import {
  HINT_NAMES,
  isPlainObject,
  nullRecord,
  ownValue,
  type ToolAnnotations,
} from '../../tool/index.js';
import { canonicalText } from './canonical-text.js';
import { DEFINITION_FIELDS, type DefinitionField } from './definition-hash.js';
import { lockFileStamp } from './lock-file-stamp.js';
import {
  type PinnedDefinition,
  type PinnedJson,
  pinnedDefinitionBodyHash,
} from './pinned-definition.js';

/** Version of the lock file format this module reads and writes. */
export const LOCK_FILE_VERSION = 1;

/** Default name of the lock file, written beside the configuration. */
export const LOCK_FILE_NAME = 'hintgate.lock';

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

/** Options of {@link updateLockFile} and {@link writeLockFile}. */
export interface LockFileWriteOptions {
  /**
   * How long to wait for `<path>.lock`, held by another writer, before giving up with
   * `lock_file_locked`, in milliseconds. Default 5000.
   */
  readonly lockTimeoutMs?: number;
  /**
   * Age after which `<path>.lock` is taken as abandoned by a crashed writer and removed, in
   * milliseconds. Default 10000.
   */
  readonly staleLockMs?: number;
  /**
   * The file as read before: its lock and {@link lockFileStamp} (as `readLockFileIfChanged`
   * gives them). When the file still has this stamp, `update` is given this lock, and the
   * file is neither read nor parsed again (a lock of thousands of pins is tens of
   * megabytes); when `update` returns it unchanged, nothing is written.
   */
  readonly known?: { readonly lock: LockFile; readonly stamp?: string | undefined };
}

const DEFAULT_LOCK_TIMEOUT_MS = 5000;
const DEFAULT_STALE_LOCK_MS = 10_000;
/** Largest lock file read: pins of some thousands of tools with their definitions' digests. */
export const MAX_LOCK_FILE_BYTES = 64 * 1024 * 1024;
const DIGEST = /^sha256:[0-9a-f]{64}$/;
const EXPECTED_SHAPE =
  '{ "version": 1, "servers": { "<server>": { "tools": { "<tool>": { "hash", "bodyHash", "fields", "annotations", "pinnedAt", "verdict"?, "definition"? } } } } }';

/** A lock file with no pins. */
export function emptyLockFile(): LockFile {
  return { version: LOCK_FILE_VERSION, servers: nullRecord() };
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

function invalidFile(path: string, problem: string, cause?: unknown): HintgateError {
  return new HintgateError(
    'invalid_lock_file',
    `The lock file ${path} ${problem}. Fix it by hand (expected ${EXPECTED_SHAPE}), or move it away and run \`hintgate pin\` to pin the tools as they are now; hintgate will not overwrite it.`,
    cause === undefined ? undefined : { cause },
  );
}

/** Reports a problem at `where` (a path into the data, `""` for the root) as a phrase. */
type Fail = (where: string, what: string) => never;

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

const DEFINITION_KEYS: ReadonlySet<string> = new Set([
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
  'meta',
]);

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

function checkTool(value: unknown, where: string, fail: Fail): PinnedTool {
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
function checkOutline(data: unknown, fail: Fail): asserts data is LockFile {
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

const toolWhere = (server: string, tool: string): string =>
  `servers[${JSON.stringify(server)}].tools[${JSON.stringify(tool)}]`;

/**
 * Checks the shape of parsed lock file data and returns a clean copy (unknown keys of tool
 * entries are dropped).
 */
function checkLock(data: unknown, fail: Fail): LockFile {
  checkOutline(data, fail);
  // Server and tool names come from outside: `__proto__` or `constructor` are names too.
  const servers = nullRecord<PinnedServer>();
  for (const [server, entry] of Object.entries(data.servers)) {
    const tools = nullRecord<PinnedTool>();
    for (const [tool, pinned] of Object.entries(entry.tools)) {
      tools[tool] = checkTool(pinned, toolWhere(server, tool), fail);
    }
    servers[server] = { tools };
  }
  return { version: LOCK_FILE_VERSION, servers };
}

const describeProblem = (where: string, what: string): string =>
  where === '' ? what : `has ${where} that ${what}`;

/**
 * Parses the text of a lock file. Rejects anything but the version 1 shape with
 * `invalid_lock_file`, naming `path` and what is wrong.
 */
export function parseLockFile(text: string, path: string): LockFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw invalidFile(path, `is not valid JSON (${messageOf(error)})`, error);
  }
  return checkLock(data, (where, what) => {
    throw invalidFile(path, describeProblem(where, what));
  });
}

/**
 * The text of a lock file: two-space indented JSON with `version` first and every object's
 * keys sorted, ending in a newline, so the same pins always give the same bytes (and small
 * diffs under version control). Rejects a malformed `lock` with `invalid_option`.
 */
export function formatLockFile(lock: LockFile): string {
  checkOutline(lock, failToWrite);
  return [...lockFileParts(lock)].join('');
}

const failToWrite: Fail = (where, what) => {
  throw new HintgateError(
    'invalid_option',
    `formatLockFile: the lock ${describeProblem(where, what)}. Build it with pinTools.`,
  );
};

/**
 * Keys in the order `JSON.parse(canonicalJson(...))` gives them: array-index-like keys first
 * in numeric order (as every JS object orders them), then the others sorted.
 */
const jsonKeyOrder = (keys: readonly string[]): string[] =>
  Object.keys(Object.fromEntries([...keys].sort().map((key) => [key, true])));

/**
 * The text of {@link formatLockFile} for a lock whose outline is checked, tool by tool, each
 * tool checked as it comes (`invalid_option`): a file of thousands of pins is written
 * without its whole text, a checked copy or a canonical copy of it in memory.
 */
function* lockFileParts(lock: LockFile): Generator<string> {
  yield `{\n  "version": ${LOCK_FILE_VERSION},\n  "servers": {`;
  const servers = jsonKeyOrder(Object.keys(lock.servers));
  for (const [s, server] of servers.entries()) {
    yield `${s === 0 ? '' : ','}\n    ${JSON.stringify(server)}: {\n      "tools": {`;
    const tools = ownValue(lock.servers, server)?.tools ?? {};
    const names = jsonKeyOrder(Object.keys(tools));
    for (const [t, name] of names.entries()) {
      const pinned = checkTool(ownValue(tools, name), toolWhere(server, name), failToWrite);
      const body = canonicalText(pinned, { indent: '        ' });
      yield `${t === 0 ? '' : ','}\n        ${JSON.stringify(name)}: ${body}`;
    }
    yield names.length === 0 ? '}\n    }' : '\n      }\n    }';
  }
  yield servers.length === 0 ? '}\n}\n' : '\n  }\n}\n';
}

/**
 * Whether two locks hold the same pins (as their files would say), compared tool by tool
 * without the canonical text of either whole lock.
 */
export function sameLockFile(a: LockFile, b: LockFile): boolean {
  if (a === b) return true;
  const servers = Object.keys(a.servers);
  if (a.version !== b.version || servers.length !== Object.keys(b.servers).length) return false;
  return servers.every((server) => {
    const left = ownValue(a.servers, server)?.tools ?? {};
    const right = ownValue(b.servers, server)?.tools;
    if (right === undefined) return false;
    const names = Object.keys(left);
    return (
      names.length === Object.keys(right).length &&
      names.every((name) => {
        const other = ownValue(right, name);
        const mine = ownValue(left, name);
        return (
          other !== undefined && (mine === other || canonicalJson(mine) === canonicalJson(other))
        );
      })
    );
  });
}

/** Whether `parts` joined are exactly `text`, without joining them. */
function spells(parts: Iterable<string>, text: string): boolean {
  let at = 0;
  for (const part of parts) {
    if (!text.startsWith(part, at)) return false;
    at += part.length;
  }
  return at === text.length;
}

/**
 * The text of the lock file at `path`, or undefined when it does not exist. Anything but a regular file of
 * at most {@link MAX_LOCK_FILE_BYTES} is refused without being read whole (or at all).
 */
export async function readLockFileText(path: string): Promise<string | undefined> {
  try {
    return (await readRegularFile(path, { maxBytes: MAX_LOCK_FILE_BYTES })).text;
  } catch (error) {
    if (!(error instanceof RegularFileError)) throw error;
    if (error.problem === 'missing') return undefined;
    const limit =
      error.problem === 'too_large'
        ? `; lock files are read up to ${formatBytes(MAX_LOCK_FILE_BYTES)}`
        : '';
    throw invalidFile(path, `cannot be read (${error.reason}${limit})`, error);
  }
}

function writeFailed(path: string, what: string, cause: unknown): HintgateError {
  return new HintgateError(
    'lock_file_write_failed',
    `Could not ${what} ${path}: ${messageOf(cause)}. Check that the directory is writable and the disk has space.`,
    { cause },
  );
}

function milliseconds(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new HintgateError(
      'invalid_option',
      `Lock file options: ${name} must be a finite number of milliseconds >= 0, got ${String(value)}.`,
    );
  }
  return value;
}

/**
 * Read-modify-write of the lock file at `path`, safe against concurrent writers in this and
 * other processes: takes `<path>.lock`, reads the file afresh, passes it to `update`, and
 * replaces the file atomically with the result (nothing is written when the text would not
 * change). A corrupt file is never overwritten: it rejects with `invalid_lock_file`. Other
 * failures: `lock_file_locked` (another writer held the lock too long),
 * `lock_file_write_failed`, `invalid_option` (bad options or `update` result). Resolves to
 * the lock as written. The file's directory is created if missing. A writer that stalls
 * past `staleLockMs` while holding the lock loses it; it then writes nothing, takes the lock
 * again and calls `update` again on what is there now, so no other writer's pins are lost.
 */
export async function updateLockFile(
  path: string,
  update: (current: LockFile) => LockFile,
  options: LockFileWriteOptions = {},
): Promise<LockFile> {
  const file = resolve(path);
  const lockOptions = {
    timeoutMs: milliseconds('lockTimeoutMs', options.lockTimeoutMs, DEFAULT_LOCK_TIMEOUT_MS),
    staleMs: milliseconds('staleLockMs', options.staleLockMs, DEFAULT_STALE_LOCK_MS),
  };
  try {
    await mkdir(dirname(file), { recursive: true });
  } catch (error) {
    throw writeFailed(dirname(file), 'create the directory', error);
  }
  const lockPath = `${file}.lock`;
  const lockedOut = (cause: unknown): HintgateError =>
    new HintgateError(
      'lock_file_locked',
      `Timed out after ${lockOptions.timeoutMs} ms waiting for ${lockPath}. Another hintgate process is writing the lock file; if none is running, remove ${lockPath} and retry.`,
      { cause },
    );
  const deadline = Date.now() + lockOptions.timeoutMs;
  for (;;) {
    let held: Awaited<ReturnType<typeof acquireFileLock>>;
    try {
      held = await acquireFileLock(lockPath, {
        ...lockOptions,
        timeoutMs: Math.max(0, deadline - Date.now()),
      });
    } catch (error) {
      if (error instanceof FileLockTimeoutError) throw lockedOut(error);
      throw writeFailed(lockPath, 'create', error);
    }
    try {
      const { known } = options;
      const same = known?.stamp !== undefined && (await lockFileStamp(file)) === known.stamp;
      const before = same ? undefined : await readLockFileText(file);
      const current =
        same && known !== undefined
          ? known.lock
          : before === undefined
            ? emptyLockFile()
            : parseLockFile(before, file);
      const next = update(current);
      if (same && next === current) return next;
      // The lock as read was checked when it was parsed, and is what the file says.
      if (next === current && before !== undefined) return next;
      checkOutline(next, failToWrite);
      if (same || before === undefined || !spells(lockFileParts(next), before)) {
        try {
          await writeFileAtomic(file, lockFileParts(next), { mode: 0o644, lock: held });
        } catch (error) {
          if (error instanceof FileLockLostError || error instanceof HintgateError) throw error;
          throw writeFailed(file, 'write the lock file', error);
        }
      }
      return next;
    } catch (error) {
      // Stalled past the stale time: another writer may have written since the read, so
      // read again under a new lock rather than replace its pins.
      if (!(error instanceof FileLockLostError)) throw error;
      if (Date.now() >= deadline) throw lockedOut(error);
    } finally {
      await held.release();
    }
  }
}

/**
 * Replaces the lock file at `path` with `lock`: atomically, serialized with other writers
 * through `<path>.lock`, and never over a corrupt file (`invalid_lock_file`). To change part
 * of the pins without losing a concurrent writer's, use {@link updateLockFile}.
 */
export async function writeLockFile(
  path: string,
  lock: LockFile,
  options: LockFileWriteOptions = {},
): Promise<void> {
  await updateLockFile(path, () => lock, options);
}
