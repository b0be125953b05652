import { diffSentences, structuredPatch } from 'diff';
import { canonicalJson } from '../../audit/index.js';
import { neutralizeTerminalText, paint } from '../../terminal/index.js';
import type { ToolListing } from '../../tool/index.js';
import { isPlainObject, ownValue } from '../../tool/index.js';
import { plural } from '../plural.js';
import type { PinReport, ToolPinState } from './compare-pins.js';
import { lessCautionMoves } from './compare-pins.js';
import { gainedInstructions } from './gained-instructions.js';
import type { LockFile, PinnedTool } from './lock-file.js';
import { pinnedDefinition, pinnedDescription } from './pinned-definition.js';

/** Options of {@link formatPinReview}. */
export interface FormatPinReviewOptions {
  /** The comparison of one server's tools with the pins (`comparePins`). */
  readonly report: PinReport;
  /** The pins the comparison was made against. */
  readonly lock: LockFile;
  /** The server's tools as listed now. */
  readonly listings: readonly ToolListing[];
  /** Use ANSI colours (red removals, green additions, yellow call-outs). Default false. */
  readonly color?: boolean;
  /** Most lines shown for one field's diff; the rest is counted. Default 60. */
  readonly maxDiffLines?: number;
}

/** One server's review, from {@link formatPinReview}. */
export interface PinReview {
  /** The lines to show, without line ends. */
  readonly lines: readonly string[];
  /**
   * Whether pinning would change a review made before: a pinned tool changed, was renamed
   * or removed, or a tool is new on a server that has pins.
   */
  readonly hasChanges: boolean;
  /** Changes called out as needing attention: hints toward less caution, gained instructions. */
  readonly callouts: number;
}

const STATUS_WIDTH = 8;
const DEFAULT_MAX_DIFF_LINES = 60;
const INDENT = '      ';

/** Hostile text made printable on one line, and cut. */
const shown = (text: string, max = 400): string => {
  const safe = neutralizeTerminalText(text);
  return safe.length > max ? `${safe.slice(0, max)}… (+${safe.length - max} chars)` : safe;
};

const pretty = (value: unknown): string =>
  value === undefined ? '' : `${JSON.stringify(JSON.parse(canonicalJson(value)), null, 2)}\n`;

const claimed = (value: unknown): string =>
  value === undefined ? 'absent' : shown(JSON.stringify(value));

/** Builds the review lines of one tool, with colours when asked. */
class ToolLines {
  readonly lines: string[] = [];
  callouts = 0;
  constructor(
    readonly color: boolean,
    readonly maxDiffLines: number,
  ) {}

  push(text: string): void {
    this.lines.push(text);
  }

  callout(text: string): void {
    this.callouts += 1;
    this.lines.push(paint(this.color, `    ! ${text}`, 'bold', 'yellow'));
  }

  /** `-`/`+`/` ` lines, cut after `maxDiffLines`. */
  diff(rows: readonly (readonly ['-' | '+' | ' ', string])[]): void {
    const cut = rows.length > this.maxDiffLines ? rows.length - this.maxDiffLines : 0;
    for (const [sign, text] of rows.slice(0, this.maxDiffLines)) {
      const line = `${INDENT}${sign} ${neutralizeTerminalText(text)}`;
      this.lines.push(
        sign === '-'
          ? paint(this.color, line, 'red')
          : sign === '+'
            ? paint(this.color, line, 'green')
            : line,
      );
    }
    if (cut > 0) this.lines.push(`${INDENT}  ... ${plural(cut, 'more line')}`);
  }
}

/** The description change, one sentence a line. */
function descriptionRows(before: string, after: string): ['-' | '+' | ' ', string][] {
  const rows: ['-' | '+' | ' ', string][] = [];
  for (const part of diffSentences(before, after)) {
    const sign = part.added ? '+' : part.removed ? '-' : ' ';
    for (const line of part.value.split('\n')) {
      if (line.trim() !== '') rows.push([sign, line.trim()]);
    }
  }
  return rows;
}

/** A JSON value's change as unified diff lines (two lines of context) of its pretty form. */
function jsonRows(before: unknown, after: unknown): ['-' | '+' | ' ', string][] {
  const patch = structuredPatch('pinned', 'listed', pretty(before), pretty(after), '', '', {
    context: 2,
  });
  const rows: ['-' | '+' | ' ', string][] = [];
  patch.hunks.forEach((hunk, index) => {
    if (index > 0) rows.push([' ', '...']);
    for (const line of hunk.lines) {
      const sign = line[0] === '+' || line[0] === '-' ? line[0] : ' ';
      if (line.startsWith('\\')) continue;
      rows.push([sign, line.slice(1)]);
    }
  });
  return rows;
}

/** What changed in the annotations, key by key, with hints toward less caution marked. */
function annotationLines(
  out: ToolLines,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): void {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const lessCaution = new Set<string>(lessCautionMoves(before, after).map((move) => move.hint));
  for (const key of keys) {
    const from = ownValue(before, key);
    const to = ownValue(after, key);
    if (canonicalJson(from) === canonicalJson(to)) continue;
    const mark = lessCaution.has(key) ? '  <- less caution' : '';
    const line = `${INDENT}${shown(key, 80)}: ${claimed(from)} -> ${claimed(to)}${mark}`;
    out.push(mark === '' ? line : paint(out.color, line, 'bold', 'yellow'));
  }
}

const asRecord = (value: unknown): Record<string, unknown> => (isPlainObject(value) ? value : {});

/** The detail lines of a tool whose pinned definition changed. */
function changedTool(
  out: ToolLines,
  state: ToolPinState,
  pinned: PinnedTool | undefined,
  listing: ToolListing,
): void {
  const now = pinnedDefinition(listing);
  for (const move of lessCautionMoves(pinned?.annotations, listing.annotations)) {
    out.callout(
      `downgrade: ${move.hint} ${claimed(move.from)} -> ${claimed(move.to)} (effective ${move.effectiveFrom} -> ${move.effectiveTo}): the tool now claims to need less caution. Make sure it really changed.`,
    );
  }
  const old = pinned?.definition;
  if (old === undefined) {
    out.push(
      '    (the pin file has no earlier definition of this tool: it was pinned before hintgate recorded definitions; shown is what is listed now)',
    );
  }
  const before = old === undefined ? '' : pinnedDescription(old);
  const after = pinnedDescription(now);
  if (old !== undefined) {
    for (const sentence of gainedInstructions(before, after)) {
      out.callout(`the description gained instructions to the model: "${shown(sentence, 300)}"`);
    }
  }
  for (const field of state.changedFields ?? []) {
    out.push(`    ${field}:`);
    switch (field) {
      case 'description':
        out.diff(descriptionRows(before, after));
        break;
      case 'title':
        out.push(`${INDENT}${claimed(old?.title)} -> ${claimed(now.title)}`);
        break;
      case 'annotations':
        annotationLines(
          out,
          asRecord(old?.annotations ?? pinned?.annotations),
          asRecord(now.annotations),
        );
        break;
      default:
        out.diff(jsonRows(old?.[field], now[field]));
    }
  }
}

/**
 * A review of what pinning one server's tools now would change, for a person to read
 * before confirming: a summary line; then per tool that is not pinned as listed its status
 * (`changed`, `new`, `renamed`, `removed`) with the fields that changed and the severity;
 * for a changed tool, the diff against its pinned definition (old and new description, one
 * sentence a line; annotation keys with hints that moved toward less caution marked;
 * schema and `_meta` changes as unified diffs). A hint toward less caution (a downgrade) and
 * a description that gained instructions to the model are called out with `!`. On a first
 * pin (every tool new) only the summary is shown. Text from the server is made printable
 * (control characters escaped), so it cannot redraw the terminal.
 */
export function formatPinReview(options: FormatPinReviewOptions): PinReview {
  const { report, lock, listings } = options;
  const color = options.color ?? false;
  const maxDiffLines = options.maxDiffLines ?? DEFAULT_MAX_DIFF_LINES;
  const pins = ownValue(lock.servers, report.server)?.tools ?? {};
  const byName = new Map(listings.map((listing) => [listing.name, listing]));
  const counts = new Map<string, number>();
  for (const state of report.tools) counts.set(state.status, (counts.get(state.status) ?? 0) + 1);
  const listed = report.tools.filter((state) => state.status !== 'removed').length;
  const summary = ['new', 'changed', 'renamed', 'removed']
    .filter((status) => counts.has(status))
    .map((status) => `${counts.get(status)} ${status}`);
  const lines = [
    `${shown(report.server, 80)}: ${plural(listed, 'tool')}${summary.length === 0 ? ', unchanged' : ` (${summary.join(', ')})`}`,
  ];
  // On a first pin every tool is new: the summary says so, without a line per tool.
  const first = report.tools.every((state) => state.status === 'new');
  let callouts = 0;
  // Per tool: its most severe finding but a downgrade (findings come most severe first),
  // and whether it has a downgrade; looked up by name, not by a scan per tool.
  const severities = new Map<string, string>();
  const downgraded = new Set<string>();
  for (const finding of report.findings) {
    if (finding.id === 'pin-less-caution') downgraded.add(finding.tool);
    else if (!severities.has(finding.tool)) severities.set(finding.tool, finding.severity);
  }
  for (const state of report.tools) {
    if (state.status === 'pinned' || first) continue;
    const severity = severities.get(state.tool) ?? 'low';
    const high = downgraded.has(state.tool);
    const detail =
      state.status === 'changed'
        ? ` (${(state.changedFields ?? []).join(', ') || 'definition'})`
        : state.status === 'renamed'
          ? ` (was ${shown(state.renamedFrom ?? '', 80)})`
          : '';
    lines.push(
      `  ${state.status.padEnd(STATUS_WIDTH)} ${shown(state.tool, 128)}${detail} [${high ? 'high' : severity}]`,
    );
    const listing = byName.get(state.tool);
    const out = new ToolLines(color, maxDiffLines);
    if (state.status === 'changed' && listing !== undefined) {
      changedTool(out, state, ownValue(pins, state.tool), listing);
    } else if (state.status === 'new' && listing !== undefined) {
      out.push(`    description: ${shown(listing.description)}`);
      out.push(`    annotations: ${claimed(listing.annotations ?? {})}`);
    }
    callouts += out.callouts;
    lines.push(...out.lines);
  }
  return {
    lines,
    hasChanges: !first && report.tools.some((state) => state.status !== 'pinned'),
    callouts,
  };
}
