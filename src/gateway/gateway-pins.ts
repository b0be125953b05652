import { stat } from 'node:fs/promises';
import {
  comparePins,
  type LockFile,
  type PinFinding,
  type PinReport,
  type ReadLockFile,
  readLockFileIfChanged,
} from '../check/pin.js';
import type { NewToolsPolicy } from '../gateway/config/index.js';
import type { ToolListing } from '../tool/index.js';

/** The pins as read from the pin file, and whether there was a file. */
export interface LoadedPins {
  readonly lock: LockFile;
  readonly exists: boolean;
  /** The file as read (its text), to read it again cheaply while it does not change. */
  readonly read: ReadLockFile;
}

/**
 * Reads the pin file. A missing file is an empty lock with `exists: false`. Given the pins
 * read before, returns them as they are (the same object) while the file's text is the
 * same: the pins of a big catalog are parsed and checked only when the file changed.
 *
 * @throws HintgateError `invalid_lock_file` for a file that is not a lock file.
 */
export async function loadPins(path: string, previous?: LoadedPins): Promise<LoadedPins> {
  // Anything but a missing file is read, so that the lock file reader says what is wrong.
  const exists = await stat(path).then(
    () => true,
    (error: { code?: string }) => error.code !== 'ENOENT',
  );
  const read = await readLockFileIfChanged(path, previous?.read);
  if (previous !== undefined && read === previous.read && exists === previous.exists) {
    return previous;
  }
  return { lock: read.lock, exists, read };
}

/** A tool that is not pinned yet and whose calls ask first (`pin.newTools: ask`). */
export interface UnpinnedTool {
  /** Why its calls ask: not pinned yet, and that `hintgate pin` pins it. */
  readonly reason: string;
  /** `definitionHash` of its listed definition: an approval holds for this definition only. */
  readonly hash: string;
}

/** What the pins say about one server's tools. */
export interface PinAssessment {
  readonly report: PinReport;
  /** Why each tool held back is held back, by its name on the server. */
  readonly blocked: ReadonlyMap<string, string>;
  /** Tools not pinned yet whose every call asks (`newTools: ask`), by name on the server. */
  readonly unpinned: ReadonlyMap<string, UnpinnedTool>;
  /**
   * Tools listed with the definition that was pinned, and pinned with the verdict
   * `verified`: their annotations are trusted even when their server is not.
   */
  readonly verified: ReadonlySet<string>;
}

const withoutPeriod = (text: string): string => text.replace(/\.\s*$/, '');

/**
 * Compares one server's tools with their pins. A `changed` tool is blocked until it is
 * pinned again; a `new` tool (or one `renamed`, which is not pinned under its new name) is
 * held back as well when `newTools` is `pending`, and asks before every call when it is
 * `ask`. The reasons name the tool, what changed and that `hintgate pin` lets it run. A
 * `pinned` tool whose pin carries the verdict `verified` is reported in `verified`.
 */
export function assessPins(options: {
  readonly lock: LockFile;
  readonly server: string;
  /** The server's tools as listed (`toToolListing` of each). */
  readonly listings: readonly ToolListing[];
  readonly newTools: NewToolsPolicy;
}): PinAssessment {
  const { lock, server, listings, newTools } = options;
  const report = comparePins(lock, { server, listings });
  // Grouped once: a catalog of thousands of new tools has thousands of findings.
  const findings = new Map<string, PinFinding[]>();
  for (const finding of report.findings) {
    const of = findings.get(finding.tool);
    if (of === undefined) findings.set(finding.tool, [finding]);
    else of.push(finding);
  }
  const findingsOf = (tool: string): readonly PinFinding[] => findings.get(tool) ?? [];
  const blocked = new Map<string, string>();
  const unpinned = new Map<string, UnpinnedTool>();
  const verified = new Set<string>();
  for (const state of report.tools) {
    if (state.status === 'pinned') {
      if (state.verdict === 'verified') verified.add(state.tool);
    } else if (state.status === 'changed') {
      const messages = findingsOf(state.tool).map((finding) => withoutPeriod(finding.message));
      blocked.set(state.tool, messages.join('; '));
    } else if ((state.status === 'new' || state.status === 'renamed') && newTools !== 'allow') {
      const renamed =
        state.renamedFrom === undefined ? '' : ` (it was pinned as "${state.renamedFrom}")`;
      const tool = `tool "${state.tool}" of server "${server}" is not pinned yet${renamed}`;
      if (newTools === 'pending') {
        blocked.set(
          state.tool,
          `${tool}, and tools that are not pinned wait until a person reviews them and runs \`hintgate pin\``,
        );
      } else {
        unpinned.set(state.tool, {
          reason: `${tool}: every call to it asks the user and its annotations are not trusted (pin.newTools: ask), until a person reviews it and runs \`hintgate pin\``,
          hash: state.hash ?? '',
        });
      }
    }
  }
  return { report, blocked, unpinned, verified };
}
