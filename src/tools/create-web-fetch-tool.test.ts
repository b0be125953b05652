import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../runtime/create-runtime.js';
import type { Runtime } from '../runtime/runtime.js';
import { createWebFetchTool } from './create-web-fetch-tool.js';
import { htmlToText } from './html-to-text.js';
import { callTool, makeWorkspace, type TempWorkspace, textOf } from './workspace.test-helpers.js';

let server: Server;
let base: string;
let hits: Record<string, number>;

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits[path] = (hits[path] ?? 0) + 1;
    const send = (status: number, type: string | undefined, body: string | Buffer) => {
      response.writeHead(status, {
        'content-length': String(Buffer.byteLength(body)),
        ...(type === undefined ? {} : { 'content-type': type }),
      });
      response.end(body);
    };
    if (path === '/text') send(200, 'text/plain; charset=utf-8', 'plain text body');
    else if (path === '/page')
      send(
        200,
        'text/html',
        '<html><head><title>A &amp; B</title><style>p{color:red}</style></head><body><script>alert(1)</script><h1>Heading</h1><p>First&nbsp;para   with   space.</p><ul><li>one</li><li>two</li></ul></body></html>',
      );
    else if (path === '/json') send(200, 'application/json', '{"ok":true}');
    else if (path === '/gzip' || path === '/br' || path === '/compress') {
      const text = 'compressed text '.repeat(100);
      const [coding, body] =
        path === '/gzip'
          ? ['gzip', gzipSync(text)]
          : path === '/br'
            ? ['br', brotliCompressSync(text)]
            : ['compress', Buffer.from(text)];
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': coding });
      response.end(body);
    } else if (path === '/long') send(200, 'text/plain', 'abcdefghij'.repeat(100));
    else if (path === '/redirect') {
      response.writeHead(302, { location: '/text' });
      response.end();
    } else if (path === '/loop') {
      response.writeHead(301, { location: '/loop' });
      response.end();
    } else if (path === '/to-file') {
      response.writeHead(302, { location: 'file:///etc/passwd' });
      response.end();
    } else if (path === '/away') {
      response.writeHead(302, { location: `${otherBase}/secret` });
      response.end();
    } else if (path === '/hop-away') {
      response.writeHead(301, { location: '/away' });
      response.end();
    } else if (path === '/image') send(200, 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0]));
    else if (path === '/octets') send(200, undefined, Buffer.from([1, 2, 0, 3]));
    else if (path === '/missing') send(404, 'text/html', '<p>No such page</p>');
    else if (path === '/slow') setTimeout(() => send(200, 'text/plain', 'late'), 2000);
    else send(500, 'text/plain', 'boom');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// A second origin: the same host on another port.
let other: Server;
let otherBase: string;
let otherHits = 0;
beforeAll(async () => {
  other = createServer((_request, response) => {
    otherHits += 1;
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('other origin');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => other.close(() => resolve())));

let temp: TempWorkspace;
let runtime: Runtime;
beforeEach(async () => {
  hits = {};
  temp = await makeWorkspace();
  runtime = createRuntime({
    tools: [
      createWebFetchTool({
        workspace: temp.workspace,
        fetchTimeoutMs: 1000,
        fetchAllow: ['127.0.0.1'],
      }),
    ],
    mode: 'yolo',
    retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
  });
});
afterEach(() => temp.remove());

const fetchUrl = (url: string, extra: Record<string, unknown> = {}) =>
  callTool(runtime, 'web_fetch', { url, ...extra });

describe('web_fetch', () => {
  it('returns plain text and JSON as they are', async () => {
    const text = textOf(await fetchUrl(`${base}/text`));
    expect(text).toBe(
      `URL: ${base}/text\nStatus: 200 OK\nContent-Type: text/plain\n\nplain text body`,
    );
    expect(textOf(await fetchUrl(`${base}/json`))).toContain('\n\n{"ok":true}');
  });

  it('turns HTML into text without scripts, styles or tags', async () => {
    const text = textOf(await fetchUrl(`${base}/page`));
    expect(text).toContain('Title: A & B');
    expect(text).toContain('\n\n# Heading\n\nFirst para with space.\n\n- one\n- two');
    expect(text).not.toMatch(/alert|color:red|<p>/);
  });

  it('follows redirects, but not forever and not to other schemes', async () => {
    expect(textOf(await fetchUrl(`${base}/redirect`))).toContain(
      `URL: ${base}/text (redirected from ${base}/redirect)`,
    );
    const loop = await fetchUrl(`${base}/loop`);
    expect(textOf(loop)).toContain('redirected more than 5 times');
    expect(hits['/loop']).toBe(6);
    expect(textOf(await fetchUrl(`${base}/to-file`))).toContain(
      'Refused: web_fetch only fetches http:// and https:// URLs, not file: ones',
    );
  });

  it('does not follow a redirect to another origin, and says how to follow it', async () => {
    otherHits = 0;
    const away = await fetchUrl(`${base}/away`);
    expect(away.status).toBe('ok');
    expect(textOf(away)).toBe(
      `URL: ${base}/away\nStatus: 302 Found\n\nRedirected to ${otherBase}/secret; call web_fetch with that URL to follow it. Redirects are followed only within one origin (${base}), so that a page on another site is fetched by a call of its own, which policy and approvals see.`,
    );
    const hop = textOf(await fetchUrl(`${base}/hop-away`));
    expect(hop).toContain(`URL: ${base}/away (redirected from ${base}/hop-away)`);
    expect(hop).toContain(`Redirected to ${otherBase}/secret; call web_fetch with that URL`);
    expect(otherHits).toBe(0);
    // The model follows it with a call of its own, which policy sees.
    expect(textOf(await fetchUrl(`${otherBase}/secret`))).toContain('other origin');
    expect(otherHits).toBe(1);
  });

  it('refuses non-text content and non-http schemes', async () => {
    const image = await fetchUrl(`${base}/image`);
    expect(image.status).toBe('error');
    expect(textOf(image)).toContain('is image/png (5 bytes), not text');
    expect(textOf(await fetchUrl(`${base}/octets`))).toContain(
      'sent binary data without a content type',
    );
    for (const url of ['file:///etc/passwd', 'data:text/plain,hi', 'ftp://example.com/x']) {
      expect(textOf(await fetchUrl(url)), url).toContain('Refused: ');
    }
    expect(textOf(await fetchUrl('not a url'))).toContain('is not a valid URL');
  });

  it('decodes gzip and br bodies and refuses a coding it cannot decode', async () => {
    for (const path of ['/gzip', '/br']) {
      const text = textOf(await fetchUrl(`${base}${path}`));
      expect(text, path).toContain(`\n\n${'compressed text '.repeat(100).trim()}`);
    }
    const compress = await fetchUrl(`${base}/compress`);
    expect(compress.status).toBe('error');
    expect(textOf(compress)).toContain('in the compress encoding, which web_fetch cannot decode');
  });

  it('speaks TLS over the checked connection and verifies the certificate', async () => {
    const fixtures = new URL('./fixtures/', import.meta.url);
    const tls = createHttpsServer(
      {
        cert: readFileSync(new URL('self-signed-localhost.crt', fixtures)),
        key: readFileSync(new URL('self-signed-localhost.key', fixtures)),
      },
      (_request, response) => response.end('secret'),
    );
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/`;
      const result = await fetchUrl(url);
      expect(result.status).toBe('error');
      expect(textOf(result)).toMatch(/self[- ]signed certificate/);
    } finally {
      await new Promise((resolve) => tls.close(resolve));
    }
  });

  it('pages long text with max_chars and start_index', async () => {
    const first = textOf(await fetchUrl(`${base}/long`, { max_chars: 300 }));
    expect(first).toContain(
      '[Characters 0-300 of 1000. To read on, call web_fetch with start_index=300.]',
    );
    const last = textOf(await fetchUrl(`${base}/long`, { max_chars: 300, start_index: 900 }));
    expect(last).toContain('[Characters 900-1000 of 1000.]');
  });

  it('reports HTTP errors, retries server errors and times out', async () => {
    const missing = await fetchUrl(`${base}/missing`);
    expect(missing.status).toBe('error');
    expect(textOf(missing)).toContain('The server answered HTTP 404.\n\nNo such page');
    const failing = await fetchUrl(`${base}/fail`);
    expect(failing.attempts).toBe(2);
    expect(textOf(failing)).toContain('answered HTTP 500');
    expect(textOf(await fetchUrl(`${base}/slow`))).toContain('did not answer within 1000 ms');
  });
});

describe('htmlToText', () => {
  it('takes linear time on a hostile page of unclosed comments, scripts and tags', () => {
    const page = `<title>x${'<title>'.repeat(20_000)}${'<!--'.repeat(50_000)}${'<script>'.repeat(50_000)}${'<li '.repeat(50_000)}`;
    const started = Date.now();
    const { text } = htmlToText(page);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(text.startsWith('x<li <li')).toBe(true);
  });

  it('decodes entities and drops comments and invisible elements', () => {
    expect(
      htmlToText(
        '<p>a&lt;b &#x41;&#66; <!-- hidden --></p><noscript>x</noscript><svg><text>y</text></svg>',
      ),
    ).toEqual({ text: 'a<b AB' });
  });

  it('leaves entities named like Object.prototype members as they are', () => {
    expect(htmlToText('<p>&constructor; &toString; &__proto__; &amp;</p>')).toEqual({
      text: '&constructor; &toString; &__proto__; &',
    });
  });
});
