import { describe, expect, it } from 'vitest';
import { takeConsoleOption } from './console-option.js';

describe('takeConsoleOption', () => {
  it('takes --console with and without a port', () => {
    expect(takeConsoleOption(['--console', '--mode', 'auto'])).toEqual({
      ok: true,
      argv: ['--mode', 'auto'],
      console: {},
    });
    expect(takeConsoleOption(['--console', '7777', '--http'])).toEqual({
      ok: true,
      argv: ['--http'],
      console: { port: 7777 },
    });
    expect(takeConsoleOption(['--console=0'])).toEqual({
      ok: true,
      argv: [],
      console: { port: 0 },
    });
    expect(takeConsoleOption(['--http'])).toEqual({ ok: true, argv: ['--http'] });
  });

  it('leaves a following option or a non-number to the other options', () => {
    expect(takeConsoleOption(['--console', '--port', '3000'])).toEqual({
      ok: true,
      argv: ['--port', '3000'],
      console: {},
    });
    expect(takeConsoleOption(['--console', 'x'])).toEqual({
      ok: true,
      argv: ['x'],
      console: {},
    });
  });

  it('refuses a port out of range, a bad value and a repeat', () => {
    expect(takeConsoleOption(['--console', '70000'])).toMatchObject({
      ok: false,
      message: expect.stringContaining('"70000" is not a port'),
    });
    expect(takeConsoleOption(['--console=abc'])).toMatchObject({ ok: false });
    expect(takeConsoleOption(['--console', '--console'])).toMatchObject({
      ok: false,
      message: '--console is given twice.',
    });
  });
});
