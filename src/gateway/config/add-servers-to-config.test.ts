// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are configuration values with ${VAR} references, not templates
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { addServersToConfigText } from './add-servers-to-config.js';
import { parseGatewayConfigText } from './load-gateway-config.js';
import { renderStarterConfig } from './render-starter-config.js';

const MEMORY = { name: 'memory', entry: { command: 'npx', args: ['-y', 'server-memory'] } };
const GIT = {
  name: 'git',
  entry: { command: 'node', args: ['/opt/git/index.js'], env: { TOKEN: '${GIT_TOKEN}' } },
};

const env = { GIT_TOKEN: 'token', API_KEY: 'key' };

describe('addServersToConfigText', () => {
  it('adds servers to the starter after its last server, keeping every comment and commented-out setting', () => {
    const before = renderStarterConfig();
    const { text, added, present } = addServersToConfigText(before, [MEMORY, GIT], {
      source: '/home/me/.config/Claude/claude_desktop_config.json',
    });
    expect(added).toEqual(['memory', 'git']);
    expect(present).toEqual([]);
    // Only lines were added: every line of the starter is still there, in order.
    const lines = text.split('\n');
    let at = 0;
    for (const line of before.split('\n')) {
      at = lines.indexOf(line, at);
      expect(at, line).toBeGreaterThanOrEqual(0);
    }
    expect(text).toContain(
      '  # Added by "hintgate init" from /home/me/.config/Claude/claude_desktop_config.json:\n  memory:\n    command: npx\n    args: ["-y", "server-memory"]\n  git:',
    );
    // Before the comments that open the mode section, after the commented-out remote server.
    expect(text.indexOf('  memory:')).toBeGreaterThan(text.indexOf('#      Authorization'));
    expect(text.indexOf('  memory:')).toBeLessThan(text.indexOf('# What runs without asking'));
    const config = parseGatewayConfigText(text, '/tmp/x/hintgate.yaml', { env });
    expect(config.servers.map((server) => server.name)).toEqual(['everything', 'memory', 'git']);
    expect(config.servers[2]).toMatchObject({ env: { TOKEN: 'token' } });
  });

  it("keeps the person's edits: a server already there stays as written, and running it again adds nothing", () => {
    const edited = renderStarterConfig({ servers: [MEMORY] })
      .replace(
        '    args: ["-y", "server-memory"]\n',
        '    args: ["-y", "server-memory"]\n    trusted: true  # I checked it\n',
      )
      .replace('mode: ask', 'mode: auto # mine');
    const changedMemory = { name: 'memory', entry: { command: 'node', args: ['elsewhere.js'] } };
    const once = addServersToConfigText(edited, [changedMemory, GIT]);
    expect(once.added).toEqual(['git']);
    expect(once.present).toEqual(['memory']);
    expect(once.text).toContain('    trusted: true  # I checked it\n');
    expect(once.text).toContain('mode: auto # mine');
    const value = parse(once.text) as { servers: Record<string, unknown> };
    expect(value.servers.memory).toEqual({ ...MEMORY.entry, trusted: true });

    const twice = addServersToConfigText(once.text, [changedMemory, GIT]);
    expect(twice).toEqual({ text: once.text, added: [], present: ['memory', 'git'] });
  });

  it('adds under mcpServers when the file uses that key, as the last key of the file, and to an empty block', () => {
    const last = addServersToConfigText('mode: ask\nmcpServers:\n    old:\n        command: a\n', [
      GIT,
    ]);
    expect(last.text).toBe(
      'mode: ask\nmcpServers:\n    old:\n        command: a\n\n    # Added by "hintgate init":\n    git:\n      command: node\n      args: ["/opt/git/index.js"]\n      env:\n        TOKEN: ${GIT_TOKEN}\n',
    );
    const empty = addServersToConfigText('servers:\n  # none yet\nmode: ask\n', [MEMORY]);
    expect(parse(empty.text)).toEqual({ servers: { memory: MEMORY.entry }, mode: 'ask' });
    const none = addServersToConfigText('# just a comment\nmode: ask\n', [MEMORY]);
    expect(none.text.startsWith('# just a comment\nmode: ask\n')).toBe(true);
    expect(parse(none.text)).toEqual({ mode: 'ask', servers: { memory: MEMORY.entry } });
  });

  it('rewrites a flow-style servers block through the Document API, comments kept', () => {
    const { text } = addServersToConfigText('# mine\nservers: { old: { command: a } }\n', [MEMORY]);
    expect(text).toContain('# mine');
    expect(parse(text)).toEqual({ servers: { old: { command: 'a' }, memory: MEMORY.entry } });
  });

  it('refuses a file that is not YAML, or whose servers is not a mapping, saying what to fix', () => {
    expect(() => addServersToConfigText('servers: [a, b]\n', [MEMORY])).toThrow(
      /"servers" is not a mapping of server names to servers; fix it first/,
    );
    expect(() => addServersToConfigText('servers: {\n', [MEMORY])).toThrow(
      /cannot be parsed as YAML .*; fix it, or move it away/,
    );
  });
});
