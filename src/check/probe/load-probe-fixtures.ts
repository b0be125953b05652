import { parseYamlOrJson } from '../../config-problems/index.js';
import { HintgateError } from '../../errors/index.js';
import { readTextFile } from '../../fs/index.js';
import { isPlainObject, nullRecord, ownValue } from '../../tool/index.js';

/** Argument sets to call each tool with, by tool name, instead of synthesized arguments. */
export type ProbeFixtures = Readonly<Record<string, readonly Readonly<Record<string, unknown>>[]>>;

/** A fixtures file, read by {@link loadProbeFixtures}. */
export interface LoadedProbeFixtures {
  /** The file, as given. */
  readonly file: string;
  /** Fixtures for every server (the file's top-level tool mapping). */
  readonly shared: ProbeFixtures;
  /** Fixtures per server name (the file's `servers` mapping). */
  readonly byServer: Readonly<Record<string, ProbeFixtures>>;
}

/** Options of {@link loadProbeFixtures}. */
export interface LoadProbeFixturesOptions {
  /** Reads a file as UTF-8 text. Default `fs.promises.readFile`. */
  readonly readFile?: ((path: string) => Promise<string>) | undefined;
}

const SHAPE =
  'write { "<tool>": [ { <arguments> }, ... ] }, or { "servers": { "<server>": { "<tool>": [ ... ] } } } for several servers';

/**
 * Reads a `--fixtures` file (YAML, or JSON): argument sets per tool, either for every server
 * (`{ "<tool>": [ {args}, ... ] }`) or per server (`{ "servers": { "<server>": { ... } } }`).
 * A single argument object may stand for a list of one.
 *
 * @throws HintgateError `invalid_config` for a missing, unreadable or malformed file, each
 *   problem on its own line starting with `file:line:column:`; `invalid_option` for a bad path.
 */
export async function loadProbeFixtures(
  path: string,
  options: LoadProbeFixturesOptions = {},
): Promise<LoadedProbeFixtures> {
  const { text } = await readTextFile(path, {
    caller: 'loadProbeFixtures',
    what: 'fixtures',
    readName: 'fixtures file',
    notFound: 'Fixtures file not found',
    howToCreate: 'for example with "read_file: [{ path: notes.txt }]"',
    expected: 'a .yaml or .json file',
    code: 'invalid_config',
    readFile: options.readFile,
  });
  return parseProbeFixtures(text, path);
}

/** The part of {@link loadProbeFixtures} after reading the file. */
export function parseProbeFixtures(text: string, file: string): LoadedProbeFixtures {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const problems: string[] = [];
  if (source.trim() === '') {
    throw new HintgateError('invalid_config', `${file}: the fixtures file is empty; ${SHAPE}.`);
  }
  const parsed = parseYamlOrJson(source, file, { code: 'invalid_config' });
  const at = (path: (string | number)[]): string => {
    for (let n = path.length; n >= 0; n -= 1) {
      const position = parsed.locate(path.slice(0, n));
      if (position !== undefined) return `${file}:${position.line}:${position.column}`;
    }
    return file;
  };
  const readTools = (value: unknown, path: (string | number)[]): ProbeFixtures => {
    // Tool and server names come from the file: records without a prototype keep them all.
    const out = nullRecord<Readonly<Record<string, unknown>>[]>();
    if (!isPlainObject(value)) {
      problems.push(`${at(path)}: expected a mapping of tool names to argument lists; ${SHAPE}.`);
      return out;
    }
    for (const [tool, sets] of Object.entries(value)) {
      const list = Array.isArray(sets) ? sets : [sets];
      const good: Record<string, unknown>[] = [];
      list.forEach((args, index) => {
        if (isPlainObject(args)) good.push(args);
        else {
          const where = Array.isArray(sets) ? [...path, tool, index] : [...path, tool];
          problems.push(
            `${at(where)}: the arguments of "${tool}" must be an object such as { path: "notes.txt" }, got ${args === null ? 'null' : Array.isArray(args) ? 'a list' : typeof args}.`,
          );
        }
      });
      if (list.length === 0) {
        problems.push(
          `${at([...path, tool])}: "${tool}" has no argument sets; give at least one object, or remove the entry.`,
        );
      }
      out[tool] = good;
    }
    return out;
  };
  const root = parsed.value;
  let shared: ProbeFixtures = nullRecord();
  const byServer = nullRecord<ProbeFixtures>();
  if (!isPlainObject(root)) {
    problems.push(`${file}: the fixtures file must hold a mapping; ${SHAPE}.`);
  } else {
    const { servers, ...tools } = root;
    shared = readTools(tools, []);
    if (servers !== undefined) {
      if (!isPlainObject(servers)) {
        problems.push(
          `${at(['servers'])}: "servers" must map server names to tool mappings; ${SHAPE}.`,
        );
      } else {
        for (const [server, value] of Object.entries(servers)) {
          byServer[server] = readTools(value, ['servers', server]);
        }
      }
    }
  }
  if (problems.length > 0) throw new HintgateError('invalid_config', problems.join('\n'));
  return { file, shared, byServer };
}

/** The fixtures for `server`: the shared ones, overridden per tool by the server's own section. */
export function fixturesForServer(loaded: LoadedProbeFixtures, server: string): ProbeFixtures {
  return nullRecord([
    ...Object.entries(loaded.shared),
    ...Object.entries(ownValue(loaded.byServer, server) ?? {}),
  ]);
}
