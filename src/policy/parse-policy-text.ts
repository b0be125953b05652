import {
  type ConfigProblem,
  mergeProblems,
  parseYamlOrJson,
  throwProblems,
} from '../config-problems/index.js';
import { HintgateError } from '../errors/index.js';
import { readPolicy } from './check-policy.js';
import type { Policy } from './policy-types.js';

/**
 * Parses and checks the text of a policy file, without I/O: the part of `loadPolicy`
 * after reading, also for configuration files that embed a policy.
 *
 * @param text The file's content.
 * @param file Name of the file, for messages and to choose between YAML and JSON by its
 *   extension (see `loadPolicy`).
 * @throws HintgateError `invalid_policy`, as `loadPolicy`; `invalid_option` when
 *   `text` or `file` is not a string.
 */
export function parsePolicyText(text: string, file: string): Policy {
  return parsePolicyTextWith(text, file, noSchema);
}

const noSchema = (): ConfigProblem[] => [];

/**
 * {@link parsePolicyText} with a first check of the parsed value against a schema
 * (`loadPolicy` passes the shipped one, which it reads from disk, so that the portable root
 * entry point never touches files); its problems are merged with the readers'.
 */
export function parsePolicyTextWith(
  text: string,
  file: string,
  schemaCheck: (value: unknown) => ConfigProblem[],
): Policy {
  if (typeof text !== 'string' || typeof file !== 'string') {
    throw new HintgateError(
      'invalid_option',
      `parsePolicyText needs the text and the file name as strings, got ${typeof text} and ${typeof file}.`,
    );
  }
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (source.trim() === '') {
    throw invalid(
      `${file}: the file is empty; write a policy such as "mode: ask", with rules under "rules".`,
    );
  }
  const parsed = parseYamlOrJson(source, file);
  if (parsed.value === undefined) {
    throw invalid(
      `${file}: the file has only comments; write a policy such as "mode: ask", with rules under "rules".`,
    );
  }
  // The schema first, every error; then the checks of what it cannot say (globs, synonyms
  // of keys) and the normalising, whose words win on the values they report.
  const schema = schemaCheck(parsed.value);
  const problems: ConfigProblem[] = [];
  const where = { file, locate: parsed.locate };
  // The source also locates the `tools` entries for messages given once the tools are loaded.
  const policy = readPolicy(parsed.value, problems, where);
  throwProblems(mergeProblems(schema, problems), { source: where });
  return policy;
}

function invalid(message: string, cause?: unknown): HintgateError {
  return new HintgateError('invalid_policy', message, cause === undefined ? undefined : { cause });
}
