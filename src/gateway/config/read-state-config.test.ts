// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are configuration values with ${VAR} references, not templates
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HintgateError } from '../../errors/hintgate-error.js';
import { loadGatewayConfig } from './load-gateway-config.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-state-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const load = async (state: string, env: Record<string, string> = {}) => {
  const file = join(dir, 'hintgate.yaml');
  await writeFile(file, `servers:\n  fs:\n    command: node\n${state}`);
  return loadGatewayConfig(file, { env });
};

const problem = async (state: string): Promise<string> => {
  const error = await load(state).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(HintgateError);
  expect((error as HintgateError).code).toBe('invalid_config');
  return (error as Error).message;
};

describe('state in hintgate.yaml', () => {
  it('is absent by default: state stays in the process', async () => {
    expect((await load('')).state).toBeUndefined();
    expect((await load('state: null\n')).state).toBeUndefined();
  });

  it('takes a Redis URL, with ${VAR} references', async () => {
    expect((await load('state: redis://127.0.0.1:6379\n')).state).toEqual({
      url: 'redis://127.0.0.1:6379',
      keyPrefix: 'hintgate:',
      keyEnv: 'HINTGATE_STATE_SECRET',
    });
    const config = await load('state: { url: "${REDIS}", keyPrefix: "prod:", keyEnv: SEAL }\n', {
      REDIS: 'rediss://:pw@redis:6380/2',
    });
    expect(config.state).toEqual({
      url: 'rediss://:pw@redis:6380/2',
      keyPrefix: 'prod:',
      keyEnv: 'SEAL',
    });
  });

  it('takes the lease of concurrency slots in ms, from 1 s to 10 min', async () => {
    expect((await load('state: { url: redis://r, leaseMs: 2000 }\n')).state?.leaseMs).toBe(2000);
    expect((await load('state: { url: redis://r }\n')).state).not.toHaveProperty('leaseMs');
    for (const bad of ['500', '600001', '2500.5', '"10s"']) {
      expect(await problem(`state: { url: redis://r, leaseMs: ${bad} }\n`)).toMatch(/leaseMs/);
    }
  });

  it('takes the secret as a ${VAR} reference of at least 32 bytes', async () => {
    const long = 'x'.repeat(32);
    const config = await load('state: { url: redis://r, secret: "${SEAL}" }\n', { SEAL: long });
    expect(config.state?.secret).toBe(long);
    const error = await load('state: { url: redis://r, secret: "${SEAL}" }\n', {
      SEAL: 'short',
    }).catch((reason: unknown) => reason);
    expect(String(error)).toMatch(/state.secret is 5 bytes long; use at least 32/);
    expect(String(error)).not.toContain('short');
  });

  it('says what to fix, and never repeats a password', async () => {
    expect(await problem('state: http://u:secretpw@redis:6379\n')).toMatch(
      /state "http:\/\/redis:6379\/" is not a Redis URL/,
    );
    expect(await problem('state: http://u:secretpw@redis:6379\n')).not.toContain('secretpw');
    expect(await problem('state: 6379\n')).toMatch(/state is .*redis:\/\/127\.0\.0\.1:6379/);
    expect(await problem('state: { keyPrefix: x }\n')).toMatch(/state has no "url"/);
    expect(
      await problem('state: { url: redis://r, secret: abcdefghijklmnopqrstuvwxyz0123456789 }\n'),
    ).toMatch(/state.secret is written in the file; keep it out: write a reference/);
    expect(await problem('state: { url: redis://r, key: "${S}" }\n')).toMatch(/"secret"/);
    expect(await problem('state: { url: redis://r, keyEnv: "1 bad" }\n')).toMatch(
      /state.keyEnv must be the name of an environment variable/,
    );
    expect(await problem('state: { url: redis://r, keyPrefix: "a b" }\n')).toMatch(
      /state.keyPrefix must be 1-64 characters/,
    );
    expect(await problem('redis: redis://r\n')).toMatch(/"state"/);
  });
});
