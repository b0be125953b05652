/** Child processes of the gateway benchmark (bench/gateway.ts): ports, output, stopping. */
import type { ChildProcess } from 'node:child_process';
import { createConnection, createServer } from 'node:net';

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once 127.0.0.1:port accepts connections; rejects after `timeoutMs`. */
export async function waitForPort(
  port: number,
  child: ChildProcess,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`port ${port} not open within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Keeps the last `limit` characters of a stream, for error messages. */
export function tail(
  stream: { on(event: 'data', listener: (chunk: Buffer | string) => void): unknown } | null,
  limit = 4000,
): () => string {
  let text = '';
  stream?.on('data', (chunk: Buffer | string) => {
    text = (text + String(chunk)).slice(-limit);
  });
  return () => text.trim();
}

/** Stops a process started here: SIGTERM, then SIGKILL if it has not exited in time. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
