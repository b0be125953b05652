import { isPlainObject, ownValue } from '../../tool/index.js';
import { type ReportFinding, showValue, type ToolEntry } from './tool-entry.js';

/**
 * Keywords that constrain an object in ways this lint does not follow (combinations,
 * references, conditionals); a schema with one of them is not judged open or unconstrained.
 */
const COMPOSITE_KEYWORDS = [
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'if',
  '$ref',
  '$dynamicRef',
  'unevaluatedProperties',
  'dependentSchemas',
] as const;

/** How many argument names a message lists before it says how many more there are. */
const NAMES_SHOWN = 10;

const listNames = (names: readonly string[]): string => {
  const shown = names.slice(0, NAMES_SHOWN).map((name) => JSON.stringify(name));
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
};

/**
 * Lints a tool's `inputSchema` and `outputSchema`:
 * - `input-schema-invalid`: missing, not an object, `type` not `"object"`, or `properties`
 *   not an object (then nothing else is checked).
 * - `input-schema-unconstrained`: no `properties` (nor `patternProperties`) and
 *   `additionalProperties` is `true` or `{}`: explicitly anything.
 * - `input-schema-open`: `additionalProperties` absent, which JSON Schema reads as "any other
 *   key is fine". A tool without arguments sent as `{ "type": "object" }` gets this finding
 *   too: it accepts every object, and `"additionalProperties": false` says it takes none.
 * - `property-description-missing`: top-level properties without a non-empty `description`.
 * - `output-schema-invalid`: an `outputSchema` that is not an object schema of `type: "object"`.
 * Schemas that combine subschemas (`anyOf`, `allOf`, `$ref`, ...) are not judged open.
 */
export function lintSchemas(entry: ToolEntry, report: ReportFinding): void {
  lintInputSchema(entry, report);
  const output = ownValue(entry.fields, 'outputSchema');
  if (output !== undefined && !(isPlainObject(output) && ownValue(output, 'type') === 'object')) {
    report(
      'output-schema-invalid',
      isPlainObject(output)
        ? `outputSchema has type ${showValue(ownValue(output, 'type'))}; MCP requires structured content to be an object.`
        : `outputSchema is ${showValue(output)}, not a JSON Schema object.`,
      'Make `outputSchema` a schema with `"type": "object"` (wrap other results in a property), or leave it out.',
    );
  }
}

function lintInputSchema(entry: ToolEntry, report: ReportFinding): void {
  const schema = ownValue(entry.fields, 'inputSchema');
  const fix =
    'Send `"inputSchema": { "type": "object", "properties": { ... }, "additionalProperties": false }` (`"properties": {}` for a tool without arguments).';
  if (!isPlainObject(schema)) {
    report(
      'input-schema-invalid',
      schema === undefined
        ? 'The tool has no inputSchema; MCP requires one.'
        : `inputSchema is ${showValue(schema)}, not a JSON Schema object.`,
      fix,
    );
    return;
  }
  const type = ownValue(schema, 'type');
  if (type !== 'object') {
    report(
      'input-schema-invalid',
      `inputSchema has type ${showValue(type)}; MCP requires tool arguments to be an object schema with "type": "object".`,
      fix,
    );
    return;
  }
  const properties = ownValue(schema, 'properties');
  if (properties !== undefined && !isPlainObject(properties)) {
    report(
      'input-schema-invalid',
      `inputSchema.properties is ${showValue(properties)}, not an object of property schemas.`,
      fix,
    );
    return;
  }

  const names = isPlainObject(properties) ? Object.keys(properties) : [];
  const patterns = ownValue(schema, 'patternProperties');
  const declared =
    names.length > 0 || (isPlainObject(patterns) && Object.keys(patterns).length > 0);
  const additional = ownValue(schema, 'additionalProperties');
  const composite = COMPOSITE_KEYWORDS.some((keyword) => Object.hasOwn(schema, keyword));
  const anything =
    additional === true || (isPlainObject(additional) && Object.keys(additional).length === 0);
  if (!declared && anything) {
    report(
      'input-schema-unconstrained',
      `inputSchema declares no properties and sets additionalProperties to ${showValue(additional)}, so any argument is accepted and the model is told nothing about what to pass.`,
      'Declare each argument under `properties` with a type and a description, and set `"additionalProperties": false`.',
    );
  } else if (additional === undefined && !composite) {
    report(
      'input-schema-open',
      declared
        ? 'inputSchema leaves additionalProperties out, so arguments besides the declared ones are accepted: a misspelled argument passes validation and is ignored.'
        : 'inputSchema declares no arguments but leaves additionalProperties out, so it accepts any object.',
      'Add `"additionalProperties": false` to inputSchema.',
    );
  }

  if (isPlainObject(properties)) {
    const undescribed = names.filter((name) => {
      const property = ownValue(properties, name);
      const description = isPlainObject(property) ? ownValue(property, 'description') : undefined;
      return typeof description !== 'string' || description.trim() === '';
    });
    if (undescribed.length > 0) {
      report(
        'property-description-missing',
        `${undescribed.length} of ${names.length} ${names.length === 1 ? 'argument' : 'arguments'} ${undescribed.length === 1 ? 'has' : 'have'} no description: ${listNames(undescribed)}.`,
        `Add a \`description\` to ${undescribed.length === 1 ? 'that property' : 'each of these properties'} in inputSchema.properties saying what to pass, with an example.`,
      );
    }
  }
}
