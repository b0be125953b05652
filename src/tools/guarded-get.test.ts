import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchAllowList } from './fetch-allow-list.js';
import { guardedGet, resolveWithDns } from './guarded-get.js';

let server: Server;
let port = 0;
let requests = 0;
beforeAll(async () => {
  server = createServer((_request, response) => {
    requests += 1;
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('guardedGet', () => {
  it('checks the address the socket reached before sending a byte', async () => {
    // An allow list that says yes to the lookup and no afterwards stands for a connection
    // that ended up somewhere other than the answer that was checked.
    const real = createFetchAllowList(['127.0.0.1']);
    const seen: string[] = [];
    const allow = {
      ...real,
      allowsAddress(address: string) {
        seen.push(address);
        return seen.length === 1;
      },
    };
    requests = 0;
    await expect(
      guardedGet(new URL(`http://loopback.test:${port}/`), {
        guard: {
          allow,
          resolveHost: async () => [{ address: '127.0.0.1', family: 4 }],
        },
        headers: {},
        signal: AbortSignal.timeout(10_000),
      }),
    ).rejects.toThrow(/Refused: .*loopback/);
    expect(seen).toEqual(['127.0.0.1', '127.0.0.1']);
    expect(requests).toBe(0);
  });

  it('resolves names with the system resolver by default', async () => {
    const answers = await resolveWithDns('localhost');
    expect(answers.some((a) => a.address === '127.0.0.1' || a.address === '::1')).toBe(true);
  });
});
