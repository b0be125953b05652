import { describe, expect, it } from 'vitest';
import { disabledEnvVar, readDisabledEnv } from './env-disabled.js';

describe('disabledEnvVar', () => {
  it('upper-cases the name and replaces every character outside A-Z 0-9 with "_"', () => {
    expect(disabledEnvVar('web-fetch')).toBe('TOOL_WEB_FETCH_DISABLED');
    expect(disabledEnvVar('web.fetch')).toBe('TOOL_WEB_FETCH_DISABLED');
    expect(disabledEnvVar('read_file2')).toBe('TOOL_READ_FILE2_DISABLED');
    expect(disabledEnvVar('Text.To-Speech')).toBe('TOOL_TEXT_TO_SPEECH_DISABLED');
  });
});

describe('readDisabledEnv', () => {
  it('keeps only TOOL_*_DISABLED variables whose trimmed value is "true", any case', () => {
    const disabled = readDisabledEnv({
      TOOL_A_DISABLED: 'true',
      TOOL_B_DISABLED: ' TRUE ',
      TOOL_C_DISABLED: 'True',
      TOOL_D_DISABLED: '1',
      TOOL_E_DISABLED: 'yes',
      TOOL_F_DISABLED: 'false',
      TOOL_G_DISABLED: undefined,
      TOOL_H_ENABLED: 'true',
      XTOOL_I_DISABLED: 'true',
    });
    expect([...disabled].sort()).toEqual(['TOOL_A_DISABLED', 'TOOL_B_DISABLED', 'TOOL_C_DISABLED']);
  });
});
