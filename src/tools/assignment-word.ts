import type { Assignment, ShellWord } from './shell-syntax.js';

/** `NAME=` or `NAME+=` at the start of a word: an assignment, before a program. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

/** Builtins whose `NAME=value` arguments are assignments of the shell's own. */
export const DECLARATIONS: ReadonlySet<string> = new Set([
  'export',
  'declare',
  'typeset',
  'local',
  'readonly',
]);

/**
 * The assignment a `NAME=value` word makes, or undefined when it is not one. `text` says
 * which spelling counts: `source` for the shell (`"A"=1` is no assignment to it), `value`
 * for a program that takes assignments as arguments (`env "A=1" cmd`).
 */
export function assignmentOf(word: ShellWord, text: 'source' | 'value'): Assignment | undefined {
  const spelled = text === 'source' ? word.source : (word.value ?? word.source);
  if (!ASSIGNMENT.test(spelled)) return undefined;
  const name = spelled.slice(0, spelled.indexOf('='));
  const value = word.value?.slice(word.value.indexOf('=') + 1);
  return {
    name,
    value:
      value === undefined
        ? { source: word.source, opaque: word.opaque ?? word.source }
        : { source: word.source, value },
  };
}
