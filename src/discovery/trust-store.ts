import { mkdir, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { HintgateError } from '../errors/index.js';
import {
  acquireFileLock,
  RegularFileError,
  readRegularFile,
  writeFileAtomic,
} from '../fs/index.js';
import { isPlainObject } from '../tool/index.js';

/** Name of the file in hintgate's home folder that remembers trusted project folders. */
export const TRUST_FILE_NAME = 'trusted-projects.json';

/** What the trust file remembers of one project folder. */
export interface ProjectTrustRecord {
  /** `sha256:` hash of the folder's `.hintgate/tools/` when it was trusted. */
  readonly hash: string;
  /** ISO-8601 time it was trusted. */
  readonly trustedAt: string;
}

/**
 * Whether a project folder's tools may load: `trusted` (trusted with this very hash),
 * `changed` (trusted, but its tool files changed since), `new` (never trusted).
 */
export type ProjectTrustStatus = 'trusted' | 'changed' | 'new';

/** Options of {@link createTrustStore}. */
export interface TrustStoreOptions {
  /** hintgate's home folder (see `hintgateHome`); the trust file lives in it. */
  readonly home: string;
}

/** The trusted project folders of one home folder. */
export interface TrustStore {
  /** Path of the trust file. */
  readonly path: string;
  /** Every remembered folder (real paths) and its record. */
  list(): Promise<ReadonlyMap<string, ProjectTrustRecord>>;
  /** Whether `project` is trusted with `hash`. */
  status(project: string, hash: string): Promise<ProjectTrustStatus>;
  /** Remembers `project` as trusted with `hash` (replacing an earlier record). */
  trust(project: string, hash: string): Promise<void>;
  /** Forgets `project`; resolves to whether it was remembered. */
  forget(project: string): Promise<boolean>;
}

const LOCK = { timeoutMs: 10_000, staleMs: 30_000 } as const;

/** The real path of a folder, so that a symlink and its target are one project. */
const canonical = async (project: string): Promise<string> => {
  const absolute = resolve(project);
  try {
    return await realpath(absolute);
  } catch {
    return absolute;
  }
};

const invalidFile = (path: string, what: string): never => {
  throw new HintgateError(
    'invalid_trust_file',
    `The trust file ${path} ${what}. Fix it or delete it (every project folder is then asked for again).`,
  );
};

async function readRecords(path: string): Promise<Map<string, ProjectTrustRecord>> {
  let text: string;
  try {
    text = (await readRegularFile(path, { maxBytes: 4 * 1024 * 1024 })).text;
  } catch (error) {
    if (error instanceof RegularFileError && error.problem === 'missing') return new Map();
    return invalidFile(path, `cannot be read (${(error as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return invalidFile(path, `is not JSON (${(error as Error).message})`);
  }
  if (!isPlainObject(parsed) || parsed.version !== 1 || !isPlainObject(parsed.projects)) {
    return invalidFile(path, 'is not { "version": 1, "projects": { ... } }');
  }
  const records = new Map<string, ProjectTrustRecord>();
  for (const [folder, record] of Object.entries(parsed.projects)) {
    if (
      !isPlainObject(record) ||
      typeof record.hash !== 'string' ||
      typeof record.trustedAt !== 'string'
    ) {
      return invalidFile(path, `has a bad record for "${folder}" (expected { hash, trustedAt })`);
    }
    records.set(folder, { hash: record.hash, trustedAt: record.trustedAt });
  }
  return records;
}

const render = (records: ReadonlyMap<string, ProjectTrustRecord>): string =>
  `${JSON.stringify(
    { version: 1, projects: Object.fromEntries([...records].sort(([a], [b]) => (a < b ? -1 : 1))) },
    null,
    2,
  )}\n`;

/**
 * The trust file of a home folder (`<home>/trusted-projects.json`): which project folders a
 * person trusted to load their `.hintgate/tools/`, each with the hash of those files then.
 * Writes are atomic and serialized by a lock file beside it.
 */
export function createTrustStore(options: TrustStoreOptions): TrustStore {
  const path = join(options.home, TRUST_FILE_NAME);
  const update = async (
    change: (records: Map<string, ProjectTrustRecord>) => boolean,
  ): Promise<boolean> => {
    try {
      await mkdir(options.home, { recursive: true, mode: 0o700 });
      const lock = await acquireFileLock(`${path}.lock`, LOCK);
      try {
        const records = await readRecords(path);
        const changed = change(records);
        if (changed) await writeFileAtomic(path, render(records), { lock });
        return changed;
      } finally {
        await lock.release();
      }
    } catch (error) {
      if (error instanceof HintgateError) throw error;
      throw new HintgateError(
        'trust_write_failed',
        `Cannot write the trust file ${path}: ${(error as Error).message}. Check that the folder is writable (or set HINTGATE_HOME to another folder).`,
        { cause: error },
      );
    }
  };
  return {
    path,
    list: () => readRecords(path),
    async status(project, hash) {
      const record = (await readRecords(path)).get(await canonical(project));
      if (record === undefined) return 'new';
      return record.hash === hash ? 'trusted' : 'changed';
    },
    async trust(project, hash) {
      const folder = await canonical(project);
      await update((records) => {
        records.set(folder, { hash, trustedAt: new Date().toISOString() });
        return true;
      });
    },
    async forget(project) {
      const folder = await canonical(project);
      return update((records) => records.delete(folder));
    },
  };
}
