import type { OpaquePart } from '../tool/index.js';
import { excerpt } from './shell-excerpt.js';
import type { ShellWord } from './shell-syntax.js';
import type { SplitWords } from './unwrap-command.js';

/** What a git command runs, as {@link readGitCommand} reads it. */
export interface GitReading {
  /** Its arguments with aliases expanded: what the key is made of. */
  readonly args: readonly ShellWord[];
  /** Shell code it runs: a `!` alias, `submodule foreach`, `rebase --exec`, `difftool -x`, ... */
  readonly code: readonly ShellWord[];
  /** Commands it runs given as words: `bisect run CMD ARGS`. */
  readonly targets: readonly (readonly ShellWord[])[];
  /** What it does that a person must see, and what hides a command. */
  readonly opaque: readonly OpaquePart[];
}

const GLOBAL_VALUES = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config-env',
  '--exec-path',
  '--super-prefix',
  '--list-cmds',
  '--attr-source',
]);

/** Configuration keys that run nothing, which `-c` and `git config` may set freely. */
const SAFE_CONFIG = new Set([
  'user.name',
  'user.email',
  'core.quotepath',
  'core.abbrev',
  'core.autocrlf',
  'core.safecrlf',
  'core.filemode',
  'init.defaultbranch',
  'commit.gpgsign',
  'tag.gpgsign',
  'pull.rebase',
  'pull.ff',
  'push.default',
  'safe.directory',
  'format.pretty',
]);
const SAFE_CONFIG_SECTIONS = ['color.', 'advice.', 'log.', 'i18n.', 'column.', 'status.'];

/** Options whose value git runs as a command, in any subcommand. */
const CODE_OPTIONS = new Set(['--upload-pack', '--receive-pack', '--exec', '--extcmd']);
const FILTERS = new Set([
  '--env-filter',
  '--tree-filter',
  '--index-filter',
  '--parent-filter',
  '--msg-filter',
  '--commit-filter',
  '--tag-name-filter',
  '--setup',
]);
const MAX_ALIASES = 10;

const safeConfig = (key: string): boolean =>
  SAFE_CONFIG.has(key) || SAFE_CONFIG_SECTIONS.some((section) => key.startsWith(section));

const literal = (text: string): ShellWord => ({ source: text, value: text });

/**
 * Reads a git command (its arguments after `git`): global options (`-c KEY=VALUE` sets
 * configuration: an `alias.*` is remembered in `aliases` and applied, any key that may run
 * a program hides what runs), aliases (from `-c` or an earlier `git config alias.x` in the
 * same line: `!` aliases are shell code, others expand in place), and the subcommands and
 * options that run commands (`submodule foreach`, `rebase --exec`, `bisect run`, `difftool
 * -x`, `filter-branch --*-filter`, `grep -O`, `--upload-pack`, `--receive-pack`, `--exec`).
 * Aliases in git's configuration files are not seen.
 */
export function readGitCommand(
  args: readonly ShellWord[],
  aliases: Map<string, string>,
  split: SplitWords,
): GitReading {
  const opaque: OpaquePart[] = [];
  const code: ShellWord[] = [];
  const targets: ShellWord[][] = [];
  const hide = (reason: string): void => {
    opaque.push({ reason, hidesCommand: true });
  };
  const setConfig = (key: string, value: ShellWord, how: string): void => {
    const lower = key.toLowerCase();
    if (lower.startsWith('alias.')) {
      if (value.value === undefined) hide(`${how} sets the alias ${key} to ${value.opaque}`);
      else aliases.set(lower.slice('alias.'.length), value.value);
    } else if (!safeConfig(lower)) {
      hide(`${how} sets ${key}, which may make git run a program`);
    }
  };
  let words = [...args];
  for (let expansions = 0; ; expansions += 1) {
    // Global options, up to the subcommand.
    let i = 0;
    for (; i < words.length; i += 1) {
      const word = words[i] as ShellWord;
      const text = word.value;
      if (text === undefined || !text.startsWith('-')) break;
      const equals = text.indexOf('=');
      const name = text.startsWith('--') && equals !== -1 ? text.slice(0, equals) : text;
      if (!GLOBAL_VALUES.has(name)) continue;
      const value = name === text ? words[i + 1] : literal(text.slice(equals + 1));
      if (name === text) i += 1;
      if (value === undefined) break;
      if (name === '-c') {
        if (value.value === undefined) hide(`git -c ${value.opaque}`);
        else {
          const at = value.value.indexOf('=');
          const key = at === -1 ? value.value : value.value.slice(0, at);
          setConfig(key, literal(at === -1 ? 'true' : value.value.slice(at + 1)), 'git -c');
        }
      } else if (name === '--config-env') {
        hide(`git --config-env takes configuration from the environment: ${value.source}`);
      } else if (name === '--exec-path') {
        hide(`git --exec-path runs git's subcommands from ${value.source}`);
      }
    }
    const sub = words[i];
    if (sub === undefined || sub.value === undefined) return { args: words, code, targets, opaque };
    const alias = aliases.get(sub.value.toLowerCase());
    if (alias === undefined) break;
    if (expansions >= MAX_ALIASES) {
      hide(`git aliases expand more than ${MAX_ALIASES} times`);
      break;
    }
    opaque.push({ reason: `git ${sub.value} is the alias ${excerpt(alias)}` });
    if (alias.startsWith('!')) {
      code.push(literal(alias.slice(1)));
      return { args: words, code, targets, opaque };
    }
    const expanded = split(alias);
    if (typeof expanded === 'string') {
      hide(`the git alias ${sub.value} = ${excerpt(alias)} cannot be read: ${expanded}`);
      return { args: words, code, targets, opaque };
    }
    words = [...words.slice(0, i), ...expanded, ...words.slice(i + 1)];
  }
  readSubcommand(words, { opaque, code, targets, hide, setConfig });
  return { args: words, code, targets, opaque };
}

interface Sink {
  readonly opaque: OpaquePart[];
  readonly code: ShellWord[];
  readonly targets: ShellWord[][];
  hide(reason: string): void;
  setConfig(key: string, value: ShellWord, how: string): void;
}

function readSubcommand(words: readonly ShellWord[], sink: Sink): void {
  let at = 0;
  while (at < words.length && (words[at]?.value ?? '').startsWith('-')) {
    const name = words[at]?.value ?? '';
    at += GLOBAL_VALUES.has(name) ? 2 : 1;
  }
  const sub = words[at]?.value;
  const rest = words.slice(at + 1);
  for (let i = 0; i < rest.length; i += 1) {
    const text = rest[i]?.value;
    if (text === undefined) continue;
    const equals = text.indexOf('=');
    const name = text.startsWith('--') && equals !== -1 ? text.slice(0, equals) : text;
    const optionValue = (): ShellWord | undefined =>
      name === text ? rest[i + 1] : literal(text.slice(equals + 1));
    const runs =
      CODE_OPTIONS.has(name) ||
      (sub === 'filter-branch' && FILTERS.has(name)) ||
      ((sub === 'rebase' || sub === 'difftool') && name === '-x') ||
      ((sub === 'clone' || sub === 'ls-remote' || sub === 'archive') && name === '-u');
    if (runs) {
      const value = optionValue();
      if (value !== undefined) sink.code.push(value);
      if (name === text) i += 1;
    } else if (sub === 'grep' && (text.startsWith('-O') || name === '--open-files-in-pager')) {
      const value = text.startsWith('-O')
        ? text.slice(2)
        : equals === -1
          ? ''
          : text.slice(equals + 1);
      if (value !== '') sink.code.push(literal(value));
    } else if (sub === 'clone' && (name === '-c' || name === '--config')) {
      const value = optionValue();
      if (name === text) i += 1;
      const setting = value?.value;
      if (setting === undefined) sink.hide(`git clone ${name} ${value?.opaque ?? ''}`);
      else {
        const eq = setting.indexOf('=');
        sink.setConfig(
          eq === -1 ? setting : setting.slice(0, eq),
          literal(setting.slice(eq + 1)),
          'git clone -c',
        );
      }
    }
  }
  const operands = rest.filter((word) => !(word.value ?? '').startsWith('-'));
  if (sub === 'submodule' && operands[0]?.value === 'foreach') {
    const after = rest.slice(rest.indexOf(operands[0] as ShellWord) + 1);
    const body = after.filter(
      (word) => !['--recursive', '-q', '--quiet'].includes(word.value ?? ''),
    );
    const hidden = body.find((word) => word.value === undefined);
    if (hidden !== undefined) sink.hide(`git submodule foreach runs ${hidden.opaque}`);
    else if (body.length > 0) {
      sink.code.push(literal(body.map((word) => word.value).join(' ')));
    }
  } else if (sub === 'bisect' && operands[0]?.value === 'run') {
    sink.targets.push(rest.slice(rest.indexOf(operands[0] as ShellWord) + 1));
  } else if (sub === 'config') {
    readConfigWrite(rest, sink);
  } else if (sub === 'difftool' || sub === 'mergetool') {
    if (rest.some((word) => ['-t', '--tool', '-g', '--gui'].includes(word.value ?? ''))) {
      sink.hide(`git ${sub} runs the tool its configuration names`);
    }
  }
}

/** `git config [options] [set] NAME VALUE`: remembers aliases, hides settings that run programs. */
function readConfigWrite(rest: readonly ShellWord[], sink: Sink): void {
  const operands: ShellWord[] = [];
  for (let i = 0; i < rest.length; i += 1) {
    const word = rest[i] as ShellWord;
    const text = word.value;
    if (text === undefined) {
      sink.hide(`git config ${word.opaque}`);
      return;
    }
    if (['-f', '--file', '--blob', '--type', '--default', '--comment', '--value'].includes(text))
      i += 1;
    else if (!text.startsWith('-')) operands.push(word);
  }
  const [first, ...others] = operands;
  const [name, value] = first?.value === 'set' ? others : operands;
  if (name?.value === undefined || value === undefined) return;
  sink.opaque.push({ reason: `git config changes ${name.value}, which later git commands use` });
  sink.setConfig(name.value, value, 'git config');
}
