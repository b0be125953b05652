import { describe, expect, it } from 'vitest';
import { serverNameOf, serverNameOfUrl } from './parse-check-args.js';

describe('serverNameOf', () => {
  it('names a server after its command or the package a launcher runs', () => {
    expect(serverNameOf('npx', ['-y', '@modelcontextprotocol/server-everything'])).toBe(
      'server-everything',
    );
    expect(serverNameOf('./dist/--server--.js', [])).toBe('server');
    expect(serverNameOfUrl(new URL('http://-api-.example.com/mcp'))).toBe('api--example-com');
  });

  it('trims a megabyte of dashes in linear time', () => {
    expect(serverNameOf(`a${'-'.repeat(1_000_000)}b`, [])).toBe(`a${'-'.repeat(63)}`);
    expect(serverNameOf(`${'-'.repeat(1_000_000)}x`, [])).toBe('x');
  }, 30_000);
});
