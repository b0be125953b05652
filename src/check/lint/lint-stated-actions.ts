import { ownValue } from '../../tool/index.js';
import { destructiveDescriptionVerbs } from './description-actions.js';
import { nameActions } from './name-actions.js';
import { claimedHints, type ReportFinding, type ToolEntry } from './tool-entry.js';

const quoted = (words: readonly string[]): string => words.map((word) => `"${word}"`).join(', ');

/**
 * Lints what a tool's name and description say it does against what its annotations claim.
 * Only claims count: an absent hint means its spec default, which agrees with every name
 * here except a read-style one (and absent hints are `annotations-incomplete` anyway).
 * - `destructive-name-not-destructive`: the name's verb deletes (see `nameActions`) and the
 *   tool claims `readOnlyHint: true` or `destructiveHint: false`.
 * - `destructive-description-not-destructive`: the same for the description (see
 *   `destructiveDescriptionVerbs`), when the name did not already say it.
 * - `write-name-read-only`: the name's verb writes and the tool claims `readOnlyHint: true`.
 * - `read-name-not-read-only`: the name's verbs only read and `readOnlyHint` is not true.
 * - `open-world-name-closed`: the name speaks of the network and the tool claims
 *   `openWorldHint: false`.
 */
export function lintStatedActions(entry: ToolEntry, report: ReportFinding): void {
  const { hints } = entry;
  const actions = nameActions(entry.name);
  const readOnly = hints.readOnlyHint === true;
  const notDestructive = readOnly || hints.destructiveHint === false;
  const evidence = [`name words: ${actions.words.join(' ')}`, ...claimedHints(entry)];
  const claim = readOnly ? 'readOnlyHint: true' : 'destructiveHint: false';
  const consequence = readOnly
    ? 'clients run it in parallel with other calls and without approval'
    : 'clients in auto mode run it without asking';
  const destructiveFix = readOnly
    ? 'set `readOnlyHint: false` and `destructiveHint: true` in the annotations'
    : 'set `destructiveHint: true` in the annotations';

  if (actions.destructive.length > 0 && notDestructive) {
    report(
      'destructive-name-not-destructive',
      `The name says ${quoted(actions.destructive)} but the tool claims ${claim}, so ${consequence}.`,
      `If the tool deletes or overwrites anything, ${destructiveFix}; if it does not, rename it.`,
      evidence,
    );
  } else if (notDestructive) {
    const description = ownValue(entry.fields, 'description');
    const verbs = typeof description === 'string' ? destructiveDescriptionVerbs(description) : [];
    if (verbs.length > 0) {
      report(
        'destructive-description-not-destructive',
        `The description says the tool does ${quoted(verbs)} but the tool claims ${claim}, so ${consequence}.`,
        `If the tool does, ${destructiveFix}; if it does not, reword the description (e.g. say what it leaves alone: "never deletes").`,
        [`description words: ${verbs.join(', ')}`, ...claimedHints(entry)],
      );
    }
  }

  if (actions.write.length > 0 && actions.destructive.length === 0 && readOnly) {
    report(
      'write-name-read-only',
      `The name says ${quoted(actions.write)} but the tool claims readOnlyHint: true, so clients run it in parallel, retry it and ask no approval.`,
      'If the tool changes anything, set `readOnlyHint: false` with `destructiveHint` and `idempotentHint` set to what it does; if it only reads, rename it (e.g. with get_, list_ or read_).',
      evidence,
    );
  }

  if (
    actions.read.length > 0 &&
    actions.write.length === 0 &&
    actions.destructive.length === 0 &&
    !readOnly
  ) {
    const why =
      hints.readOnlyHint === false
        ? 'claims readOnlyHint: false'
        : 'leaves readOnlyHint out (spec default false)';
    report(
      'read-name-not-read-only',
      `The name says ${quoted(actions.read)} but the tool ${why}, so clients treat it as writing: its calls run one at a time and ask for approval.`,
      'If the tool only reads, add `readOnlyHint: true` to the annotations; if it changes something, rename it after what it changes.',
      evidence,
    );
  }

  if (actions.openWorld.length > 0 && hints.openWorldHint === false) {
    report(
      'open-world-name-closed',
      `The name says ${quoted(actions.openWorld)} but the tool claims openWorldHint: false, so clients do not order or gate it as a call into systems they cannot see.`,
      'If the tool reaches the network or other outside systems, set `openWorldHint: true` (or remove it: the spec default is true); if it only works on a closed system, rename it.',
      evidence,
    );
  }
}
