import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const refuse = fileURLToPath(new URL('./fixtures/refuse-ai-sdk.mjs', import.meta.url));

/** Imports `entry` in a Node process where any import of the AI SDK fails. */
const importWithoutAiSdk = (entry: string) =>
  promisify(execFile)(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      refuse,
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(fileURLToPath(new URL(entry, `file://${root}`)))}); console.log(Object.keys(m).length > 0 ? 'loaded' : 'empty');`,
    ],
    { cwd: root },
  );

describe('the AI SDK is an optional peer', () => {
  it("importing 'hintgate' does not load the AI SDK", async () => {
    const { stdout } = await importWithoutAiSdk('src/index.ts');
    expect(stdout.trim()).toBe('loaded');
  });

  it("importing 'hintgate/ai-sdk' does (so the check above can fail)", async () => {
    await expect(importWithoutAiSdk('src/adapters/ai-sdk/index.ts')).rejects.toThrow(
      /the AI SDK was loaded: ai/,
    );
  });
});
