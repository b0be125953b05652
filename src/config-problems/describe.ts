import { isPlainObject } from '../tool/index.js';

/** A short description of a value for a message: `"block"`, `42`, `a list`, `a mapping`. */
export function describe(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
    case 'number':
    case 'boolean':
      return String(value);
    case 'bigint':
      return `${value}n`;
    case 'undefined':
      return 'undefined';
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list';
      if (isPlainObject(value)) return 'a mapping';
      if (value instanceof Uint8Array) return 'binary data';
      if (value instanceof Date) return 'a date';
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}
