import type { ReportFinding, ToolEntry } from './tool-entry.js';

/** Longest tool name the MCP naming rules allow. */
export const MAX_TOOL_NAME_LENGTH = 128;

const NAME_CHARACTER = /^[A-Za-z0-9_.-]$/;

/**
 * Lints a tool name against the MCP naming rules (spec 2025-11-25, SEP-986): 1 to 128
 * characters, only ASCII letters, digits, `_`, `-` and `.`; names are case-sensitive, so
 * `Read` and `read` are two names. Reports `tool-name-invalid` with a conforming name to use.
 */
export function lintToolName(entry: ToolEntry, report: ReportFinding): void {
  const { name } = entry;
  const characters = [...name];
  const invalid = [...new Set(characters.filter((character) => !NAME_CHARACTER.test(character)))];
  const problems: string[] = [];
  if (name === '') problems.push('it is empty');
  if (name.length > MAX_TOOL_NAME_LENGTH) {
    problems.push(`it is ${name.length} characters long (at most ${MAX_TOOL_NAME_LENGTH})`);
  }
  if (invalid.length > 0) {
    problems.push(
      `it contains ${invalid.map((character) => JSON.stringify(character)).join(', ')}`,
    );
  }
  if (problems.length === 0) return;
  const suggestion = characters
    .map((character) => (NAME_CHARACTER.test(character) ? character : '_'))
    .join('')
    .slice(0, MAX_TOOL_NAME_LENGTH);
  report(
    'tool-name-invalid',
    `The tool name breaks the MCP naming rules: ${problems.join('; ')}. Only 1 to ${MAX_TOOL_NAME_LENGTH} characters of A-Z a-z 0-9 _ - . are allowed.`,
    suggestion === ''
      ? 'Give the tool a name of A-Z a-z 0-9 _ - . characters, e.g. `read_file`.'
      : `Rename the tool within the rules, e.g. \`${suggestion}\`.`,
  );
}
