import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createRegistry } from '../../registry/index.js';
import { connectMcpServer } from './connect-mcp-server.js';
import { redactUrl } from './redact-url.js';

/** A port on 127.0.0.1 that nothing listens on. */
const closedPort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

describe('redactUrl', () => {
  it('drops user and password, replaces query values and the fragment, keeps the rest', () => {
    expect(
      redactUrl('https://me:hunter2@example.com:8443/mcp?api_key=SECRET&team=a&flag#tok'),
    ).toBe('https://example.com:8443/mcp?api_key=…&team=…&flag=…#…');
    expect(redactUrl(new URL('http://127.0.0.1:3000/mcp'))).toBe('http://127.0.0.1:3000/mcp');
  });
});

describe('a failed connection to a URL with secrets in it', () => {
  it.each([
    ['the query', (port: number) => `http://127.0.0.1:${port}/mcp?api_key=SUPERSECRETKEY&v=2`],
    ['user:password@', (port: number) => `http://alice:SUPERSECRETKEY@127.0.0.1:${port}/mcp`],
  ])('names the URL without the secret in %s', async (_where, urlOf) => {
    const port = await closedPort();
    const failure = connectMcpServer({
      name: 'x',
      registry: createRegistry(),
      url: urlOf(port),
      reconnect: false,
    });
    await expect(failure).rejects.toMatchObject({ code: 'mcp_connect_failed' });
    const message = await failure.catch((error: Error) => error.message);
    expect(message).toContain(`(url http://127.0.0.1:${port}/mcp`);
    expect(message).not.toContain('SUPERSECRETKEY');
    expect(message).not.toContain('alice');
  });
});
