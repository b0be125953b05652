import { describe, expect, it } from 'vitest';
import {
  sectionFailure as failure,
  loadSection as load,
  sectionDocument,
  validateConfigSchema as validate,
} from './config-text.test-helpers.js';

describe('console: in hintgate.yaml', () => {
  it('is off unless stated, on with true or settings', () => {
    expect(load('').console).toBeUndefined();
    expect(load('console: false\n').console).toBeUndefined();
    expect(load('console: true\n').console).toEqual({});
    expect(
      load(`console: { port: 7777, token: "\${CONSOLE_TOKEN}" }\n`, {
        CONSOLE_TOKEN: 'a-long-enough-token',
      }).console,
    ).toEqual({ port: 7777, token: 'a-long-enough-token' });
  });

  it('says what is wrong with a bad port, a short token or an unknown key, without the token', () => {
    expect(failure('console: { port: 70000 }\n')).toContain(
      'console.port is 70000; use an integer from 0 to 65535',
    );
    const short = failure(`console: { token: "\${T}" }\n`, { T: 'sh0rt' });
    expect(short).toContain('console.token is 5 characters long; use at least 16');
    expect(short).not.toContain('sh0rt');
    expect(failure('console: { host: 0.0.0.0 }\n')).toContain(
      'the console listens on 127.0.0.1 only',
    );
    expect(failure('console: 7777\n')).toContain('console');
  });

  it('matches the schema', () => {
    for (const text of ['console: true\n', `console: { port: 0, token: "\${T}" }\n`]) {
      expect(validate(sectionDocument(text))).toBe(true);
    }
    expect(validate(sectionDocument('console: { host: "x" }\n'))).toBe(false);
  });
});
