import { isPlainObject } from './json-schema.js';
import type { Tool } from './tool.js';
import { type ContentBlock, isCallToolResult } from './tool-result.js';

/** A tool's return value in MCP shape, before truncation. */
export interface NormalizedOutput {
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError: boolean;
  readonly _meta?: Record<string, unknown>;
}

/** The return value could not be turned into a result; `message` says why. */
export interface OutputProblem {
  readonly problem: string;
}

const stringify = (value: unknown): string | OutputProblem => {
  try {
    return (
      JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? String(v) : v)) ?? 'null'
    );
  } catch (error) {
    return { problem: `the result cannot be serialized to JSON (${(error as Error).message})` };
  }
};

/**
 * Turns what a tool returned into MCP shape. A string becomes a text block; an object
 * becomes `structuredContent` plus its JSON text; a `CallToolResult` passes through;
 * `undefined` becomes no content. With an `outputSchema`, structured output is parsed
 * through it (unknown fields stripped) and a mismatch is a problem naming the field.
 * Synchronous unless an `outputSchema` has to be checked, which may take a promise.
 */
export function normalizeOutput(
  value: unknown,
  tool: Pick<Tool, 'outputSchema' | 'name'>,
): NormalizedOutput | OutputProblem | Promise<NormalizedOutput | OutputProblem> {
  let output: NormalizedOutput;
  let generatedText = false;
  if (typeof value === 'string') {
    output = { content: [{ type: 'text', text: value }], isError: false };
  } else if (value === undefined || value === null) {
    output = { content: [], isError: false };
  } else if (isCallToolResult(value)) {
    output = {
      content: value.content,
      isError: value.isError === true,
      ...(isPlainObject(value.structuredContent)
        ? { structuredContent: value.structuredContent }
        : {}),
      ...(isPlainObject(value._meta) ? { _meta: value._meta } : {}),
    };
  } else if (isPlainObject(value)) {
    output = { content: [], structuredContent: value, isError: false };
    generatedText = true;
  } else {
    const text = stringify(value);
    if (typeof text !== 'string') return text;
    output = { content: [{ type: 'text', text }], isError: false };
  }

  const { outputSchema } = tool;
  if (outputSchema === undefined || output.isError) return withText(output, generatedText);
  const { structuredContent } = output;
  if (structuredContent === undefined) {
    return {
      problem: `tool "${tool.name}" declares an outputSchema but returned no structured content; return an object that matches the schema`,
    };
  }
  const checked = output;
  return (async () => {
    const parsed = await outputSchema.validate(structuredContent);
    if (!parsed.ok) {
      return {
        problem: `the result of tool "${tool.name}" does not match its outputSchema: ${parsed.message}`,
      };
    }
    return withText({ ...checked, structuredContent: parsed.value }, generatedText);
  })();
}

/** `output` with the JSON text of its structured content, when that text is generated. */
const withText = (
  output: NormalizedOutput,
  generatedText: boolean,
): NormalizedOutput | OutputProblem => {
  if (!generatedText) return output;
  const text = stringify(output.structuredContent);
  if (typeof text !== 'string') return text;
  return { ...output, content: [{ type: 'text', text }] };
};
