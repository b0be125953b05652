import { Document, isScalar, Scalar, visit } from 'yaml';

/** One server to write into a configuration: its name and its entry as a client wrote it. */
export interface ServerEntry {
  /** The server's name in the configuration (it matches `SERVER_NAME_PATTERN`). */
  readonly name: string;
  /** The entry: `command`/`args`/`env`, or `url`/`headers`, and any hintgate settings. */
  readonly entry: Readonly<Record<string, unknown>>;
}

/**
 * Server entries as YAML mapping entries (`name:` and the entry below it), each line
 * indented by `indent` spaces, ending in a newline. Lists of plain values (`args`) are
 * written on one line with double quotes, as people write them.
 */
export function renderServerEntries(servers: readonly ServerEntry[], indent: number): string {
  if (servers.length === 0) return '';
  const doc = new Document(Object.fromEntries(servers.map(({ name, entry }) => [name, entry])));
  visit(doc, {
    Seq(_, node) {
      if (!node.items.every((item) => isScalar(item))) return;
      node.flow = true;
      for (const item of node.items) {
        if (isScalar(item) && typeof item.value === 'string') item.type = Scalar.QUOTE_DOUBLE;
      }
    },
  });
  const pad = ' '.repeat(indent);
  const text = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
  return text
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => (line === '' ? '\n' : `${pad}${line}\n`))
    .join('');
}
