import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, tempDir } from '../gateway/gateway.test-helpers.js';
import { ensureCommand } from './ensure-command.test-helpers.js';
import { runCli } from './run-cli.js';
import { cliShellCommand } from './serve-process.test-helpers.js';

// `hintgate gateway --http --terminal` in a real pseudo-terminal (tmux): the approvals of a
// client that cannot ask its user are answered in the terminal.

const missing = ensureCommand('tmux', 'tmux');
let socket = '';
const tmux = (...args: string[]): string =>
  execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
const screen = (session: string): string => tmux('capture-pane', '-p', '-J', '-t', session);

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  try {
    if (socket !== '') tmux('kill-server');
  } catch {
    // No session was started.
  }
  for (const cleanup of cleanups) await cleanup();
});

describe('hintgate gateway --terminal', () => {
  it('refuses --terminal without --http, or without a terminal', async () => {
    const lines: string[] = [];
    const io = { stdout: () => {}, stderr: (text: string) => lines.push(text), env: {} };
    expect(await runCli(['gateway', '--terminal'], io)).toBe(2);
    expect(lines.join('')).toContain('--terminal only applies with --http');
    if (process.stdin.isTTY !== true) {
      lines.length = 0;
      expect(await runCli(['gateway', '--http', '--terminal'], io)).toBe(2);
      expect(lines.join('')).toContain('--terminal needs an interactive terminal');
    }
  });

  it.skipIf(missing !== undefined)(
    `asks in the terminal for a client without elicitation${missing ? ` (skipped: ${missing})` : ''}`,
    { timeout: 60_000 },
    async () => {
      const temp = await tempDir();
      cleanups.push(temp.remove);
      socket = join(temp.dir, 'tmux.sock');
      const gateway = cliShellCommand('gateway', ['--http', '--port', '0', '--terminal']);
      const command = `${gateway}; echo "[exit $?]"; sleep 60`;
      tmux('new-session', '-d', '-s', 'gw', '-x', '200', '-y', '60', '-c', temp.dir, command);
      let url = '';
      await vi.waitFor(
        () => {
          url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(screen('gw'))?.[1] ?? '';
          expect(url).not.toBe('');
        },
        { timeout: 30_000, interval: 100 },
      );
      const client = new Client({ name: 'no-form-client', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      cleanups.push(() => client.close());
      const call = client.callTool({
        name: 'write_file',
        arguments: { path: 'out.txt', content: 'from the terminal' },
      });
      await vi.waitFor(() => expect(screen('gw')).toContain('Allow once'), {
        timeout: 30_000,
        interval: 100,
      });
      tmux('send-keys', '-t', 'gw', 'y');
      const result = await call;
      expect(result.isError ?? false).toBe(false);
      expect(await readFile(join(temp.dir, 'out.txt'), 'utf8')).toBe('from the terminal');
      const events = await auditEvents(join(temp.dir, '.hintgate', 'audit.jsonl'));
      const granted = events.find((event) => event.type === 'approval.granted');
      expect(granted?.answeredBy).toEqual({ channel: 'terminal' });
    },
  );
});
