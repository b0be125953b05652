import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HintgateError } from '../../errors/hintgate-error.js';
import { upstreamOptions } from '../upstream-options.js';
import { loadGatewayConfig } from './load-gateway-config.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-server-era-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const load = async (servers: Record<string, unknown>) => {
  const file = join(dir, 'hintgate.yaml');
  await writeFile(file, JSON.stringify({ servers }));
  return loadGatewayConfig(file);
};

describe('a server entry\'s "era"', () => {
  it('is passed to the connection when given, and left to the transport default when not', async () => {
    const config = await load({
      probed: { command: 'node', args: ['server.js'], era: 'auto' },
      plain: { command: 'node', args: ['server.js'] },
      remote: { url: 'http://127.0.0.1:9/mcp', era: 'modern' },
    });
    const byName = new Map(config.servers.map((server) => [server.name, server]));
    expect(byName.get('probed')?.era).toBe('auto');
    expect(byName.get('plain')).not.toHaveProperty('era');
    expect(byName.get('remote')?.era).toBe('modern');
    const registry = undefined as never;
    expect(upstreamOptions(byName.get('probed') as never, registry).era).toBe('auto');
    expect(upstreamOptions(byName.get('plain') as never, registry)).not.toHaveProperty('era');
  });

  it('refuses an unknown era with the choices and a guess', async () => {
    const error = await load({ one: { command: 'node', era: 'modrn' } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(HintgateError);
    expect((error as Error).message).toMatch(
      /era.*"modrn".*auto, legacy, modern.*did you mean "modern"/s,
    );
  });
});
