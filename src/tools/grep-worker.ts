import { Worker } from 'node:worker_threads';
import { BINARY_SNIFF_BYTES } from './looks-binary.js';

/** A file for {@link grepFiles} to search. */
export interface GrepFile {
  /** Workspace-relative path, as results show it. */
  readonly path: string;
  /** Absolute path to read (links already resolved and checked). */
  readonly absolute: string;
}

/** What {@link grepFiles} searches for, and how much it keeps. */
export interface GrepJob {
  /** Source of the regular expression. */
  readonly pattern: string;
  /** Its flags: '' or 'i'. */
  readonly flags: string;
  /** Files to search, in order. */
  readonly files: readonly GrepFile[];
  /** Larger files are skipped and counted. */
  readonly maxFileBytes: number;
  /** Matching lines returned at most; the rest are only counted. */
  readonly maxLines: number;
  /** Characters of a line the expression is tested on (its start). */
  readonly maxTestedChars: number;
  /** Characters of a matching line returned, a window around the match. */
  readonly excerptChars: number;
}

/** One matching line. */
export interface GrepLine {
  readonly path: string;
  /** 1-based line number. */
  readonly line: number;
  /** The line, or a window of it around the match. */
  readonly text: string;
}

/** What {@link grepFiles} found. */
export interface GrepOutcome {
  /** Files searched (text files within the size limit). */
  files: number;
  /** Files skipped as binary. */
  binary: number;
  /** Files skipped as larger than `maxFileBytes`. */
  large: number;
  /** Files with at least one matching line. */
  matchedFiles: number;
  /** The first `maxLines` matching lines. */
  readonly lines: GrepLine[];
  /** Matching lines found beyond `maxLines`. */
  more: number;
  /** True when the time budget ran out before every file was searched. */
  outOfTime: boolean;
}

type Batch = Omit<GrepOutcome, 'outOfTime'>;
type WorkerMessage =
  | { readonly kind: 'batch'; readonly batch: Batch }
  | { readonly kind: 'done' }
  | { readonly kind: 'error'; readonly message: string };

/**
 * The worker's code: plain JavaScript with no imports of this package, run with
 * `eval: true`, so it works the same from the TypeScript sources and from `dist/`. It reads
 * each file itself (regular files only, opened without blocking), skips binary and large
 * ones, tests the first `maxTestedChars` of each line, and posts what it found in batches
 * (before the next file once a line matched, else every 25 ms) and then `done`.
 */
const WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const job = workerData;
const regex = new RegExp(job.pattern, job.flags);
const fresh = () => ({ files: 0, binary: 0, large: 0, matchedFiles: 0, lines: [], more: 0 });
let batch = fresh();
let last = Date.now();
let kept = 0;
const flush = () => {
  parentPort.postMessage({ kind: 'batch', batch });
  batch = fresh();
  last = Date.now();
};
const excerpt = (line, index) => {
  const size = job.excerptChars;
  if (line.length <= size) return line;
  const start = Math.max(0, Math.min(index - 100, line.length - size));
  const head = start > 0 ? '\u2026' : '';
  const tail = start + size < line.length ? '\u2026' : '';
  return head + line.slice(start, start + size) + tail;
};
const read = (absolute) => {
  try {
    if (!fs.statSync(absolute).isFile()) return undefined;
  } catch {
    return undefined;
  }
  let fd;
  try {
    fd = fs.openSync(absolute, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const info = fs.fstatSync(fd);
    if (!info.isFile()) return undefined;
    if (info.size > job.maxFileBytes) return 'large';
    return fs.readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
};
try {
  for (const file of job.files) {
    if (batch.lines.length > 0 || Date.now() - last >= 25) flush();
    const bytes = read(file.absolute);
    if (bytes === undefined) continue;
    if (bytes === 'large') {
      batch.large += 1;
      continue;
    }
    if (bytes.subarray(0, job.sniffBytes).includes(0)) {
      batch.binary += 1;
      continue;
    }
    batch.files += 1;
    const lines = bytes.toString('utf8').split('\n');
    let matched = false;
    for (let i = 0; i < lines.length; i += 1) {
      let line = lines[i];
      if (line.endsWith('\r')) line = line.slice(0, -1);
      const tested = line.length > job.maxTestedChars ? line.slice(0, job.maxTestedChars) : line;
      const match = regex.exec(tested);
      if (match === null) continue;
      matched = true;
      if (kept < job.maxLines) {
        kept += 1;
        batch.lines.push({ path: file.path, line: i + 1, text: excerpt(line, match.index) });
      } else {
        batch.more += 1;
      }
    }
    if (matched) batch.matchedFiles += 1;
  }
  flush();
  parentPort.postMessage({ kind: 'done' });
} catch (error) {
  parentPort.postMessage({ kind: 'error', message: String(error && error.message) });
}
`;

/**
 * Searches files for a regular expression in a worker thread, so that a pattern with
 * catastrophic backtracking (`^(a+)+$`) cannot block the event loop: the worker is
 * terminated when `signal` aborts, which rejects with its reason, or when `timeBudgetMs`
 * runs out, which resolves with what was found so far and `outOfTime` set.
 */
export function grepFiles(
  job: GrepJob,
  options: { readonly signal: AbortSignal; readonly timeBudgetMs: number },
): Promise<GrepOutcome> {
  const { signal, timeBudgetMs } = options;
  const outcome: GrepOutcome = {
    files: 0,
    binary: 0,
    large: 0,
    matchedFiles: 0,
    lines: [],
    more: 0,
    outOfTime: false,
  };
  return new Promise<GrepOutcome>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    if (job.files.length === 0) {
      resolve(outcome);
      return;
    }
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { ...job, sniffBytes: BINARY_SNIFF_BYTES },
    });
    let settled = false;
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      worker.removeAllListeners();
      worker.on('error', () => undefined);
      // Stop it whatever it is doing; an error here only means it has already exited.
      worker.terminate().catch(() => undefined);
      finish();
    };
    const onAbort = (): void => settle(() => reject(signal.reason));
    const timer = setTimeout(() => {
      outcome.outOfTime = true;
      settle(() => resolve(outcome));
    }, timeBudgetMs);
    signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'batch') {
        const { batch } = message;
        outcome.files += batch.files;
        outcome.binary += batch.binary;
        outcome.large += batch.large;
        outcome.matchedFiles += batch.matchedFiles;
        outcome.more += batch.more;
        outcome.lines.push(...batch.lines);
      } else if (message.kind === 'done') {
        settle(() => resolve(outcome));
      } else {
        settle(() => reject(new Error(`The search failed: ${message.message}`)));
      }
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) =>
      settle(() => reject(new Error(`The search stopped unexpectedly (exit code ${code}).`))),
    );
  });
}
