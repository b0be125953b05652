import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { TrustRequest } from '../discovery/index.js';
import { askTrustInTerminal } from './ask-trust-in-terminal.js';

// The first-run prompt of a project's tools, on a terminal, through the terminal approver.

class FakeTtyInput extends PassThrough {
  readonly isTTY = true;
  isRaw = false;
  setRawMode(mode: boolean): this {
    this.isRaw = mode;
    return this;
  }
}

const request: TrustRequest = {
  project: '/work/app',
  directory: '/work/app/.hintgate/tools',
  files: ['/work/app/.hintgate/tools/deploy.mjs'],
  status: 'new',
  hash: 'sha256:abc',
  command: 'hintgate trust /work/app',
};

async function answer(...keys: string[]) {
  const input = new FakeTtyInput();
  const output = new PassThrough();
  let text = '';
  output.setEncoding('utf8');
  output.on('data', (chunk: string) => {
    text += chunk;
  });
  const asked = askTrustInTerminal({ input, output })(request);
  await vi.waitFor(() => expect(text).toContain('Deny'));
  for (const key of keys) input.write(key);
  return { result: await asked, text };
}

describe('askTrustInTerminal', () => {
  it('shows the folder and its files, and maps the answers: once, always, deny (preselected)', async () => {
    const once = await answer('y');
    expect(once.result).toBe('once');
    expect(once.text).toContain('deploy.mjs');
    expect(once.text).toContain('first run in this project folder');
    expect((await answer('a')).result).toBe('always');
    expect((await answer('n')).result).toBe('deny');
    // Enter takes the preselected choice: loading code is denied unless chosen.
    expect((await answer('\r')).result).toBe('deny');
  });
});
