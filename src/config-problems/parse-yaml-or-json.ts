import { extname } from 'node:path';
import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  visit,
  type YAMLError,
} from 'yaml';
import { HintgateError, type HintgateErrorCode } from '../errors/index.js';
import type { ConfigPath, ConfigPosition } from './config-problem.js';
import { findJsonError } from './find-json-error.js';

/** Syntax errors reported at most, so that one broken line does not bury the rest. */
const MAX_SYNTAX_ERRORS = 10;

/** A YAML or JSON text, parsed, with the means to find where each value is. */
export interface ParsedYamlOrJson {
  /** The value the text holds; `undefined` when a YAML text holds only comments. */
  readonly value: unknown;
  /** Position of the value at a path (of its key, inside a mapping), when found. */
  readonly locate: (path: ConfigPath) => ConfigPosition | undefined;
}

/**
 * Parses a non-empty YAML or JSON text (`.yaml` and `.yml` as YAML, `.json` as strict JSON, any other
 * extension as JSON when the text starts with `{` and as YAML otherwise), reporting
 * syntax errors, duplicate keys and unresolved aliases with `file:line:column`.
 *
 * @param source The text, without a byte order mark.
 * @param file Name of the file, for messages and to choose between YAML and JSON.
 * @param options `code`: code of the error thrown. Default `invalid_policy`.
 * @throws HintgateError with `code` when the text cannot be parsed.
 */
export function parseYamlOrJson(
  source: string,
  file: string,
  options: { readonly code?: HintgateErrorCode } = {},
): ParsedYamlOrJson {
  const code = options.code ?? 'invalid_policy';
  const fail = (message: string, cause?: unknown): HintgateError =>
    new HintgateError(code, message, cause === undefined ? undefined : { cause });
  const json = isJson(file, source);
  const lineCounter = new LineCounter();
  let doc: Document.Parsed;
  try {
    doc = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw fail(`${file}: the ${json ? 'JSON' : 'YAML'} cannot be parsed: ${reason}.`, error);
  }
  const position = (offset: number): string => {
    const { line, col } = lineCounter.linePos(offset);
    return `${file}:${line}:${col}`;
  };
  const locateIn = (path: ConfigPath) => locate(doc, path, lineCounter);
  let value: unknown;
  if (json) {
    value = parseJson(source, file, fail);
    // JSON.parse keeps the last of two equal keys; a file with two "rules" is a mistake.
    const duplicates = doc.errors.filter((error) => error.code === 'DUPLICATE_KEY');
    if (duplicates.length > 0) throw fail(syntaxErrors(duplicates, 'JSON', position));
  } else {
    if (doc.errors.length > 0) throw fail(syntaxErrors(doc.errors, 'YAML', position));
    if (doc.contents === null) return { value: undefined, locate: locateIn };
    const aliases = unresolvedAliases(doc, position);
    if (aliases.length > 0) throw fail(aliases.join('\n'));
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw fail(`${file}: the YAML cannot be read: ${reason}.`, error);
    }
  }
  return { value, locate: locateIn };
}

function isJson(file: string, source: string): boolean {
  const extension = extname(file).toLowerCase();
  if (extension === '.json') return true;
  if (extension === '.yaml' || extension === '.yml') return false;
  return source.trimStart().startsWith('{');
}

function parseJson(
  source: string,
  file: string,
  fail: (message: string, cause?: unknown) => HintgateError,
): unknown {
  try {
    return JSON.parse(source);
  } catch (error) {
    const found = findJsonError(source);
    if (found === undefined) {
      const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
      throw fail(`${file}: JSON syntax error: ${reason}`, error);
    }
    const { line, column } = positionAt(source, found.offset);
    throw fail(`${file}:${line}:${column}: JSON syntax error: ${found.reason}.`, error);
  }
}

/** 1-based line and column of a UTF-16 offset in `text`. */
function positionAt(text: string, offset: number): ConfigPosition {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

function syntaxErrors(
  errors: readonly YAMLError[],
  language: 'YAML' | 'JSON',
  position: (offset: number) => string,
): string {
  const lines = new Set<string>();
  for (const error of errors) {
    const reason =
      error.code === 'MULTIPLE_DOCS'
        ? 'the file holds more than one YAML document'
        : error.message.replace(/\.$/, '');
    lines.add(
      `${position(error.pos[0])}: ${language} syntax error: ${reason}${syntaxHint(error)}.`,
    );
  }
  const shown = [...lines].slice(0, MAX_SYNTAX_ERRORS);
  if (lines.size > shown.length) shown.push(`(${lines.size - shown.length} more syntax errors)`);
  return shown.join('\n');
}

function syntaxHint(error: YAMLError): string {
  switch (error.code) {
    case 'BAD_ALIAS':
      return '; a value that starts with "*" is read as an alias, so quote globs, as in tool: "*"';
    case 'DUPLICATE_KEY':
      return '; keep one of the keys';
    case 'MULTIPLE_DOCS':
      return '; keep one, without "---" lines between policies';
    case 'TAB_AS_INDENT':
      return '; indent with spaces';
    default:
      return /\bflow\b/i.test(error.message)
        ? '; if this is a glob that starts with "[" or "{", quote it'
        : '';
  }
}

/** `*abc` in YAML is an alias; unquoted globs such as `tool: *_read` end up here. */
function unresolvedAliases(doc: Document, position: (offset: number) => string): string[] {
  const problems: string[] = [];
  visit(doc, {
    Alias(_key, node) {
      if (node.resolve(doc) !== undefined) return;
      const at =
        node.range === undefined || node.range === null ? '' : `${position(node.range[0])}: `;
      problems.push(
        `${at}*${node.source} is read as a YAML alias, and no anchor &${node.source} is set; if it is a glob, quote it: "*${node.source}".`,
      );
    },
  });
  return problems;
}

/** Position of the node at `path` (of its key, inside a mapping). */
function locate(
  doc: Document,
  path: ConfigPath,
  lineCounter: LineCounter,
): ConfigPosition | undefined {
  let node: unknown = doc.contents;
  let offset = rangeStart(node);
  for (const segment of path) {
    if (isAlias(node)) node = node.resolve(doc);
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => isScalar(item.key) && String(item.key.value) === String(segment),
      );
      if (pair === undefined) return undefined;
      offset = rangeStart(pair.key);
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
      offset = rangeStart(node);
    } else {
      return undefined;
    }
  }
  if (offset === undefined) return undefined;
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

function rangeStart(node: unknown): number | undefined {
  if (typeof node !== 'object' || node === null || !('range' in node)) return undefined;
  const { range } = node;
  return Array.isArray(range) && typeof range[0] === 'number' ? range[0] : undefined;
}
