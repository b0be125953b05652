import { isDeepStrictEqual } from 'node:util';
import { isMap, isScalar, LineCounter, type Pair, parseDocument } from 'yaml';
import { HintgateError } from '../../errors/index.js';
import { renderServerEntries, type ServerEntry } from './render-server-entries.js';

/** Options of {@link addServersToConfigText}. */
export interface AddServersOptions {
  /** Where the servers come from, named in the comment above the ones added. */
  readonly source?: string;
  /** The file's name, for messages. Default `hintgate.yaml`. */
  readonly file?: string;
}

/** What {@link addServersToConfigText} did. */
export interface AddServersResult {
  /** The new text; the same text when nothing was added. */
  readonly text: string;
  /** Names of the servers added, in the order given. */
  readonly added: readonly string[];
  /** Names of the servers given that the file already has: left as the file has them. */
  readonly present: readonly string[];
}

const SERVER_KEYS = ['servers', 'mcpServers'];

const keyOf = (pair: Pair): string | undefined =>
  isScalar(pair.key) ? String(pair.key.value) : undefined;

/** A comment line meant as prose (`# ` and a word, or `#` alone), not a commented-out setting. */
const isProse = (line: string): boolean => /^#( \S|\s*$)/.test(line);

/**
 * Adds servers to the text of a gateway configuration (`hintgate.yaml`), keeping everything
 * else as written: comments, the order and spelling of keys, commented-out settings and
 * the servers already there, which win over a given server of the same name (the person's
 * edits stay). The new entries go after the last server, before the comments that open the
 * next section, under a comment naming `source`. A configuration whose servers block is
 * written in flow style (`servers: { ... }`) is rewritten through the `yaml` Document API,
 * which keeps comments but may reformat.
 *
 * @throws HintgateError `invalid_config` when the text is not YAML, or its `servers` is
 *   not a mapping.
 */
export function addServersToConfigText(
  text: string,
  servers: readonly ServerEntry[],
  options: AddServersOptions = {},
): AddServersResult {
  const file = options.file ?? 'hintgate.yaml';
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new HintgateError(
      'invalid_config',
      `${file} cannot be parsed as YAML (${doc.errors[0]?.message.split('\n')[0] ?? 'syntax error'}); fix it, or move it away to start from a new one.`,
    );
  }
  const root = doc.contents;
  if (root !== null && !isMap(root)) {
    throw new HintgateError(
      'invalid_config',
      `${file} is not a mapping of settings; fix it, or move it away to start from a new one.`,
    );
  }
  const items = root?.items ?? [];
  const index = items.findIndex((pair) => SERVER_KEYS.includes(keyOf(pair) ?? ''));
  const pair = items[index];
  const block = pair?.value;
  const empty = block === null || block === undefined || (isScalar(block) && block.value === null);
  if (pair !== undefined && !empty && !isMap(block)) {
    throw new HintgateError(
      'invalid_config',
      `${file}: "${keyOf(pair)}" is not a mapping of server names to servers; fix it first.`,
    );
  }
  const existing = new Set(
    isMap(block) ? block.items.map((item) => keyOf(item)).filter((name) => name !== undefined) : [],
  );
  const present = servers.filter((server) => existing.has(server.name)).map((s) => s.name);
  const fresh = servers.filter((server) => !existing.has(server.name));
  if (fresh.length === 0) return { text, added: [], present };
  const added = fresh.map((server) => server.name);
  const heading = `# Added by "hintgate init"${options.source === undefined ? '' : ` from ${options.source}`}:`;

  const viaDocument = (): string => {
    const key = pair === undefined ? 'servers' : (keyOf(pair) ?? 'servers');
    for (const server of fresh) doc.setIn([key, server.name], doc.createNode(server.entry));
    return doc.toString();
  };

  let next: string;
  if (pair === undefined) {
    const end = text === '' || text.endsWith('\n') ? text : `${text}\n`;
    next = `${end}\n${heading}\nservers:\n${renderServerEntries(fresh, 2)}`;
  } else if (isMap(block) && block.flow === true) {
    next = viaDocument();
  } else {
    const lines = text.split('\n');
    const keyStart = isScalar(pair.key) ? (pair.key.range?.[0] ?? 0) : 0;
    const keyLine = lineCounter.linePos(keyStart).line - 1;
    const following = items[index + 1];
    const nextKey = following?.key;
    let at =
      isScalar(nextKey) && nextKey.range != null
        ? lineCounter.linePos(nextKey.range[0]).line - 1
        : lines.length;
    // The prose comments that open the next section belong to it, and so do blank lines.
    while (at > keyLine + 1 && isProse(lines[at - 1] ?? '')) at -= 1;
    while (at > keyLine + 1 && (lines[at - 1] ?? '').trim() === '') at -= 1;
    const first = isMap(block) ? block.items[0]?.key : undefined;
    const indent =
      isScalar(first) && first.range != null ? lineCounter.linePos(first.range[0]).col - 1 : 2;
    const pad = ' '.repeat(indent);
    const insert = `\n\n${pad}${heading}\n${renderServerEntries(fresh, indent)}`.replace(/\n$/, '');
    const head = lines.slice(0, at).join('\n');
    const tail = lines.slice(at).join('\n');
    next = `${head}${insert}${at < lines.length ? `\n${tail}` : '\n'}`;
  }
  return { text: checked(text, next, fresh, viaDocument), added, present };
}

/**
 * The text with the servers added, after checking that it holds what the old one held and
 * the new servers as given; otherwise the Document API's rendering.
 */
function checked(
  before: string,
  after: string,
  fresh: readonly ServerEntry[],
  viaDocument: () => string,
): string {
  const old = parseDocument(before).toJS() as Record<string, unknown> | null;
  const doc = parseDocument(after);
  const now = doc.errors.length === 0 ? (doc.toJS() as Record<string, unknown> | null) : null;
  const key = Object.keys(now ?? {}).find((name) => SERVER_KEYS.includes(name)) ?? 'servers';
  const expected = {
    ...(old ?? {}),
    [key]: {
      ...((old?.[key] as Record<string, unknown> | null | undefined) ?? {}),
      ...Object.fromEntries(fresh.map((server) => [server.name, server.entry])),
    },
  };
  return now !== null && isDeepStrictEqual(now, expected) ? after : viaDocument();
}
