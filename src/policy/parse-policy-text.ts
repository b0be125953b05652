import { parseYamlOrJson } from '../config-problems/index.js';
import { HintgateError } from '../errors/index.js';
import { checkPolicy } from './check-policy.js';
import type { Policy } from './policy-types.js';

/**
 * Parses and checks the text of a policy file, without I/O: the part of `loadPolicy`
 * after reading, also for configuration files that embed a policy. The value is checked as
 * {@link checkPolicy} does: against the policy schema (compiled ahead of time), then what
 * a schema cannot say.
 *
 * @param text The file's content.
 * @param file Name of the file, for messages and to choose between YAML and JSON by its
 *   extension (see `loadPolicy`).
 * @throws HintgateError `invalid_policy`, as `loadPolicy`; `invalid_option` when
 *   `text` or `file` is not a string.
 */
export function parsePolicyText(text: string, file: string): Policy {
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
  // The source also locates the `tools` entries for messages given once the tools are loaded.
  return checkPolicy(parsed.value, { file, locate: parsed.locate });
}

function invalid(message: string): HintgateError {
  return new HintgateError('invalid_policy', message);
}
