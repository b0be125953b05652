import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../testing/index.js';
import { spawnStdioServerEarly, stopEarlyStdioServers } from './early-stdio-spawn.js';
import { StdioUpstreamTransport } from './stdio-upstream-transport.js';

// A real child process: at once it announces itself on stdout and stderr (before anyone
// reads them), then answers each line with its pid.
const SERVER = `
process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'hello', params: { pid: process.pid } }) + '\\n');
process.stderr.write('started ' + process.pid + '\\n');
let rest = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  rest += chunk;
  let end;
  while ((end = rest.indexOf('\\n')) !== -1) {
    const message = JSON.parse(rest.slice(0, end));
    rest = rest.slice(end + 1);
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { pid: process.pid } }) + '\\n');
  }
});
process.stdin.on('end', () => process.exit(0));
`;

const params = (tag: string) => ({
  command: process.execPath,
  args: ['-e', SERVER, tag],
  env: { HINTGATE_EARLY_TEST: tag },
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const open: StdioUpstreamTransport[] = [];
afterEach(async () => {
  stopEarlyStdioServers();
  for (const transport of open.splice(0)) await transport.close();
});

const started = async (tag: string) => {
  const transport = new StdioUpstreamTransport(params(tag));
  const messages: JSONRPCMessage[] = [];
  let stderr = '';
  transport.stderr.on('data', (chunk: Buffer) => {
    stderr += String(chunk);
  });
  transport.onmessage = (message) => messages.push(message);
  await transport.start();
  open.push(transport);
  return { transport, messages, stderr: () => stderr };
};

const helloPid = (messages: readonly JSONRPCMessage[]): number | undefined => {
  const hello = messages.find((m) => 'method' in m && m.method === 'hello');
  return (hello as { params?: { pid?: number } } | undefined)?.params?.pid;
};

describe('spawnStdioServerEarly', () => {
  it('hands its running process to the first transport of the same parameters, output and all', async () => {
    const early = spawnStdioServerEarly(params('a'));
    // The process writes before anyone reads: nothing of it may be lost.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { transport, messages, stderr } = await started('a');
    const pid = await waitFor(() => helloPid(messages));
    expect(pid).toBe(early);
    expect(transport.pid).toBe(early);
    await waitFor(() => (stderr().includes(`started ${pid}`) ? true : undefined));
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'who', params: {} });
    const answer = await waitFor(() => messages.find((m) => 'id' in m && m.id === 1));
    expect(answer).toMatchObject({ result: { pid } });
    // A second transport of the same parameters starts its own process.
    const second = await started('a');
    const secondPid = await waitFor(() => helloPid(second.messages));
    expect(secondPid).not.toBe(pid);
  });

  it('is not taken over by a transport whose command, arguments or environment differ', async () => {
    const early = spawnStdioServerEarly(params('b'));
    const { transport, messages } = await started('c');
    expect(await waitFor(() => helloPid(messages))).toBe(transport.pid);
    expect(transport.pid).not.toBe(early);
    const withOtherEnv = new StdioUpstreamTransport({ ...params('b'), env: { OTHER: '1' } });
    await withOtherEnv.start();
    open.push(withOtherEnv);
    expect(withOtherEnv.pid).not.toBe(early);
    // The process started early for 'b' is still waiting for its own.
    const other = await started('b');
    expect(other.transport.pid).toBe(early);
    expect(await waitFor(() => helloPid(other.messages))).toBe(early);
  });

  it('stops what no transport took over', async () => {
    const pid = spawnStdioServerEarly(params('d'));
    expect(pid).toBeTypeOf('number');
    expect(spawnStdioServerEarly(params('d'))).toBeUndefined();
    expect(alive(pid as number)).toBe(true);
    stopEarlyStdioServers();
    await waitFor(() => (alive(pid as number) ? undefined : true));
    // Nothing is left to take over: the transport starts a process of its own.
    const { transport, messages } = await started('d');
    expect(await waitFor(() => helloPid(messages))).toBe(transport.pid);
    expect(transport.pid).not.toBe(pid);
  });

  it('leaves a process that failed to start to the transport, which starts and reports its own', async () => {
    const missing = { command: '/nonexistent/hintgate-early-test', args: [] };
    spawnStdioServerEarly(missing);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const transport = new StdioUpstreamTransport(missing);
    await expect(transport.start()).rejects.toThrow(/ENOENT/);
  });
});
