import { isPlainObject, ownValue } from '../../tool/index.js';
import { splitNameWords } from './split-name-words.js';
import type { ReportFinding, ToolEntry } from './tool-entry.js';

/** Default of `descriptionBudget`: characters of a tool description, about 256 tokens. */
export const DEFAULT_DESCRIPTION_BUDGET = 1024;

/** Rough characters per token of English text, for messages only. */
const CHARACTERS_PER_TOKEN = 4;

/** A title made from a tool name, for the fix: `read_text_file` -> `Read text file`. */
const titleOf = (name: string): string => {
  const text = splitNameWords(name).join(' ');
  return text === '' ? 'Read file' : `${text[0]?.toUpperCase()}${text.slice(1)}`;
};

const nonEmptyString = (value: unknown): value is string =>
  typeof value === 'string' && value.trim() !== '';

/**
 * Lints the texts of a tool: `description-missing` (absent, not a string or blank),
 * `description-too-long` (more than `budget` characters) and `title-missing` (neither
 * `title` nor `annotations.title` is a non-empty string).
 */
export function lintTexts(entry: ToolEntry, report: ReportFinding, budget: number): void {
  const description = ownValue(entry.fields, 'description');
  if (!nonEmptyString(description)) {
    report(
      'description-missing',
      description === undefined
        ? 'The tool has no description, so the model must guess from its name what it does.'
        : 'The tool description is empty or not a string, so the model must guess from its name what it does.',
      'Add a `description`: what the tool does, what it changes, and when to use it (one to three sentences).',
    );
  } else if (description.length > budget) {
    report(
      'description-too-long',
      `The description is ${description.length} characters (about ${Math.ceil(description.length / CHARACTERS_PER_TOKEN)} tokens), over the budget of ${budget}; it is sent to the model on every turn.`,
      `Shorten the description to at most ${budget} characters: keep what the model needs to choose and call the tool, and move details into argument descriptions.`,
    );
  }

  const annotations = ownValue(entry.fields, 'annotations');
  const titled =
    nonEmptyString(ownValue(entry.fields, 'title')) ||
    (isPlainObject(annotations) && nonEmptyString(ownValue(annotations, 'title')));
  if (!titled) {
    report(
      'title-missing',
      'The tool has no title, so clients show people its raw name when they list it or ask for approval.',
      `Add a short human-readable \`title\`, e.g. "${titleOf(entry.name)}".`,
    );
  }
}
