import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { neutralizeTerminalText } from './neutralize-terminal-text.js';

describe('neutralizeTerminalText', () => {
  it('turns C0 controls, DEL and C1 controls into visible escapes', () => {
    expect(neutralizeTerminalText('a\u001b[2Jb\r\n\t\u0007\u007f\u009b31m')).toBe(
      'a\\u001b[2Jb\\u000d\\u000a\\u0009\\u0007\\u007f\\u009b31m',
    );
  });

  it('turns bidirectional, invisible and separator characters into visible escapes', () => {
    expect(neutralizeTerminalText('x\u202eabc\u2066\u200b\u2028\ufeffy')).toBe(
      'x\\u202eabc\\u2066\\u200b\\u2028\\ufeffy',
    );
  });

  it('leaves printable text, including non-Latin scripts and emoji, as it is', () => {
    const text = 'rm -rf "/tmp/ö ß 日本語 😀" && echo \\u001b';
    expect(neutralizeTerminalText(text)).toBe(text);
  });

  it('never lets a control or ESC through, for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const unsafe = [...neutralizeTerminalText(text)].filter((char) => {
          const code = char.codePointAt(0) ?? 0;
          return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x202e;
        });
        expect(unsafe).toEqual([]);
      }),
    );
  });
});
