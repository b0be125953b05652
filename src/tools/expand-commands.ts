import type { OpaquePart } from '../tool/index.js';
import { assignmentOf, DECLARATIONS } from './assignment-word.js';
import {
  ask,
  type ExpanderHost,
  expandSpecialPrograms,
  hide,
  type Place,
  type RunContext,
} from './expand-special-programs.js';
import type { BashGrammar } from './load-bash-grammar.js';
import { parseShellCommand } from './parse-shell-command.js';
import { baseName, programName } from './program-key.js';
import { isSafeVariable } from './safe-variables.js';
import { excerpt } from './shell-excerpt.js';
import { OPAQUE_RUNNERS, RUNNERS } from './shell-runners.js';
import type {
  Assignment,
  ExpandedCommand,
  ExpandedLine,
  FunctionDefinition,
  Redirect,
  ShellWord,
  SimpleCommand,
} from './shell-syntax.js';
import { type SplitWords, unwrapCommand } from './unwrap-command.js';

/** How deep shell code inside shell code (`sh -c "sh -c '…'"`) is read. */
const MAX_DEPTH = 8;
/** How many runners one command may be wrapped in (`sudo env nice timeout 5 …`). */
const MAX_UNWRAP = 32;
/** Builtins that take variable names, whose subscripts bash evaluates: `declare 'a[$(cmd)]'`. */
const NAME_BUILTINS = new Set(
  'declare typeset local readonly export printf read mapfile readarray getopts unset test [ [['.split(
    ' ',
  ),
);

class Expander implements ExpanderHost {
  readonly commands: ExpandedCommand[] = [];
  readonly redirects: Redirect[] = [];
  readonly opaque: OpaquePart[] = [];
  readonly functions: FunctionDefinition[] = [];
  readonly #ids = { next: 0 };
  readonly aliases = new Map<string, string>();
  #pipelines = 0;

  constructor(private readonly grammar: BashGrammar) {}

  /** Plain words of `text` (env -S, git aliases), or why it is more than that. */
  readonly split: SplitWords = (text) => {
    const parsed = parseShellCommand(this.grammar, text, this.#ids);
    const [only, ...more] = parsed.commands;
    if (
      only === undefined ||
      more.length > 0 ||
      parsed.opaque.length > 0 ||
      parsed.redirects.length > 0 ||
      only.redirects.length > 0
    ) {
      return `${excerpt(text)} is more than plain words`;
    }
    const words: ShellWord[] = [
      ...only.assignments.map((a) => ({
        source: `${a.name}=${a.value.source}`,
        ...(a.value.value === undefined
          ? { opaque: a.value.opaque ?? a.value.source }
          : { value: `${a.name}=${a.value.value}` }),
      })),
      ...only.words,
    ];
    const hidden = words.find((word) => word.value === undefined);
    return hidden === undefined
      ? words
      : `${hidden.opaque ?? hidden.source} is decided by the shell`;
  };

  readonly #splitEnv: SplitWords = (text) =>
    text.includes('\\')
      ? 'it holds backslash escapes, which env reads its own way'
      : this.split(text);

  line(text: string, ctx: RunContext, outer?: Place): void {
    if (ctx.depth > MAX_DEPTH) {
      this.opaque.push(hide(`shell code nested more than ${MAX_DEPTH} levels deep is not read`));
      return;
    }
    const parsed = parseShellCommand(this.grammar, text, this.#ids);
    const base = this.#pipelines;
    this.#pipelines += parsed.commands.reduce((most, c) => Math.max(most, c.pipeline + 1), 0);
    this.redirects.push(...parsed.redirects);
    this.opaque.push(...parsed.opaque);
    this.functions.push(...parsed.functions);
    for (const command of parsed.commands) this.#simple(command, base, ctx, outer);
  }

  #simple(command: SimpleCommand, base: number, ctx: RunContext, outer: Place | undefined): void {
    const inFunction = command.inFunction ?? outer?.inFunction;
    const place: Place = {
      pipeline: base + command.pipeline,
      stage: command.stage,
      within: [...(outer?.within ?? []), ...command.within],
      redirects: command.redirects,
      ...(inFunction === undefined ? {} : { inFunction }),
    };
    const assignments = [...command.assignments];
    let words = this.#placeholders(command.words, ctx);
    // The grammar reads `_=1 cmd` as the program `_=1`; to the shell it is an assignment.
    for (
      let first = words[0] && assignmentOf(words[0], 'source');
      first !== undefined;
      first = words[0] && assignmentOf(words[0], 'source')
    ) {
      assignments.push(first);
      words = words.slice(1);
    }
    if (DECLARATIONS.has(words[0]?.value ?? '')) {
      // `export _=1`: what the grammar leaves as a word is an assignment to the shell.
      for (const word of words.slice(1)) {
        const assignment = assignmentOf(word, 'source');
        if (assignment !== undefined) assignments.push(assignment);
      }
    }
    for (const assignment of assignments) this.#assignment(assignment, '');
    if (words.length === 0) {
      this.emit(place, ctx, { program: '', args: [], assignments });
      return;
    }
    this.run(words, place, ctx);
  }

  #placeholders(words: readonly ShellWord[], ctx: RunContext): readonly ShellWord[] {
    const placeholder = ctx.placeholder;
    if (placeholder === undefined) return words;
    return words.map((word) =>
      word.value !== undefined && placeholder.test(word.value)
        ? { source: word.source, opaque: `${word.source}, ${placeholder.reason}` }
        : word,
    );
  }

  #assignment(assignment: Assignment, via: string): void {
    if (!isSafeVariable(assignment.name)) {
      this.opaque.push(hide(`${via}sets ${assignment.name}, which may change what programs run`));
    }
    if (assignment.value.value === undefined) {
      this.opaque.push(
        ask(`the value of ${assignment.name} is decided by the shell: ${assignment.value.opaque}`),
      );
    }
  }

  /** Records one command at its place. */
  emit(
    place: Place,
    ctx: RunContext,
    parts: Pick<ExpandedCommand, 'program' | 'args'> & Partial<ExpandedCommand>,
  ): void {
    this.commands.push({
      prefix: ctx.prefix,
      assignments: [],
      redirects: place.redirects,
      pipeline: place.pipeline,
      stage: place.stage,
      chdir: ctx.chdir,
      within: place.within,
      ...(place.inFunction === undefined ? {} : { inFunction: place.inFunction }),
      ...(ctx.argsFrom === undefined ? {} : { argsFrom: ctx.argsFrom }),
      ...parts,
    });
  }

  /** Runs shell code a runner was given, or says why it cannot be read. */
  /** Reads shell code a runner runs, one level deeper. */
  code(code: ShellWord, place: Place, ctx: RunContext, runner: string): void {
    if (code.value === undefined) {
      this.opaque.push(hide(`${runner} runs shell code the shell decides: ${code.opaque}`));
      return;
    }
    this.line(code.value, { ...ctx, depth: ctx.depth + 1 }, { ...place, redirects: [] });
  }

  /** Reads one command, taking its runners and wrappers apart. */
  run(words: readonly ShellWord[], place: Place, start: RunContext): void {
    let ctx = start;
    let current = this.#placeholders(words, ctx);
    for (let step = 0; step < MAX_UNWRAP; step += 1) {
      const first = current[0];
      if (first === undefined) return;
      const args = current.slice(1);
      if (first.value === undefined) {
        this.opaque.push(hide(`the program is decided by the shell: ${first.opaque}`));
        this.emit(place, ctx, { program: first.source, args });
        return;
      }
      const program = programName(first.value);
      const base = baseName(first.value);
      if (step > 0 && first.value.startsWith('-')) {
        // An option where a runner's command should be: the runner was not read right.
        this.opaque.push(
          hide(`cannot tell what runs: ${excerpt(first.source)} stands where a program should`),
        );
        this.emit(place, ctx, { program, args });
        return;
      }
      const emit = (extra: Partial<ExpandedCommand> = {}): void =>
        this.emit(place, ctx, { program, args, ...extra });
      if (OPAQUE_RUNNERS.has(base)) {
        this.opaque.push(hide(`${base} runs commands in a way hintgate does not read`));
        emit();
        return;
      }
      const spec = RUNNERS.get(base);
      if (spec !== undefined) {
        const next = unwrapCommand(base, spec, args, base === 'env' ? this.#splitEnv : this.split);
        const prefix = spec.kept === true ? [...ctx.prefix, base] : ctx.prefix;
        if (next.kind === 'none') {
          emit();
          return;
        }
        if (next.kind === 'hidden') {
          this.opaque.push(hide(next.reason));
          emit();
          return;
        }
        if (next.kind === 'code') {
          if (next.code.value === undefined) emit();
          this.code(next.code, place, { ...ctx, prefix, chdir: ctx.chdir || next.chdir }, base);
          return;
        }
        for (const assignment of next.assignments) this.#assignment(assignment, `${base} `);
        if (next.asks !== undefined) this.opaque.push(ask(next.asks));
        ctx = { ...ctx, prefix, chdir: ctx.chdir || next.chdir };
        current = this.#placeholders(next.words, ctx);
        continue;
      }
      const special = expandSpecialPrograms(this, base, program, args, place, ctx);
      if (special === 'done') return;
      if (special !== undefined) {
        ctx = special.ctx;
        current = this.#placeholders(special.words, ctx);
        continue;
      }
      if (NAME_BUILTINS.has(base) && args.some((word) => /\$\(|`/.test(word.value ?? ''))) {
        this.opaque.push(hide(`bash may run the substitution in an argument of ${base}`));
      }
      emit();
      return;
    }
    this.opaque.push(hide(`more than ${MAX_UNWRAP} runners around one command`));
  }
}

/**
 * Every command a command line runs, as far as it can be told without running it: the
 * simple commands the bash grammar finds (substitutions included), with runners and
 * wrappers taken apart (`sudo env A=1 nice rm x` is `rm` with prefix `sudo`; see `RUNNERS`),
 * and the code they run read the same way: `sh -c`, `bash -c`, `eval`, `su -c`, `watch`,
 * `env -S`, `trap`, git aliases and `rebase --exec`, and the commands of `find -exec`,
 * `fd -x`, `xargs` and `parallel`, eight levels deep. What cannot be read is in `opaque`.
 */
export function expandCommands(grammar: BashGrammar, command: string): ExpandedLine {
  const expander = new Expander(grammar);
  expander.line(command, { prefix: [], depth: 0, chdir: false });
  return {
    commands: expander.commands,
    redirects: expander.redirects,
    opaque: expander.opaque,
    functions: expander.functions,
  };
}
