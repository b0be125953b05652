import {
  DEFAULT_INHERITED_ENV_VARS,
  getDefaultEnvironment,
} from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { defaultEnvironment, inheritedEnvVars } from './default-environment.js';

describe('the environment a stdio server inherits', () => {
  it("is the MCP SDK's list of variables on this platform", () => {
    expect(inheritedEnvVars(process.platform)).toEqual(DEFAULT_INHERITED_ENV_VARS);
  });

  it("is what the SDK's getDefaultEnvironment makes of this process's environment", () => {
    expect(defaultEnvironment()).toEqual(getDefaultEnvironment());
  });

  it('takes the listed variables that are set, and no exported shell function', () => {
    const [first = '', second = '', third = ''] = inheritedEnvVars(process.platform);
    expect(
      defaultEnvironment({
        [first]: '/somewhere',
        [second]: '() { echo pwned; }',
        [third]: undefined,
        SECRET_TOKEN: 'not inherited',
      }),
    ).toEqual({ [first]: '/somewhere' });
  });

  it('lists the Windows variables on Windows', () => {
    expect(inheritedEnvVars('win32')).toContain('SYSTEMROOT');
    expect(inheritedEnvVars('win32')).not.toContain('HOME');
  });
});
