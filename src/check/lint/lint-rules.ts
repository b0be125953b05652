import type { CheckRule, CheckSeverity } from '../check-types.js';

interface RuleText {
  readonly severity: CheckSeverity;
  readonly summary: string;
  readonly help: string;
}

/** The lint rules by id, in the order `docs/check.md` lists them. */
const RULES = {
  'tools-list-invalid': {
    severity: 'high',
    summary: 'The `tools` of the `tools/list` result is not an array.',
    help: 'A client cannot read any tool of the server. Return `{ tools: [...] }` with one object per tool.',
  },
  'tool-invalid': {
    severity: 'high',
    summary: 'A tool is not a JSON object, or has no string `name`.',
    help: 'A client cannot call a tool it cannot name; strict clients reject the whole list. Send each tool as an object with a `name` string.',
  },
  'tool-name-invalid': {
    severity: 'medium',
    summary: 'A tool name breaks the MCP naming rules: 1 to 128 characters of `A-Z a-z 0-9 _ - .`.',
    help: 'Names outside these rules (spaces, slashes, other characters, empty or too long) break clients and model APIs that check them. Rename the tool within the rules; names are case-sensitive.',
  },
  'tool-name-duplicate': {
    severity: 'high',
    summary: 'Two or more tools share one name.',
    help: 'A call by that name reaches only one of them, and which one depends on the client. Give every tool its own name.',
  },
  'annotations-invalid': {
    severity: 'high',
    summary: '`annotations` is not an object, or a hint in it is not a boolean.',
    help: 'Clients read a hint that is not `true` or `false` in different ways (strict ones reject the tool list). Send `annotations` as an object whose hints are JSON booleans and whose `title` is a string.',
  },
  'annotations-missing': {
    severity: 'medium',
    summary: 'A tool has no annotations, or annotations without any hint.',
    help: 'Without hints a client must assume the spec defaults: not read-only, destructive, not idempotent, open-world. Calls then run one at a time and ask for approval. Add `readOnlyHint`, `destructiveHint`, `idempotentHint` and `openWorldHint`.',
  },
  'annotations-incomplete': {
    severity: 'low',
    summary: 'A tool states some hints and leaves others to the spec defaults.',
    help: 'An absent hint means its spec default (`readOnlyHint` false, `destructiveHint` true, `idempotentHint` false, `openWorldHint` true), which is often not what the author meant. State each hint that applies: all four, or `readOnlyHint: true` and `openWorldHint` for a read-only tool.',
  },
  'read-only-destructive': {
    severity: 'high',
    summary: 'A tool claims both `readOnlyHint: true` and `destructiveHint: true`.',
    help: 'The claims contradict each other, and clients follow `readOnlyHint`: they run the tool in parallel and without approval. If it changes anything, set `readOnlyHint: false`; otherwise drop `destructiveHint` or set it to false.',
  },
  'read-only-not-idempotent': {
    severity: 'low',
    summary: 'A read-only tool claims `idempotentHint: false`.',
    help: 'The spec gives `idempotentHint` meaning only for a tool that is not read-only, so hintgate counts a read-only call as idempotent and retries it; clients that retry by `idempotentHint` alone will not, and the claim contradicts the read-only one. If calls change something, set `readOnlyHint: false`; otherwise set `idempotentHint: true`, which tells every client that a failed read is safe to retry.',
  },
  'destructive-name-not-destructive': {
    severity: 'high',
    summary:
      'A tool named for deleting (delete, remove, drop, overwrite, kill, rm, ...) claims to be read-only or not destructive.',
    help: 'A client runs a read-only or non-destructive tool without the approval a destructive one gets (and a read-only one in parallel). Mark the tool `readOnlyHint: false` with `destructiveHint: true`, or rename it if it does not delete.',
  },
  'destructive-description-not-destructive': {
    severity: 'medium',
    summary:
      'A tool whose description says it deletes, removes, overwrites, erases, kills ... claims to be read-only or not destructive.',
    help: 'The description tells the model the tool destroys data while the annotations tell the client it does not. Mark the tool `readOnlyHint: false` with `destructiveHint: true`, or reword the description if the tool does not do it.',
  },
  'write-name-read-only': {
    severity: 'high',
    summary:
      'A tool named for changing something (set, create, update, write, send, run, exec, ...) claims `readOnlyHint: true`.',
    help: 'A client runs read-only tools in parallel, retries them and asks no approval; a tool that writes would race and repeat its writes. Set `readOnlyHint: false` (with `destructiveHint` and `idempotentHint`), or rename the tool if it only reads.',
  },
  'read-name-not-read-only': {
    severity: 'low',
    summary:
      'A tool named for reading (get, list, read, search, find, show, ...) is not marked read-only.',
    help: 'Without `readOnlyHint: true` a client treats the tool as writing: its calls run one at a time and ask for approval. Add `readOnlyHint: true` if it only reads, or rename it if it writes.',
  },
  'open-world-name-closed': {
    severity: 'medium',
    summary:
      'A tool named for the network (fetch, send, post, browse, download, http, url, web, email, ...) claims `openWorldHint: false`.',
    help: 'Open-world calls reach systems the client cannot see or undo, so clients order and gate them. Set `openWorldHint: true` (or leave it out: the spec default is true), or rename the tool if it only works on a closed system.',
  },
  'input-schema-invalid': {
    severity: 'high',
    summary:
      '`inputSchema` is missing, is not an object, has a `type` other than `"object"`, or has `properties` that is not an object.',
    help: 'MCP requires an object schema for tool arguments; clients and model APIs reject other schemas. Send `{ "type": "object", "properties": { ... }, "additionalProperties": false }`.',
  },
  'input-schema-unconstrained': {
    severity: 'medium',
    summary: 'The input schema declares no properties yet explicitly accepts any argument.',
    help: 'The model gets no hint of what to pass, and the server any object. Declare each argument under `properties` with a type and description, and set `additionalProperties: false`.',
  },
  'input-schema-open': {
    severity: 'low',
    summary:
      'The input schema leaves `additionalProperties` out, so any extra argument is accepted.',
    help: 'Per JSON Schema an absent `additionalProperties` allows every other key: misspelled arguments pass validation and are silently ignored. Add `"additionalProperties": false` (also to a tool without arguments).',
  },
  'property-description-missing': {
    severity: 'low',
    summary: 'Arguments in the input schema have no description.',
    help: 'The model chooses argument values from their descriptions. Give each property of `inputSchema.properties` a `description` that says what to pass, with an example.',
  },
  'output-schema-invalid': {
    severity: 'medium',
    summary: '`outputSchema` is not an object schema with `type: "object"`.',
    help: 'MCP requires structured content to be an object, and clients validate results against this schema. Make `outputSchema` an object schema, or leave it out.',
  },
  'description-missing': {
    severity: 'medium',
    summary: 'A tool has no description, or an empty one.',
    help: 'Models choose tools by their descriptions. Say what the tool does, what it changes, and when to use it.',
  },
  'description-too-long': {
    severity: 'low',
    summary: 'A description is longer than the budget (default 1024 characters).',
    help: 'Every tool description is sent to the model on every turn, so a long one takes context from the task. Shorten it to what the model needs to choose and call the tool; move details into argument descriptions.',
  },
  'title-missing': {
    severity: 'low',
    summary: 'A tool has neither `title` nor `annotations.title`.',
    help: 'Clients show the title to people when they ask for approval or list tools. Add a short human-readable `title`.',
  },
} as const satisfies Record<string, RuleText>;

/** Id of a {@link LINT_RULES} rule. */
export type LintRuleId = keyof typeof RULES;

/** The rules of `hintgate check`'s lint, as documented in `docs/check.md`. */
export const LINT_RULES: readonly CheckRule[] = Object.freeze(
  Object.entries(RULES).map(([id, text]) => Object.freeze({ id, kind: 'lint' as const, ...text })),
);

/** The severity findings of a lint rule carry. */
export function lintRuleSeverity(id: LintRuleId): CheckSeverity {
  return RULES[id].severity;
}
