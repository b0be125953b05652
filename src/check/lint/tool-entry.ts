import { HINT_NAMES, type HintName, isPlainObject, ownValue } from '../../tool/index.js';
import type { LintRuleId } from './lint-rules.js';

/** A JSON object as a server sent it: nothing about its fields is known yet. */
export type JsonObject = Readonly<Record<string, unknown>>;

/** One tool of a `tools/list` result that has an object shape and a string name. */
export interface ToolEntry {
  /** Position in the list, from 0. */
  readonly index: number;
  readonly name: string;
  /** The tool object as sent. */
  readonly fields: JsonObject;
  /** The hints claimed with a boolean value; absent or malformed ones are left out. */
  readonly hints: Readonly<Partial<Record<HintName, boolean>>>;
}

/** Reports one finding of a rule about the tool being linted. */
export type ReportFinding = (
  id: LintRuleId,
  message: string,
  fix: string,
  evidence?: readonly string[],
) => void;

/** A value as it appears in messages: JSON, cut short. */
export function showValue(value: unknown): string {
  if (value === undefined) return 'absent';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Reads the tool at `index`; undefined when it is not an object with a string name. */
export function readToolEntry(value: unknown, index: number): ToolEntry | undefined {
  if (!isPlainObject(value)) return undefined;
  const name = ownValue(value, 'name');
  if (typeof name !== 'string') return undefined;
  const annotations = ownValue(value, 'annotations');
  const hints: Partial<Record<HintName, boolean>> = {};
  if (isPlainObject(annotations)) {
    for (const hint of HINT_NAMES) {
      const claimed = ownValue(annotations, hint);
      if (typeof claimed === 'boolean') hints[hint] = claimed;
    }
  }
  return { index, name, fields: value, hints };
}

/** The claimed hints, one `hint: value` line each, absent ones included. */
export function claimedHints(entry: ToolEntry): string[] {
  return HINT_NAMES.map((hint) => `${hint}: ${showValue(entry.hints[hint])}`);
}
