import {
  HINT_NAMES,
  type HintName,
  isPlainObject,
  ownValue,
  SPEC_DEFAULT_HINTS,
} from '../../tool/index.js';
import { type ReportFinding, showValue, type ToolEntry } from './tool-entry.js';

/**
 * Lints a tool's `annotations`: malformed (`annotations-invalid`), missing
 * (`annotations-missing`), partly left to the spec defaults (`annotations-incomplete`), and
 * claims that contradict each other (`read-only-destructive`, `read-only-not-idempotent`).
 * `idempotentHint: true` and `destructiveHint: false` on a read-only tool are consistent
 * (a read-only call is idempotent and not destructive) and not reported: pairing
 * `idempotentHint: true` with `readOnlyHint` is the recommended way to declare reads safe to
 * retry (docs/check.md, "Read-only tools").
 */
export function lintAnnotations(entry: ToolEntry, report: ReportFinding): void {
  const annotations = ownValue(entry.fields, 'annotations');
  if (annotations !== undefined && !isPlainObject(annotations)) {
    report(
      'annotations-invalid',
      `annotations is ${showValue(annotations)}, not an object, so no hint can be read from it.`,
      'Send `annotations` as a JSON object, e.g. `{ "readOnlyHint": true, "openWorldHint": false }`.',
    );
  }
  const object = isPlainObject(annotations) ? annotations : {};
  const malformed = HINT_NAMES.filter((hint) => {
    const value = ownValue(object, hint);
    return value !== undefined && typeof value !== 'boolean';
  });
  if (malformed.length > 0) {
    report(
      'annotations-invalid',
      `${malformed.map((hint) => `${hint} is ${showValue(ownValue(object, hint))}`).join(', ')}: hints must be JSON booleans, and clients read other values in different ways.`,
      `Send ${malformed.map((hint) => `\`${hint}\``).join(', ')} as \`true\` or \`false\` (without quotes), or leave ${malformed.length === 1 ? 'it' : 'them'} out.`,
    );
  }
  const title = ownValue(object, 'title');
  if (title !== undefined && typeof title !== 'string') {
    report(
      'annotations-invalid',
      `annotations.title is ${showValue(title)}, not a string.`,
      'Send `annotations.title` as a string, or leave it out.',
    );
  }

  const { hints } = entry;
  const stated = HINT_NAMES.filter((hint) => hints[hint] !== undefined);
  if (stated.length === 0) {
    report(
      'annotations-missing',
      isPlainObject(annotations)
        ? 'The annotations state no hint, so clients must assume the spec defaults: not read-only, destructive, not idempotent, open-world.'
        : 'The tool has no annotations, so clients must assume the spec defaults: not read-only, destructive, not idempotent, open-world.',
      'Add `annotations` with `readOnlyHint`, `destructiveHint`, `idempotentHint` and `openWorldHint` set to what the tool really does, e.g. `{ "readOnlyHint": true, "openWorldHint": false }` for a tool that only reads local data.',
    );
    return;
  }

  const readOnly = hints.readOnlyHint === true;
  const needed: HintName[] = readOnly
    ? ['openWorldHint']
    : ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];
  const absent = needed.filter((hint) => hints[hint] === undefined);
  if (absent.length > 0) {
    report(
      'annotations-incomplete',
      `${absent.join(', ')} ${absent.length === 1 ? 'is' : 'are'} absent, so ${absent.length === 1 ? 'it means its spec default' : 'they mean their spec defaults'}: ${absent.map((hint) => `${hint} ${SPEC_DEFAULT_HINTS[hint]}`).join(', ')}.`,
      `State ${absent.map((hint) => `\`${hint}\``).join(', ')} explicitly, even where the default is right.`,
    );
  }

  if (readOnly && hints.destructiveHint === true) {
    report(
      'read-only-destructive',
      'The tool claims readOnlyHint: true and destructiveHint: true; clients follow readOnlyHint and run it in parallel and without approval.',
      'If the tool changes anything, set `readOnlyHint: false` (keeping `destructiveHint: true`); if it only reads, remove `destructiveHint` or set it to `false`.',
    );
  }
  if (readOnly && hints.idempotentHint === false) {
    report(
      'read-only-not-idempotent',
      'The tool claims readOnlyHint: true and idempotentHint: false; idempotentHint is ignored for a read-only tool, whose calls count as idempotent and are retried.',
      'If calls change something, set `readOnlyHint: false`; if they only read, set `idempotentHint: true`, so that every client knows a failed call is safe to retry.',
    );
  }
}
