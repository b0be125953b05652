import { extname } from 'node:path';
import {
  CHECK_SEVERITIES,
  type CheckSeverity,
  DEFAULT_FAIL_ON,
  FAIL_ON_VALUES,
  type FailOn,
  ISOLATION_OPTIONS,
  type IsolationOption,
} from '../check/early.js';
import { SERVER_NAME_PATTERN } from '../gateway/early.js';
import { nullRecord } from '../tool/index.js';
import { parseCommandArgs } from './parse-command-args.js';

/** What `hintgate check` checks. */
export type CheckCliTarget =
  | {
      /** A gateway configuration: every server in it. */
      readonly kind: 'config';
      /** `--config FILE`; absent for `./hintgate.yaml`. */
      readonly file?: string;
    }
  | {
      /** One stdio server: `-- COMMAND ARGS...`. */
      readonly kind: 'command';
      readonly name: string;
      readonly command: string;
      readonly args: readonly string[];
    }
  | {
      /** One Streamable HTTP server: `--url URL`. */
      readonly kind: 'url';
      readonly name: string;
      readonly url: string;
      readonly headers: Readonly<Record<string, string>>;
    };

/** Output format of `hintgate check`. */
export type CheckOutputFormat = 'table' | 'json' | 'sarif';

/** The options of `hintgate check`, checked. */
export interface CheckCliOptions {
  readonly target: CheckCliTarget;
  readonly probe: boolean;
  readonly allowWrites: boolean;
  /** `--fixtures FILE`. */
  readonly fixtures?: string;
  /** `--pass-env NAME`, in the order given. */
  readonly passEnv: readonly string[];
  readonly format: CheckOutputFormat;
  readonly failOn: FailOn;
  readonly writePin: boolean;
  /** `--connect-timeout SECONDS`, in milliseconds; absent for the default (30 s). */
  readonly connectTimeoutMs?: number;
  /** `--install-timeout SECONDS`, in milliseconds; absent for the default (300 s). */
  readonly installTimeoutMs?: number;
  /** `--isolation`: OS isolation of stdio servers. Default `auto`. */
  readonly isolation: IsolationOption;
  /** False with `--no-host-cache`: the host's package caches are not handed in. */
  readonly hostCaches: boolean;
  /** `--min-severity`: findings below it are folded in the table; absent for the default. */
  readonly minSeverity?: CheckSeverity;
  /** `--quiet`: the table shows only what fails the check. */
  readonly quiet: boolean;
}

/** Parsed `hintgate check` arguments: help, the options, or the one-line reason they are wrong. */
export type ParsedCheckArgs =
  | { readonly ok: true; readonly help: true }
  | { readonly ok: true; readonly help: false; readonly options: CheckCliOptions }
  | { readonly ok: false; readonly message: string };

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  config: { type: 'string' },
  url: { type: 'string' },
  header: { type: 'string', multiple: true },
  name: { type: 'string' },
  probe: { type: 'boolean' },
  'allow-writes': { type: 'boolean' },
  fixtures: { type: 'string' },
  'pass-env': { type: 'string', multiple: true },
  json: { type: 'boolean' },
  sarif: { type: 'boolean' },
  'fail-on': { type: 'string' },
  'write-pin': { type: 'boolean' },
  'connect-timeout': { type: 'string' },
  'install-timeout': { type: 'string' },
  isolation: { type: 'string' },
  'no-host-cache': { type: 'boolean' },
  'min-severity': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
} as const;

const SEE_HELP = 'Run "hintgate check --help" for usage.';

/** Launchers whose first argument that is not an option names the server better than they do. */
const LAUNCHERS = new Set([
  'npx',
  'pnpx',
  'bunx',
  'uvx',
  'pipx',
  'node',
  'nodejs',
  'bun',
  'deno',
  'tsx',
  'ts-node',
  'python',
  'python3',
  'uv',
  'docker',
  'podman',
]);
const LAUNCHER_VERBS = new Set(['run', 'exec', 'dlx', 'x', 'tool']);
/** Launcher options whose value is the next argument, not the server. */
const LAUNCHER_VALUE_OPTIONS = new Set([
  '--import',
  '--require',
  '-r',
  '--loader',
  '--experimental-loader',
  '--env-file',
  '-p',
  '--package',
  '--from',
  '--with',
  '-e',
  '--env',
  '-v',
  '--volume',
  '-w',
  '--workdir',
  '--name',
]);

const ENTRY_FILES = new Set(['index', 'main', 'cli', 'server', 'stdio']);
const BUILD_DIRECTORIES = new Set(['dist', 'build', 'lib', 'src', 'bin', 'out', 'esm', 'cjs']);

/**
 * `s` without leading and trailing dashes; a loop, since `/^-+|-+$/g` retries a long run of
 * dashes from each of them (quadratic time).
 */
const trimDashes = (s: string): string => {
  let start = 0;
  let end = s.length;
  while (start < end && s.charCodeAt(start) === 0x2d) start += 1;
  while (end > start && s.charCodeAt(end - 1) === 0x2d) end -= 1;
  return s.slice(start, end);
};

const nameFrom = (word: string): string => {
  // "@scope/pkg@1.2.3" -> "pkg"; "./dist/server.js" -> "server"; "ghcr.io/o/img:tag" -> "img".
  const unversioned = word.replace(/(?<=.)@[^/@]*$/, '').replace(/:[^/:]*$/, '');
  const parts = unversioned.split(/[\\/]+/).filter((part) => part !== '');
  const base = parts.pop() ?? '';
  let stem = base.slice(0, base.length - extname(base).length) || base;
  // "node_modules/pkg/dist/index.js" is "pkg": an entry file is named after its package.
  if (ENTRY_FILES.has(stem)) {
    const directory = [...parts].reverse().find((part) => !BUILD_DIRECTORIES.has(part));
    if (directory !== undefined && directory !== '.' && directory !== '..') stem = directory;
  }
  return trimDashes(stem.replace(/[^A-Za-z0-9_-]+/g, '-')).slice(0, 64);
};

/**
 * The name a server run as `command args` is reported and pinned under: the command's base
 * name, or for a launcher (`npx`, `node`, `uvx`, `docker run`, ...) the first argument that is
 * not an option, without scope, version, directory or extension.
 * `npx -y @modelcontextprotocol/server-everything` is `server-everything`.
 */
export function serverNameOf(command: string, args: readonly string[]): string {
  let word = command;
  if (LAUNCHERS.has(nameFrom(command))) {
    const subject = args.find(
      (arg, index) =>
        !arg.startsWith('-') &&
        !LAUNCHER_VALUE_OPTIONS.has(args[index - 1] ?? '') &&
        !LAUNCHER_VERBS.has(arg) &&
        nameFrom(arg) !== '',
    );
    if (subject !== undefined) word = subject;
  }
  const name = nameFrom(word);
  return name === '' ? 'server' : name;
}

/** Name of an HTTP server from its URL: the host name, dots as dashes. */
export function serverNameOfUrl(url: URL): string {
  const name = trimDashes(url.hostname.replace(/[^A-Za-z0-9_-]+/g, '-'));
  return name === '' ? 'server' : name.slice(0, 64);
}

const fail = (message: string): ParsedCheckArgs => ({
  ok: false,
  message: `${message} ${SEE_HELP}`,
});

/**
 * Parses `hintgate check [options] [-- COMMAND ARGS...]`. Everything after the first `--`
 * is the server's command line. Combinations that make no sense are refused with one line.
 */
export function parseCheckArgs(argv: readonly string[]): ParsedCheckArgs {
  const dashes = argv.indexOf('--');
  const own = dashes === -1 ? argv : argv.slice(0, dashes);
  const commandLine = dashes === -1 ? undefined : argv.slice(dashes + 1);
  const parsed = parseCommandArgs('check', own, OPTIONS);
  if (!parsed.ok) return parsed;
  const values = parsed.values as {
    help?: boolean;
    config?: string;
    url?: string;
    header?: string[];
    name?: string;
    probe?: boolean;
    'allow-writes'?: boolean;
    fixtures?: string;
    'pass-env'?: string[];
    json?: boolean;
    sarif?: boolean;
    'fail-on'?: string;
    'write-pin'?: boolean;
    'connect-timeout'?: string;
    'install-timeout'?: string;
    isolation?: string;
    'no-host-cache'?: boolean;
    'min-severity'?: string;
    quiet?: boolean;
  };
  if (values.help === true) return { ok: true, help: true };

  const given = [
    values.config === undefined ? undefined : '--config',
    values.url === undefined ? undefined : '--url',
    commandLine === undefined ? undefined : '-- COMMAND',
  ].filter((what) => what !== undefined);
  if (given.length > 1) {
    return fail(`give one of --config, --url and -- COMMAND, not ${given.join(' and ')}.`);
  }
  if (commandLine !== undefined && (commandLine[0] ?? '') === '') {
    return fail('"--" must be followed by the command that starts the server.');
  }
  const headers = values.header ?? [];
  if (headers.length > 0 && values.url === undefined) {
    return fail('--header only applies with --url.');
  }
  if (values.name !== undefined) {
    if (values.url === undefined && commandLine === undefined) {
      return fail(
        '--name only applies with --url or -- COMMAND; a configuration names its servers.',
      );
    }
    if (!SERVER_NAME_PATTERN.test(values.name)) {
      return fail(`--name "${values.name}" is not a server name; use 1-64 of A-Z a-z 0-9 _ -.`);
    }
  }
  const probe = values.probe === true;
  for (const option of ['allow-writes', 'fixtures'] as const) {
    if (values[option] !== undefined && !probe) {
      return fail(`--${option} only applies with --probe.`);
    }
  }
  if (values.json === true && values.sarif === true) {
    return fail('give --json or --sarif, not both.');
  }
  const failOn = values['fail-on'] ?? DEFAULT_FAIL_ON;
  if (!(FAIL_ON_VALUES as readonly string[]).includes(failOn)) {
    return fail(
      `--fail-on "${failOn}" is not a severity; use one of ${FAIL_ON_VALUES.join(', ')}.`,
    );
  }
  const writePin = values['write-pin'] === true;
  if (writePin && !probe) {
    return fail(
      '--write-pin records probe verdicts, so it needs --probe ("hintgate pin" pins without them).',
    );
  }
  if (writePin && (values.url !== undefined || commandLine !== undefined)) {
    return fail(
      '--write-pin writes the pin file of a configuration; use --config (or ./hintgate.yaml), not --url or -- COMMAND.',
    );
  }
  const passEnv = values['pass-env'] ?? [];
  const badVariable = passEnv.find((name) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
  if (badVariable !== undefined) {
    return fail(`--pass-env "${badVariable}" is not an environment variable name.`);
  }

  const secondsOf = (option: 'connect-timeout' | 'install-timeout'): number | undefined | Error => {
    const given = values[option];
    const seconds = given === undefined ? undefined : Number(given);
    if (
      seconds !== undefined &&
      !(Number.isFinite(seconds) && seconds > 0 && given?.trim() !== '')
    ) {
      return new Error(`--${option} "${given}" is not a positive number of seconds.`);
    }
    return seconds;
  };
  const seconds = secondsOf('connect-timeout');
  if (seconds instanceof Error) return fail(seconds.message);
  const installSeconds = secondsOf('install-timeout');
  if (installSeconds instanceof Error) return fail(installSeconds.message);
  const isolation = values.isolation ?? 'auto';
  if (!(ISOLATION_OPTIONS as readonly string[]).includes(isolation)) {
    return fail(`--isolation "${isolation}" is not one of ${ISOLATION_OPTIONS.join(', ')}.`);
  }
  const minSeverity = values['min-severity'];
  if (minSeverity !== undefined && !(CHECK_SEVERITIES as readonly string[]).includes(minSeverity)) {
    return fail(
      `--min-severity "${minSeverity}" is not a severity; use one of ${CHECK_SEVERITIES.join(', ')}.`,
    );
  }
  const quiet = values.quiet === true;
  if ((minSeverity !== undefined || quiet) && (values.json === true || values.sarif === true)) {
    return fail(
      `--${quiet ? 'quiet' : 'min-severity'} only shapes the table; --json and --sarif always carry every finding.`,
    );
  }

  let target: CheckCliTarget;
  if (values.url !== undefined) {
    let url: URL;
    try {
      url = new URL(values.url);
    } catch {
      return fail(
        `--url "${values.url}" is not a URL; write the full endpoint, e.g. http://127.0.0.1:3000/mcp.`,
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return fail(`--url "${values.url}" is not an http(s) URL.`);
    }
    const parsedHeaders = nullRecord<string>();
    for (const header of headers) {
      const colon = header.indexOf(':');
      const name = colon === -1 ? '' : header.slice(0, colon).trim();
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
        return fail(`--header "${header}" is not "Name: value".`);
      }
      parsedHeaders[name] = header.slice(colon + 1).trim();
    }
    target = {
      kind: 'url',
      name: values.name ?? serverNameOfUrl(url),
      url: url.href,
      headers: parsedHeaders,
    };
  } else if (commandLine !== undefined) {
    const [command = '', ...args] = commandLine;
    target = { kind: 'command', name: values.name ?? serverNameOf(command, args), command, args };
  } else {
    target = { kind: 'config', ...(values.config === undefined ? {} : { file: values.config }) };
  }
  return {
    ok: true,
    help: false,
    options: {
      target,
      probe,
      allowWrites: values['allow-writes'] === true,
      ...(values.fixtures === undefined ? {} : { fixtures: values.fixtures }),
      passEnv,
      format: values.json === true ? 'json' : values.sarif === true ? 'sarif' : 'table',
      failOn: failOn as FailOn,
      writePin,
      ...(seconds === undefined ? {} : { connectTimeoutMs: Math.round(seconds * 1000) }),
      ...(installSeconds === undefined
        ? {}
        : { installTimeoutMs: Math.round(installSeconds * 1000) }),
      isolation: isolation as IsolationOption,
      hostCaches: values['no-host-cache'] !== true,
      ...(minSeverity === undefined ? {} : { minSeverity: minSeverity as CheckSeverity }),
      quiet,
    },
  };
}
