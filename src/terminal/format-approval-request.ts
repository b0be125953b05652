import { argumentDigest } from '../audit/index.js';
import {
  type ApprovalRequest,
  approvalKeyLines,
  opaqueLines,
  showBlankRuns,
} from '../policy/index.js';
import { neutralizeTerminalText } from './neutralize-terminal-text.js';

/** Options of {@link formatApprovalRequest}. */
export interface FormatApprovalRequestOptions {
  /** Use ANSI colours and bold. Default false. */
  readonly color?: boolean;
  /**
   * Longest string (argument value, key, reason) shown whole, in characters (after runs of
   * blanks are shown as `⟨N blanks⟩`). Default 200. A longer one is cut with a note, and the
   * note on the arguments then gives their digest, the one the audit log records.
   */
  readonly maxStringLength?: number;
  /** Most lines of pretty-printed arguments shown. Default 40. */
  readonly maxArgumentLines?: number;
}

const DEFAULT_MAX_STRING = 200;
const DEFAULT_MAX_ARGUMENT_LINES = 40;
const MAX_ITEMS = 20;
const MAX_DEPTH = 6;
/** Keys already covered (by a rule or a remembered approval) listed before a count. */
const MAX_COVERED_SHOWN = 10;

/** ANSI SGR codes used by the prompt. */
const STYLE = {
  bold: '1',
  dim: '2',
  red: '31',
  green: '32',
  yellow: '33',
  cyan: '36',
  inverse: '7',
} as const;

/** Wraps `text` in the SGR codes of `styles` (bold, dim, colours) when `color` is on. */
export function paint(color: boolean, text: string, ...styles: (keyof typeof STYLE)[]): string {
  if (!color || styles.length === 0) return text;
  return `\u001b[${styles.map((style) => STYLE[style]).join(';')}m${text}\u001b[0m`;
}

const cutString = (text: string, max: number): { text: string; cut: boolean } =>
  text.length <= max
    ? { text, cut: false }
    : { text: `${text.slice(0, max)}… (+${text.length - max} chars)`, cut: true };

/**
 * A JSON-safe copy of `value` for display: long strings, long arrays, big objects and deep
 * nesting replaced by short notes; cycles, bigints and functions made printable.
 */
function shorten(value: unknown, maxString: number): { value: unknown; cut: boolean } {
  let cut = false;
  const seen = new Set<object>();
  const visit = (item: unknown, depth: number): unknown => {
    if (typeof item === 'string') {
      const result = cutString(showBlankRuns(item), maxString);
      cut ||= result.cut;
      return result.text;
    }
    if (typeof item === 'bigint') return `${item}n`;
    if (typeof item === 'function' || typeof item === 'symbol') return `[${typeof item}]`;
    if (typeof item !== 'object' || item === null) return item;
    const toJSON: unknown = Reflect.get(item, 'toJSON');
    if (typeof toJSON === 'function') return visit(toJSON.call(item), depth);
    if (seen.has(item)) return '[circular]';
    if (depth >= MAX_DEPTH) {
      cut = true;
      return Array.isArray(item) ? `[… ${item.length} items]` : '{…}';
    }
    seen.add(item);
    try {
      if (Array.isArray(item)) {
        const shown = item.slice(0, MAX_ITEMS).map((element) => visit(element, depth + 1));
        if (item.length > MAX_ITEMS) {
          cut = true;
          shown.push(`… ${item.length - MAX_ITEMS} more items`);
        }
        return shown;
      }
      const entries = Object.entries(item);
      // No prototype: an argument named `__proto__` is shown like any other, not dropped.
      const copy: Record<string, unknown> = Object.create(null);
      for (const [key, element] of entries.slice(0, MAX_ITEMS)) {
        const name = cutString(key, maxString);
        cut ||= name.cut;
        copy[name.text] = visit(element, depth + 1);
      }
      if (entries.length > MAX_ITEMS) {
        cut = true;
        copy['…'] = `${entries.length - MAX_ITEMS} more properties`;
      }
      return copy;
    } finally {
      seen.delete(item);
    }
  };
  const result = visit(value, 0);
  return { value: result, cut };
}

/** The arguments pretty-printed as JSON, neutralized line by line and cut to `maxLines`. */
function formatArguments(
  args: unknown,
  maxString: number,
  maxLines: number,
  color: boolean,
): string[] {
  const { value, cut } = shorten(args, maxString);
  // JSON.stringify already escapes C0 controls; neutralizing catches C1 and bidi characters.
  const lines = (JSON.stringify(value, null, 2) ?? 'undefined')
    .split('\n')
    .map((line) => `    ${neutralizeTerminalText(line)}`);
  const notes: string[] = [];
  if (lines.length > maxLines) {
    notes.push(`… ${lines.length - maxLines} more lines`);
    lines.length = maxLines;
  }
  if (cut || notes.length > 0) {
    let digest: string;
    try {
      digest = argumentDigest(args);
    } catch {
      digest = 'unavailable';
    }
    notes.push(`arguments shortened for display; their digest is ${digest}`);
  }
  if (notes.length > 0) lines.push(paint(color, `    (${notes.join('; ')})`, 'dim'));
  return lines;
}

const CLASS_LABEL = {
  read: 'read-only',
  write: 'write',
  destructive: 'DESTRUCTIVE',
} as const;

/**
 * The lines that describe one approval request on a terminal: a header (position, tool,
 * class), the origin and whether it is trusted, why approval is needed, the approval keys
 * and the arguments. Every piece of text that comes from the tool or the call is
 * neutralized, so it cannot forge the prompt.
 */
export function formatApprovalRequest(
  request: ApprovalRequest,
  options: FormatApprovalRequestOptions = {},
): string[] {
  const color = options.color ?? false;
  const maxString = options.maxStringLength ?? DEFAULT_MAX_STRING;
  const maxLines = options.maxArgumentLines ?? DEFAULT_MAX_ARGUMENT_LINES;
  const safe = (text: string): string => neutralizeTerminalText(cutString(text, maxString).text);

  const name = safe(request.tool.name);
  const title =
    request.tool.title !== undefined && request.tool.title !== request.tool.name
      ? `${safe(request.tool.title)} (${name})`
      : name;
  const classLabel =
    request.class === 'destructive'
      ? paint(color, `[!! ${CLASS_LABEL.destructive} !!]`, 'bold', 'red')
      : paint(
          color,
          `[${CLASS_LABEL[request.class]}]`,
          request.class === 'write' ? 'yellow' : 'dim',
        );
  const trust = request.trusted
    ? 'trusted'
    : 'untrusted: its annotations are not believed, spec defaults apply';

  const lines = [
    '',
    `${paint(color, `Approval ${request.position}/${request.total}:`, 'bold')} ${paint(color, title, 'bold')} ${classLabel}`,
  ];
  if (request.tool.description !== '') {
    const firstLine = request.tool.description.split(/\r?\n/u)[0] ?? '';
    lines.push(`  ${paint(color, safe(firstLine), 'dim')}`);
  }
  lines.push(`  Origin:    ${safe(request.origin)} (${trust})`);
  lines.push(`  Why:       ${safe(request.reason)}`);
  // Every key nothing covers is shown: those are what the person approves.
  const keyLines = approvalKeyLines(request);
  const open = keyLines.filter((line) => line.endsWith(' — needs approval'));
  const covered = keyLines.filter((line) => !line.endsWith(' — needs approval'));
  lines.push(`  Keys:${keyLines.length === 0 ? '      (none)' : ''}`);
  for (const line of open) lines.push(`    - ${safe(line)}`);
  for (const line of covered.slice(0, MAX_COVERED_SHOWN)) lines.push(`    - ${safe(line)}`);
  if (covered.length > MAX_COVERED_SHOWN) {
    lines.push(`    … and ${covered.length - MAX_COVERED_SHOWN} more already covered`);
  }
  const parts = opaqueLines(request);
  if (parts.length > 0) {
    lines.push(
      paint(color, '  Not fully understood, so it can be allowed once only:', 'bold', 'yellow'),
    );
    for (const part of parts) lines.push(`    - ${safe(part)}`);
  }
  lines.push('  Arguments:');
  lines.push(...formatArguments(request.arguments, maxString, maxLines, color));
  return lines;
}
