import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HintgateError, type HintgateErrorCode } from '../errors/hintgate-error.js';
import { type DefineToolOptions, defineTool, isTool } from './define-tool.js';
import type { JsonSchemaObject } from './json-schema.js';
import { DESTRUCTIVE, READ_ONLY, WRITE } from './presets.js';
import { toToolListing } from './to-tool-listing.js';
import type { ToolContext } from './tool.js';

const inputSchema = {
  type: 'object',
  properties: { path: { type: 'string' }, mode: { type: 'string' } },
} as const satisfies JsonSchemaObject;

const base = {
  name: 'read_file',
  description: 'Reads a file.',
  inputSchema,
  execute: () => 'ok',
};

/** Defines a tool from `base` with fields replaced, bypassing the types as a JS caller would. */
const define = (overrides: Record<string, unknown>) =>
  defineTool({ ...base, ...overrides } as unknown as DefineToolOptions<JsonSchemaObject>);

const thrownBy = (fn: () => unknown): HintgateError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof HintgateError) return error;
    throw error;
  }
  throw new Error('expected a HintgateError, nothing was thrown');
};

const expectError = (
  overrides: Record<string, unknown>,
  code: HintgateErrorCode,
  ...fragments: string[]
): void => {
  const error = thrownBy(() => define(overrides));
  expect(error.code).toBe(code);
  for (const fragment of fragments) expect(error.message).toContain(fragment);
};

const context: ToolContext = { signal: new AbortController().signal, callId: 'c1', attempt: 1 };

describe('defineTool', () => {
  it('returns a frozen, branded tool with defaults filled in', () => {
    const tool = define({});
    expect(isTool(tool)).toBe(true);
    expect(isTool({ ...tool })).toBe(false);
    expect(Object.isFrozen(tool)).toBe(true);
    expect(tool.name).toBe('read_file');
    expect(tool.gated).toBe(true);
    expect(tool.scopes).toStrictEqual([]);
    expect(tool.annotations).toStrictEqual({});
    expect(tool.inputSchema.jsonSchema).toStrictEqual(inputSchema);
    expect('retry' in tool).toBe(false);
    expect('outputSchema' in tool).toBe(false);
  });

  it('passes arguments and context to execute', async () => {
    const tool = defineTool({
      name: 'echo',
      description: 'Echoes.',
      inputSchema: z.object({ text: z.string() }),
      execute: (args, ctx) => `${args.text}#${ctx.callId}#${ctx.attempt}`,
    });
    expect(await tool.execute({ text: 'hi' }, context)).toBe('hi#c1#1');
  });

  it('copies and freezes scopes', () => {
    const scopes = ['files.read'];
    const tool = define({ scopes });
    scopes.push('files.write');
    expect(tool.scopes).toStrictEqual(['files.read']);
    expect(Object.isFrozen(tool.scopes)).toBe(true);
  });

  it('keeps the optional fields it is given', () => {
    const approvalKey = () => 'k';
    const tool = define({
      title: 'Read file',
      timeoutMs: 5000,
      maxOutputChars: 1000,
      gated: false,
      rateLimit: { max: 5, windowMs: 60_000 },
      meta: { 'dev.hintgate/cost': 1 },
      approvalKey,
    });
    expect(tool).toMatchObject({
      title: 'Read file',
      timeoutMs: 5000,
      maxOutputChars: 1000,
      gated: false,
      rateLimit: { max: 5, windowMs: 60_000 },
      meta: { 'dev.hintgate/cost': 1 },
    });
    expect(tool.approvalKey).toBe(approvalKey);
  });

  it('compiles resource templates against the input schema properties', () => {
    const tool = define({ resources: ['file:{path}'] });
    expect(tool.resources?.({ path: 'src/a.ts' })).toStrictEqual(['file:src/a.ts']);
    const zodTool = defineTool({
      name: 'read',
      description: 'Reads.',
      inputSchema: z.object({ path: z.string() }),
      resources: ['file:{path}'],
      execute: () => 'ok',
    });
    expect(zodTool.resources?.({ path: 'b' })).toStrictEqual(['file:b']);
  });
});

describe('defineTool annotations (three states)', () => {
  it('keeps absent hints absent and false as false', () => {
    const tool = define({ annotations: { readOnlyHint: false, openWorldHint: false } });
    expect(tool.annotations).toStrictEqual({ readOnlyHint: false, openWorldHint: false });
    expect('destructiveHint' in tool.annotations).toBe(false);
    expect('idempotentHint' in tool.annotations).toBe(false);
  });

  it('drops hints given as undefined (absent, not false)', () => {
    const tool = define({ annotations: { readOnlyHint: undefined, destructiveHint: true } });
    expect(tool.annotations).toStrictEqual({ destructiveHint: true });
  });

  it('copies the annotations, so a later change of the caller object has no effect', () => {
    const annotations = { readOnlyHint: true };
    const tool = define({ annotations });
    annotations.readOnlyHint = false;
    expect(tool.annotations).toStrictEqual({ readOnlyHint: true });
    expect(Object.isFrozen(tool.annotations)).toBe(true);
  });

  it('accepts the presets as they are', () => {
    expect(define({ annotations: READ_ONLY }).annotations).toStrictEqual(READ_ONLY);
    expect(define({ annotations: DESTRUCTIVE }).annotations).toStrictEqual(DESTRUCTIVE);
  });
});

describe('defineTool names', () => {
  it.each([
    ['empty', ''],
    ['129 characters', 'a'.repeat(129)],
    ['a space', 'read file'],
    ['a slash', 'fs/read'],
    ['a trailing newline', 'read\n'],
    ['a number', 42],
    ['undefined', undefined],
  ])('rejects a name with %s', (_, name) => {
    expectError({ name }, 'invalid_tool_name', 'use 1-128 characters', JSON.stringify(name) ?? '');
  });

  it.each([
    ['128 characters', 'a'.repeat(128)],
    ['every allowed character', 'a.b-c_D9'],
    ['one character', 'x'],
  ])('accepts a name with %s', (_, name) => {
    expect(define({ name }).name).toBe(name);
  });

  it('keeps nameOnOrigin when it differs from the name, and checks it like a name', () => {
    const renamed = define({ name: 'github__read_file', nameOnOrigin: 'read_file' });
    expect(renamed.nameOnOrigin).toBe('read_file');
    expect(define({ nameOnOrigin: 'read_file' }).nameOnOrigin).toBeUndefined();
    expect(define({}).nameOnOrigin).toBeUndefined();
    for (const nameOnOrigin of ['', 'fs/read', 42]) {
      expectError({ nameOnOrigin }, 'invalid_tool_name', 'nameOnOrigin');
    }
  });
});

describe('defineTool retry', () => {
  it('rejects retry on a tool neither read-only nor idempotent', () => {
    for (const annotations of [undefined, {}, DESTRUCTIVE, { readOnlyHint: false }]) {
      expectError(
        { annotations, retry: { attempts: 3 } },
        'invalid_retry',
        'tool "read_file"',
        'neither read-only nor idempotent',
        'idempotentHint',
      );
    }
  });

  it('rejects default attempts (retry: {}) on a tool with absent annotations', () => {
    expectError({ retry: {} }, 'invalid_retry', 'neither read-only nor idempotent');
  });

  it('allows retry on READ_ONLY and WRITE, and on a read-only tool claiming idempotentHint false', () => {
    expect(define({ annotations: READ_ONLY, retry: { attempts: 3 } }).retry).toStrictEqual({
      attempts: 3,
    });
    expect(define({ annotations: WRITE, retry: {} }).retry).toStrictEqual({});
    expect(
      define({ annotations: { readOnlyHint: true, idempotentHint: false }, retry: { attempts: 2 } })
        .retry,
    ).toStrictEqual({ attempts: 2 });
  });

  it('allows retry { attempts: 1 } (no retries) on any tool', () => {
    expect(define({ retry: { attempts: 1 } }).retry).toStrictEqual({ attempts: 1 });
    expect(define({ annotations: DESTRUCTIVE, retry: { attempts: 1 } }).retry).toStrictEqual({
      attempts: 1,
    });
  });

  it.each([
    ['attempts 0', { attempts: 0 }],
    ['fractional attempts', { attempts: 1.5 }],
    ['negative delay', { baseDelayMs: -1 }],
    ['infinite delay', { maxDelayMs: Number.POSITIVE_INFINITY }],
    ['a number', 3],
    ['null', null],
    ['a list', [3]],
  ])('rejects a malformed retry: %s', (_, retry) => {
    expectError({ annotations: READ_ONLY, retry }, 'invalid_retry', 'attempts?: integer >= 1');
  });
});

describe('defineTool resources', () => {
  it('rejects a template naming an unknown argument, naming it and the known ones', () => {
    expectError(
      { resources: ['file:{file}'] },
      'invalid_resource_template',
      'tool "read_file"',
      'names argument "file"',
      'mode, path',
    );
  });

  it('rejects a template with unbalanced braces', () => {
    expectError({ resources: ['file:{path'] }, 'invalid_resource_template', 'unbalanced brace');
  });
});

describe('defineTool options and annotations keys', () => {
  it('rejects an unknown option key, listing the known ones', () => {
    expectError(
      { retries: 3 },
      'invalid_tool',
      'unknown option "retries"',
      'Known options: name, title',
    );
  });

  it('rejects an unknown annotation key and says where extra hints go', () => {
    expectError(
      { annotations: { readonlyHint: true } },
      'invalid_tool',
      'annotations.readonlyHint is not an MCP annotation',
      '"dev.hintgate/"',
    );
  });

  it('rejects a hint that is not a boolean and a title that is not a string', () => {
    expectError(
      { annotations: { readOnlyHint: 'yes' } },
      'invalid_tool',
      'annotations.readOnlyHint must be true, false or absent',
    );
    expectError(
      { annotations: { title: 1 } },
      'invalid_tool',
      'annotations.title must be a string',
    );
    expectError({ annotations: [] }, 'invalid_tool', 'annotations must be an object');
  });

  it('rejects an options value that is not an object', () => {
    const error = thrownBy(() =>
      defineTool(null as unknown as DefineToolOptions<JsonSchemaObject>),
    );
    expect(error.code).toBe('invalid_tool');
    expect(error.message).toContain('one options object');
  });

  it('rejects a missing or blank description', () => {
    expectError({ description: undefined }, 'invalid_tool', 'description is required');
    expectError({ description: '  ' }, 'invalid_tool', 'description is required');
  });

  it('rejects an execute that is not a function', () => {
    expectError({ execute: 'run' }, 'invalid_tool', 'execute must be a function');
    expectError({ execute: undefined }, 'invalid_tool', 'execute must be a function');
  });

  it.each([
    [{ title: 3 }, 'title must be a string'],
    [{ timeoutMs: 0 }, 'timeoutMs must be milliseconds in (0, 2147483647]'],
    [{ maxOutputChars: -5 }, 'maxOutputChars must be a positive number'],
    [{ gated: 'no' }, 'gated must be true or false'],
    [{ scopes: ['a', ''] }, 'scopes must be a list of non-empty strings'],
    [{ scopes: 'a' }, 'scopes must be a list of non-empty strings'],
    [{ approvalKey: 'k' }, 'approvalKey must be a function'],
    [{ meta: [] }, 'meta must be a plain object'],
  ])('rejects %j', (overrides, fragment) => {
    expectError(overrides, 'invalid_tool', fragment);
  });
});

describe('defineTool schemas', () => {
  it.each([
    ['z.string()', z.string()],
    ['{ type: "string" }', { type: 'string' }],
    ['z.array()', z.array(z.string())],
  ])('rejects an inputSchema that is not an object type: %s', (_, schema) => {
    expectError(
      { inputSchema: schema },
      'invalid_schema',
      'inputSchema of tool "read_file"',
      '"type": "object"',
    );
  });

  it('rejects an invalid JSON Schema', () => {
    expectError(
      { inputSchema: { type: 'nope' } },
      'invalid_schema',
      'inputSchema of tool "read_file" is not a valid JSON Schema',
    );
  });

  it('rejects a missing inputSchema', () => {
    expectError({ inputSchema: undefined }, 'invalid_schema', 'got undefined');
  });

  it('rejects an outputSchema that is not an object type', () => {
    expectError({ outputSchema: z.number() }, 'invalid_schema', 'outputSchema of tool "read_file"');
  });
});

describe('defineTool rateLimit', () => {
  it('accepts maxWaitMs 0 and keeps a copy', () => {
    const rateLimit = { max: 2, windowMs: 1000, maxWaitMs: 0 };
    const tool = define({ rateLimit });
    expect(tool.rateLimit).toStrictEqual(rateLimit);
    expect(tool.rateLimit).not.toBe(rateLimit);
  });

  it.each([
    ['max 0', { max: 0, windowMs: 1000 }],
    ['fractional max', { max: 1.5, windowMs: 1000 }],
    ['no windowMs', { max: 1 }],
    ['negative maxWaitMs', { max: 1, windowMs: 1000, maxWaitMs: -1 }],
    ['a number', 5],
    ['null', null],
  ])('rejects %s', (_, rateLimit) => {
    expectError({ rateLimit }, 'invalid_rate_limit', 'for example { max: 5, windowMs: 60000 }');
  });
});

describe('defineTool: annotations.custom', () => {
  const base = {
    name: 'analyze_audio',
    description: 'Analyzes a recording.',
    inputSchema: { type: 'object' as const },
    execute: () => 'ok',
  };

  it('honours custom.rateLimit as the tool rate limit and keeps custom in its listing', () => {
    const custom = { rateLimit: { windowMs: 60_000, max: 5 }, owner: 'audio' };
    const tool = defineTool({ ...base, annotations: { readOnlyHint: true, custom } });
    expect(tool.rateLimit).toEqual({ windowMs: 60_000, max: 5 });
    expect(toToolListing(tool).annotations).toEqual({ readOnlyHint: true, custom });
  });

  it('lets the rateLimit option replace the declared one', () => {
    const tool = defineTool({
      ...base,
      annotations: { custom: { rateLimit: { windowMs: 60_000, max: 5 } } },
      rateLimit: { windowMs: 1000, max: 50 },
    });
    expect(tool.rateLimit).toEqual({ windowMs: 1000, max: 50 });
  });

  it('refuses a custom that is not an object, and a declared limit that is malformed', () => {
    expect(() => defineTool({ ...base, annotations: { custom: 'fast' as never } })).toThrow(
      /annotations.custom must be an object/,
    );
    expect(() =>
      defineTool({ ...base, annotations: { custom: { rateLimit: { max: 5 } } } }),
    ).toThrow(/annotations.custom: rateLimit must be/);
  });
});
