import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conceptEmbedder } from '../tools/concept-embedder.test-helpers.js';
import { parseServeArgs } from './parse-serve-args.js';
import { runCli } from './run-cli.js';
import { type HttpServeProcess, startHttpServe } from './serve-process.test-helpers.js';

// `hintgate serve` flags for what only code could set before: callers with their own tokens
// and scopes (--principal, tokens from the environment), the embedder of semantic_search
// (--embedder, an OpenAI-compatible endpoint) and the sub-agent of delegate_task (--delegate).

describe('parseServeArgs: --principal, --embedder, --delegate', () => {
  const env = { CI_TOKEN: 'ci-token-123', ME_TOKEN: 'me-token-456', KEY: 'sk-embed' };

  it('reads each principal token from the environment, with its scopes', () => {
    const parsed = parseServeArgs(
      ['--http', '--principal', 'ci=CI_TOKEN:read', '--principal', 'me=ME_TOKEN:read,shell'],
      env,
    );
    expect(parsed).toMatchObject({
      ok: true,
      args: {
        principals: [
          { name: 'ci', token: 'ci-token-123', scopes: ['read'] },
          { name: 'me', token: 'me-token-456', scopes: ['read', 'shell'] },
        ],
      },
    });
  });

  it('refuses a principal without --http, an unset variable, a token in place of a variable, and a shared token', () => {
    const message = (argv: string[]) => {
      const parsed = parseServeArgs(argv, env);
      return parsed.ok ? '' : parsed.message;
    };
    expect(message(['--principal', 'ci=CI_TOKEN'])).toMatch(/--principal only applies with --http/);
    expect(message(['--http', '--principal', 'ci=NOPE:read'])).toBe(
      "--principal ci: environment variable NOPE is not set; put ci's token in it (at least 8 characters).",
    );
    const pasted = message(['--http', '--principal', 'ci=ci-token-123']);
    expect(pasted).toMatch(/^--principal takes NAME=VAR/);
    expect(pasted).not.toContain('ci-token-123');
    expect(message(['--http', '--principal', 'a=CI_TOKEN', '--principal', 'b=CI_TOKEN'])).toMatch(
      /another caller's too/,
    );
  });

  it('checks the embedder and delegate options', () => {
    const message = (argv: string[]) => {
      const parsed = parseServeArgs(argv, env);
      return parsed.ok ? '' : parsed.message;
    };
    expect(message(['--embedder', 'http://127.0.0.1:1/v1/embeddings'])).toMatch(
      /needs --embedder-model/,
    );
    expect(message(['--embedder-model', 'm'])).toMatch(/need --embedder URL/);
    expect(message(['--embedder', 'ftp://x', '--embedder-model', 'm'])).toMatch(/not an http/);
    expect(message(['--embedder', 'http://u:p@127.0.0.1/', '--embedder-model', 'm'])).toMatch(
      /must not carry credentials/,
    );
    expect(
      message([
        '--embedder',
        'http://127.0.0.1/',
        '--embedder-model',
        'm',
        '--embedder-key-env',
        'NOPE',
      ]),
    ).toMatch(/NOPE is not set/);
    expect(message(['--delegate', 'claude -p "{prompt}"'])).toMatch(
      /write the command as a JSON list/,
    );
    expect(message(['--delegate', '[1]'])).toMatch(/not a JSON list of non-empty strings/);
    expect(parseServeArgs(['--delegate', 'claude -p {prompt}'], env)).toMatchObject({
      ok: true,
      args: { delegate: ['claude', '-p', '{prompt}'] },
    });
  });
});

describe('hintgate serve session flags', () => {
  it('sets the limits of the session table, within their bounds, with --http only', () => {
    expect(
      parseServeArgs([
        '--http',
        '--max-sessions',
        '500',
        '--max-sessions-per-client',
        '200',
        '--session-idle-ms',
        '60000',
        '--uninitialized-session-ms',
        '2000',
      ]),
    ).toMatchObject({
      ok: true,
      args: {
        sessions: {
          maxSessions: 500,
          maxSessionsPerClient: 200,
          sessionIdleMs: 60_000,
          uninitializedSessionMs: 2000,
        },
      },
    });
    const plain = parseServeArgs(['--http']);
    expect(plain.ok).toBe(true);
    if (plain.ok) expect(plain.args).not.toHaveProperty('sessions');
    for (const [flag, value] of [
      ['--max-sessions', '0'],
      ['--max-sessions', '100001'],
      ['--max-sessions-per-client', 'many'],
      ['--session-idle-ms', '999'],
      ['--uninitialized-session-ms', '1.5'],
      ['--uninitialized-session-ms', '600001'],
    ] as const) {
      const bad = parseServeArgs(['--http', flag, value]);
      expect(bad.ok ? '' : bad.message).toMatch(
        new RegExp(
          `^${flag} "${value.replace('.', '\\.')}" is not a number of \\w+ from \\d+ to \\d+\\.$`,
        ),
      );
    }
    const noHttp = parseServeArgs(['--max-sessions', '100']);
    expect(noHttp.ok ? '' : noHttp.message).toMatch(/--max-sessions only applies with --http/);
  });
});

describe('--shutdown-grace-ms', () => {
  it('sets the grace of calls under way after a signal: 0 to an hour, 5 s by default', () => {
    expect(parseServeArgs([])).toMatchObject({ ok: true, args: { shutdownGraceMs: 5000 } });
    expect(parseServeArgs(['--shutdown-grace-ms', '0'])).toMatchObject({
      ok: true,
      args: { shutdownGraceMs: 0 },
    });
    expect(parseServeArgs(['--shutdown-grace-ms', '25000'])).toMatchObject({
      ok: true,
      args: { shutdownGraceMs: 25_000 },
    });
    for (const bad of ['-1', '3600001', '5s', '']) {
      const parsed = parseServeArgs(['--shutdown-grace-ms', bad]);
      expect(parsed.ok ? '' : parsed.message).toMatch(
        /--shutdown-grace-ms"? .*(is not a number of milliseconds from 0 to 3600000|needs a value)/,
      );
    }
  });

  it('is refused by the gateway when it is not milliseconds, before anything starts', async () => {
    const errors: string[] = [];
    const code = await runCli(['gateway', '--shutdown-grace-ms', 'soon'], {
      stdout: () => {},
      stderr: (text) => errors.push(text),
    });
    expect(code).toBe(2);
    expect(errors.join('')).toBe(
      'hintgate gateway: --shutdown-grace-ms "soon" is not a number of milliseconds from 0 to 3600000.\n',
    );
  });
});

describe('hintgate serve --rate-limit and --no-instructions', () => {
  it('parses MAX/MS and refuses anything else', () => {
    expect(parseServeArgs(['--http', '--rate-limit', '120/60000'])).toMatchObject({
      ok: true,
      args: { rateLimit: { max: 120, windowMs: 60_000 } },
    });
    const bad = parseServeArgs(['--http', '--rate-limit', '120 per minute']);
    expect(bad.ok ? '' : bad.message).toMatch(/is not MAX\/MS/);
    const noHttp = parseServeArgs(['--rate-limit', '1/1000']);
    expect(noHttp.ok ? '' : noHttp.message).toMatch(/only applies with --http/);
  });

  it('answers a caller over the limit 429 with Retry-After, and sends no instructions when told', async () => {
    const home = await mkdtemp(join(tmpdir(), 'hintgate-serve-limit-'));
    const served = await startHttpServe(
      [
        '--workspace',
        home,
        '--token',
        'limit-token-1',
        '--rate-limit',
        '3/60000',
        '--no-instructions',
      ],
      { env: { ...process.env, HINTGATE_HOME: join(home, 'home') }, timeoutMs: 60_000 },
    );
    try {
      const client = new Client({ name: 'limit-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(served.url), {
          requestInit: { headers: { authorization: 'Bearer limit-token-1' } },
        }),
      );
      expect(client.getInstructions()).toBeUndefined();
      await client.close();
      let limited: Response | undefined;
      for (let i = 0; i < 5 && limited === undefined; i += 1) {
        const response = await fetch(served.url, {
          method: 'POST',
          headers: {
            authorization: 'Bearer limit-token-1',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
        await response.text();
        if (response.status === 429) limited = response;
      }
      expect(limited?.status).toBe(429);
      expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await served.stop();
      await rm(home, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('hintgate serve --http with --principal, --embedder and --delegate', () => {
  let root: string;
  let serve: HttpServeProcess | undefined;
  let embeddings: {
    url: string;
    requests: { auth?: string; model: unknown }[];
    close: () => Promise<void>;
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'hintgate-serve-flags-'));
    const concepts = conceptEmbedder();
    const requests: { auth?: string; model: unknown }[] = [];
    const server = createServer(async (request: IncomingMessage, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        model: unknown;
        input: string[];
      };
      requests.push({
        ...(request.headers.authorization === undefined
          ? {}
          : { auth: request.headers.authorization }),
        model: body.model,
      });
      const vectors = concepts.embed(body.input);
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ data: vectors.map((embedding, index) => ({ index, embedding })) }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    embeddings = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/embeddings`,
      requests,
      close: () => new Promise((resolve) => server.close(() => resolve())),
    };
  });
  afterAll(async () => {
    await serve?.stop();
    await embeddings.close();
    await rm(root, { recursive: true, force: true });
  });

  const connect = async (url: string, token: string) => {
    const client = new Client({ name: 'serve-flags-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    return client;
  };

  it("gives each caller the tools of its scopes, ranks by the endpoint's embeddings and runs the sub-agent command", async () => {
    const workspace = join(root, 'ws');
    await mkdir(workspace);
    await writeFile(
      join(workspace, 'net.md'),
      'Every request to the internet goes through the fetch tool.\n',
    );
    await writeFile(join(workspace, 'approvals.md'), 'A person must confirm each write.\n');
    const policy = join(root, 'policy.yaml');
    await writeFile(
      policy,
      'mode: yolo\ntools:\n  run_command: { scopes: [shell] }\n  delegate_task: { scopes: [shell] }\n',
    );
    const script = "process.stdout.write('sub-agent says: ' + process.argv[1])";
    serve = await startHttpServe(
      [
        '--workspace',
        workspace,
        '--policy',
        policy,
        '--principal',
        'ci=CI_TOKEN:read',
        '--principal',
        'me=ME_TOKEN:read,shell',
        '--embedder',
        embeddings.url,
        '--embedder-model',
        'concepts',
        '--embedder-key-env',
        'EMBED_KEY',
        '--delegate',
        JSON.stringify([process.execPath, '-e', script, '{prompt}']),
      ],
      {
        env: {
          ...process.env,
          HINTGATE_HOME: join(root, 'home'),
          CI_TOKEN: 'ci-token-123',
          ME_TOKEN: 'me-token-456',
          EMBED_KEY: 'sk-embed-789',
        },
        timeoutMs: 60_000,
      },
    );
    expect(serve.stderr()).toContain('bearer token required (2 callers with scopes)');
    expect(serve.stderr()).not.toContain('me-token-456');

    const ci = await connect(serve.url, 'ci-token-123');
    const me = await connect(serve.url, 'me-token-456');
    try {
      const ciNames = (await ci.listTools()).tools.map((tool) => tool.name);
      const meNames = (await me.listTools()).tools.map((tool) => tool.name);
      expect(ciNames).toContain('semantic_search');
      expect(ciNames).not.toContain('run_command');
      expect(ciNames).not.toContain('delegate_task');
      expect(meNames).toContain('run_command');
      expect(meNames).toContain('delegate_task');

      const indexed = await me.callTool({ name: 'index_workspace', arguments: {} });
      expect(indexed.isError ?? false).toBe(false);
      const found = (await me.callTool({
        name: 'semantic_search',
        arguments: { query: 'which tool reaches http addresses' },
      })) as { content: { type: string; text?: string }[]; isError?: boolean };
      expect(found.isError ?? false).toBe(false);
      const text = found.content.map((block) => block.text ?? '').join('\n');
      expect(text).toMatch(/Ranked by meaning/);
      expect(text.indexOf('net.md')).toBeGreaterThanOrEqual(0);
      expect(embeddings.requests.length).toBeGreaterThan(0);
      expect(
        embeddings.requests.every(
          (r) => r.auth === 'Bearer sk-embed-789' && r.model === 'concepts',
        ),
      ).toBe(true);

      const delegated = (await me.callTool({
        name: 'delegate_task',
        arguments: { role: 'Echo', taskPrompt: 'say hello' },
      })) as { content: { type: string; text?: string }[]; isError?: boolean };
      expect(delegated.isError ?? false).toBe(false);
      expect(delegated.content.map((block) => block.text ?? '').join('\n')).toContain(
        'sub-agent says:',
      );
      const refused = (await ci.callTool({
        name: 'delegate_task',
        arguments: { role: 'Echo', taskPrompt: 'say hello' },
      })) as { isError?: boolean };
      expect(refused.isError).toBe(true);
    } finally {
      await ci.close();
      await me.close();
    }
  }, 120_000);
});
