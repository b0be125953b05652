import { describe, expect, it } from 'vitest';
import { httpTokenCheck } from './http-token-check.js';
import { parseServeArgs } from './parse-serve-args.js';
import { runCli } from './run-cli.js';

describe('serving HTTP without a token', () => {
  it('is refused on an address other machines may reach, unless --insecure-no-token; warned of on loopback', () => {
    expect(
      httpTokenCheck({ host: '127.0.0.1', token: 'a-long-token', insecureNoToken: false }),
    ).toEqual({ ok: true });
    const loopback = httpTokenCheck({
      host: 'localhost',
      token: undefined,
      insecureNoToken: false,
    });
    expect(loopback).toMatchObject({
      ok: true,
      warning: expect.stringContaining('any program on this machine'),
    });
    expect(
      httpTokenCheck({ host: '0.0.0.0', token: undefined, insecureNoToken: false }),
    ).toMatchObject({
      ok: false,
      message: expect.stringContaining('add --insecure-no-token to serve without one anyway'),
    });
    expect(
      httpTokenCheck({ host: '0.0.0.0', token: undefined, insecureNoToken: true }),
    ).toMatchObject({
      ok: true,
      warning: expect.stringContaining('anyone who reaches it can call the tools'),
    });
  });

  it('makes serve and gateway exit 2 before listening, and serve carry the loopback warning', async () => {
    expect(parseServeArgs(['--http', '--host', '0.0.0.0'])).toMatchObject({
      ok: false,
      message: expect.stringContaining('0.0.0.0 may be reachable from other machines'),
    });
    expect(parseServeArgs(['--http', '--host', '0.0.0.0', '--insecure-no-token'])).toMatchObject({
      ok: true,
    });
    expect(parseServeArgs(['--http'])).toMatchObject({
      ok: true,
      args: { tokenWarning: expect.stringContaining('no token is set') },
    });
    expect(parseServeArgs(['--http'], { HINTGATE_TOKEN: 'a-long-token' })).toMatchObject({
      ok: true,
      args: { token: 'a-long-token' },
    });
    expect(parseServeArgs(['--insecure-no-token'])).toMatchObject({ ok: false });

    let stderr = '';
    const code = await runCli(['gateway', '--http', '--host', '0.0.0.0'], {
      stdout: () => {},
      stderr: (text) => {
        stderr += text;
      },
      env: {},
      cwd: '/',
    });
    expect(code).toBe(2);
    expect(stderr).toContain('hintgate gateway: 0.0.0.0 may be reachable from other machines');
  });
});

describe('a misspelled command', () => {
  it('is answered with the command it is close to', async () => {
    let stderr = '';
    const code = await runCli(['gatway'], {
      stdout: () => {},
      stderr: (text) => {
        stderr += text;
      },
    });
    expect(code).toBe(2);
    expect(stderr).toBe(
      'hintgate: unknown command "gatway". Did you mean "hintgate gateway"? Run "hintgate --help" for usage.\n',
    );
  });
});
