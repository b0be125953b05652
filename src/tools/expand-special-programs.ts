import type { OpaquePart } from '../tool/index.js';
import { readGitCommand } from './read-git-command.js';
import { fdExecs, findExecs, readParallel, readShellArgs, readXargs } from './runner-arguments.js';
import { excerpt } from './shell-excerpt.js';
import { OTHER_SHELLS, READ_SHELLS, SUBCOMMAND_RUNNERS } from './shell-runners.js';
import type { ExpandedCommand, Redirect, ShellWord } from './shell-syntax.js';
import type { SplitWords } from './unwrap-command.js';

// The programs that run other commands in a way of their own (shells, eval, trap, git,
// xargs, parallel, find -exec, subcommand runners), read for `expandCommands`.

/** Where a simple command stands in its line. */
export interface Place {
  readonly pipeline: number;
  readonly stage: number;
  readonly within: readonly number[];
  readonly inFunction?: string;
  readonly redirects: readonly Redirect[];
}

/** What a runner passes on to the command it starts. */
export interface RunContext {
  readonly prefix: readonly string[];
  readonly depth: number;
  readonly chdir: boolean;
  readonly argsFrom?: string;
  /** Words it replaces with what it reads (`{}` of `find -exec`, xargs `-I`). */
  readonly placeholder?: { readonly test: (value: string) => boolean; readonly reason: string };
}

/** A part that needs a person's look (the command itself is still shown). */
export const ask = (reason: string): OpaquePart => ({ reason });
/** A part that may hide what runs. */
export const hide = (reason: string): OpaquePart => ({ reason, hidesCommand: true });

/** What the special programs need of the expander that reads the whole line. */
export interface ExpanderHost {
  /** What cannot be read, with why. */
  readonly opaque: OpaquePart[];
  /** git aliases seen so far in the line (`git -c alias.x=…`). */
  readonly aliases: Map<string, string>;
  /** Plain words of a text, or why it is more than that. */
  readonly split: SplitWords;
  /** Reads a command line, one level deeper. */
  line(text: string, ctx: RunContext, outer?: Place): void;
  /** Records one command at its place. */
  emit(
    place: Place,
    ctx: RunContext,
    parts: Pick<ExpandedCommand, 'program' | 'args'> & Partial<ExpandedCommand>,
  ): void;
  /** Reads shell code a runner runs. */
  code(code: ShellWord, place: Place, ctx: RunContext, runner: string): void;
  /** Reads one command, taking its runners and wrappers apart. */
  run(words: readonly ShellWord[], place: Place, ctx: RunContext): void;
}

/** Programs that run commands in their own way; 'done' when handled, else what runs next. */
export function expandSpecialPrograms(
  host: ExpanderHost,
  base: string,
  program: string,
  args: readonly ShellWord[],
  place: Place,
  ctx: RunContext,
): 'done' | { words: readonly ShellWord[]; ctx: RunContext } | undefined {
  const emit = (extra: Partial<ExpandedCommand> = {}): 'done' => {
    host.emit(place, ctx, { program, args, ...extra });
    return 'done';
  };
  const inner = { ...place, redirects: [] };
  if (READ_SHELLS.has(base) || OTHER_SHELLS.has(base))
    return expandShell(host, base, program, args, place, ctx);
  switch (base) {
    case 'eval': {
      emit({ key: 'eval' });
      host.opaque.push(ask('eval runs its arguments as shell code'));
      const hidden = args.find((word) => word.value === undefined);
      const code = hidden ?? { source: '', value: args.map((word) => word.value).join(' ') };
      host.code(code, place, ctx, 'eval');
      return 'done';
    }
    case 'source':
    case '.': {
      const file = args[0];
      if (file !== undefined && file.value === undefined) {
        host.opaque.push(hide(`${base} runs shell code from ${file.opaque}`));
      }
      return emit();
    }
    case 'trap': {
      const [action, ...signals] = args[0]?.value === '--' ? args.slice(1) : args;
      if (
        action === undefined ||
        signals.length === 0 ||
        ['-l', '-p'].includes(action.value ?? '')
      ) {
        return emit();
      }
      emit();
      if (action.value === '' || action.value === '-') return 'done';
      host.opaque.push(ask(`trap runs ${excerpt(action.source)} when the shell gets a signal`));
      host.code(action, place, ctx, 'trap');
      return 'done';
    }
    case 'git': {
      const reading = readGitCommand(args, host.aliases, host.split);
      host.opaque.push(...reading.opaque);
      host.emit(place, ctx, { program, args: reading.args });
      for (const code of reading.code) {
        host.opaque.push(ask(`git runs the command ${excerpt(code.source)}`));
        host.code(code, inner, ctx, 'git');
      }
      for (const target of reading.targets) host.run(target, inner, ctx);
      return 'done';
    }
    case 'xargs':
      return expandXargs(host, args, place, ctx);
    case 'parallel':
      return expandParallel(host, args, place, ctx);
    case 'find':
    case 'fd':
    case 'fdfind':
      emit();
      for (const group of base === 'find' ? findExecs(args) : fdExecs(args)) {
        if (typeof group === 'string') {
          host.opaque.push(hide(group));
          continue;
        }
        const runner = `${base} ${group.flag}`;
        host.opaque.push(
          ask(
            `${runner} runs ${excerpt(group.words[0]?.source ?? '')} with the names of the files it finds`,
          ),
        );
        host.run(group.words, inner, {
          ...ctx,
          argsFrom: runner,
          placeholder: {
            test: (value) => value.includes('{') && value.includes('}'),
            reason: `which ${base} replaces with a file name`,
          },
        });
      }
      return 'done';
    default:
      break;
  }
  const subcommands = SUBCOMMAND_RUNNERS.get(base);
  const sub = args[0]?.value;
  if (subcommands !== undefined && sub !== undefined && subcommands.includes(sub)) {
    let rest = args.slice(1);
    if (rest[0]?.value === '--') rest = rest.slice(1);
    else if (rest[0] !== undefined && (rest[0].value ?? '-').startsWith('-')) {
      host.opaque.push(hide(`cannot tell what ${base} ${sub} runs past ${rest[0].source}`));
      return emit();
    }
    if (rest.length > 0)
      return { words: rest, ctx: { ...ctx, prefix: [...ctx.prefix, `${base} ${sub}`] } };
  }
  return undefined;
}

function expandShell(
  host: ExpanderHost,
  base: string,
  program: string,
  args: readonly ShellWord[],
  place: Place,
  ctx: RunContext,
): 'done' {
  const read = readShellArgs(args);
  const emit = (key?: string): void =>
    host.emit(place, ctx, { program, args, ...(key === undefined ? {} : { key }) });
  if (read.code !== undefined) {
    emit(`${program} -c`);
    // Code for another shell is read as sh's for what it can show, but not trusted.
    if (OTHER_SHELLS.has(base)) {
      host.opaque.push(
        hide(`code for ${base} is read as sh's, which it may not be: ${excerpt(read.code.source)}`),
      );
    }
    host.code(read.code, place, ctx, `${base} -c`);
    return 'done';
  }
  emit();
  if (read.script !== undefined) {
    if (read.script.value === undefined) {
      host.opaque.push(hide(`${base} runs the script ${read.script.opaque}`));
    }
    return 'done';
  }
  const inputs = place.redirects.filter(
    (r) => r.input !== undefined || r.op === '<' || r.op === '<&',
  );
  const input = inputs.length === 1 ? inputs[0]?.input : undefined;
  if (input?.value !== undefined && READ_SHELLS.has(base)) {
    host.line(input.value, { ...ctx, depth: ctx.depth + 1 }, { ...place, redirects: [] });
  } else {
    host.opaque.push(hide(`${base} reads commands from its input`));
  }
  return 'done';
}

function expandXargs(
  host: ExpanderHost,
  args: readonly ShellWord[],
  place: Place,
  ctx: RunContext,
): 'done' | { words: readonly ShellWord[]; ctx: RunContext } {
  const read = readXargs(args);
  if ('problem' in read) {
    host.opaque.push(hide(`cannot tell what xargs runs: ${read.problem}`));
    host.emit(place, ctx, { program: 'xargs', args });
    return 'done';
  }
  const { words, token } = read;
  host.opaque.push(
    ask(`xargs runs ${excerpt(words[0]?.source ?? '')} with arguments it reads from its input`),
  );
  return {
    words,
    ctx: {
      ...ctx,
      prefix: [...ctx.prefix, 'xargs'],
      argsFrom: 'xargs',
      ...(token === undefined
        ? {}
        : {
            placeholder: {
              test: (value: string) => value.includes(token),
              reason: 'which xargs replaces with what it reads',
            },
          }),
    },
  };
}

function expandParallel(
  host: ExpanderHost,
  args: readonly ShellWord[],
  place: Place,
  ctx: RunContext,
): 'done' {
  host.emit(place, ctx, { program: 'parallel', args });
  const read = readParallel(args);
  if ('problem' in read) {
    host.opaque.push(hide(`cannot tell what parallel runs: ${read.problem}`));
    return 'done';
  }
  const { words } = read;
  if (words.length === 0) {
    host.opaque.push(hide('parallel runs commands it reads from its input'));
    return 'done';
  }
  host.opaque.push(ask('parallel runs a command for each input it reads'));
  const hidden = words.find((word) => word.value === undefined);
  const code = hidden ?? { source: '', value: words.map((word) => word.value).join(' ') };
  host.code(
    code,
    place,
    {
      ...ctx,
      prefix: [...ctx.prefix, 'parallel'],
      argsFrom: 'parallel',
      placeholder: {
        test: (value) => value.includes('{') && value.includes('}'),
        reason: 'which parallel replaces with what it reads',
      },
    },
    'parallel',
  );
  return 'done';
}
