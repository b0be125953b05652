import type { Node } from 'web-tree-sitter';
import type { OpaquePart } from '../tool/approval-keys.js';
import type { BashGrammar } from './load-bash-grammar.js';
import { excerpt } from './shell-excerpt.js';

/** One word of a command line, as written and as the program receives it. */
export interface ShellWord {
  /** The word as written, quotes included. */
  readonly source: string;
  /**
   * What the program receives, after quote removal; absent when the shell decides it at
   * run time (an expansion, a substitution, a glob, `~`), and then `opaque` says why.
   */
  readonly value?: string;
  /** Why `value` is unknown: `command substitution $(date)`, `pathname expansion (glob) *.ts`. */
  readonly opaque?: string;
  /** Ids of the command and process substitutions inside it (see `SimpleCommand.within`). */
  readonly substitutions?: readonly number[];
}

/** A redirection: `> file`, `2>&1`, `< in`, a here-document or a here-string. */
export interface Redirect {
  /** The operator: `>`, `>>`, `>|`, `&>`, `&>>`, `>&`, `<`, `<&`, `<>`, `<<`, `<<-`, `<<<`. */
  readonly op: string;
  /** The file descriptor written before the operator (`2` of `2>&1`), if any. */
  readonly fd?: string;
  /** The file or descriptor it names; absent for here-documents and here-strings. */
  readonly target?: ShellWord;
  /** For a here-document or here-string: the text the command reads. */
  readonly input?: ShellWord;
}

/** A variable assignment: `NAME=value`, before a command, alone, or after `export`. */
export interface Assignment {
  /** The name as written (`x[1]` for an array element). */
  readonly name: string;
  /** The value (an empty literal for `NAME=`). */
  readonly value: ShellWord;
}

/** One simple command: assignments, words, redirections. */
export interface SimpleCommand {
  /** Assignments before the program (or of `export`, `declare`, ... and of a bare `A=1`). */
  readonly assignments: readonly Assignment[];
  /** The program and its arguments; empty for a bare assignment or redirection. */
  readonly words: readonly ShellWord[];
  /** Its redirections, in order. */
  readonly redirects: readonly Redirect[];
  /** Number of the pipeline it belongs to, unique within the line. */
  readonly pipeline: number;
  /** Position in its pipeline, 0 for the first stage. */
  readonly stage: number;
  /** True inside a command or process substitution. */
  readonly nested: boolean;
  /** The shell function whose body it is in, if any. */
  readonly inFunction?: string;
  /** Ids of the substitutions it is inside, outermost first (empty at the top level). */
  readonly within: readonly number[];
}

/** A shell function the line defines. */
export interface FunctionDefinition {
  readonly name: string;
  /** True when its body starts processes in the background or in a pipeline. */
  readonly forks: boolean;
}

/** A command line read by the bash grammar. */
export interface ParsedShellLine {
  /** Every simple command, in the order the text gives them, substitutions included. */
  readonly commands: readonly SimpleCommand[];
  /** Redirections of compound commands (`{ a; b; } > out`) and of `$(<file)`. */
  readonly redirects: readonly Redirect[];
  /** What the line holds that is not plain commands: syntax errors, functions, loops over expansions. */
  readonly opaque: readonly OpaquePart[];
  /** Functions it defines. */
  readonly functions: readonly FunctionDefinition[];
}

interface Context {
  readonly pipeline?: number | undefined;
  readonly stage: number;
  readonly nested: boolean;
  readonly fn?: string;
  readonly within: readonly number[];
}

/** Statement nodes: what the walker visits as commands or holders of commands. */
const STATEMENTS = new Set([
  'program',
  'list',
  'pipeline',
  'command',
  'redirected_statement',
  'compound_statement',
  'subshell',
  'do_group',
  'negated_command',
  'if_statement',
  'elif_clause',
  'else_clause',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'case_statement',
  'case_item',
  'function_definition',
  'declaration_command',
  'unset_command',
  'test_command',
  'variable_assignment',
  'variable_assignments',
  'comment',
  'ERROR',
]);
/** Statements that only hold others (and words of their own: `for` lists, `case` patterns). */
const CONTAINERS = new Set([
  'program',
  'list',
  'compound_statement',
  'subshell',
  'do_group',
  'negated_command',
  'if_statement',
  'elif_clause',
  'else_clause',
  'while_statement',
  'for_statement',
  'case_statement',
  'case_item',
]);
const REDIRECTS = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);
/** Words of `for` and `case` that are names or patterns, not arguments. */
const PATTERN_WORDS = new Set(['variable_name', 'extglob_pattern', 'word', 'number', 'raw_string']);
const MAX_WORD_DEPTH = 64;

/** Characters that end an unquoted word: seen inside one, the grammar and the shell disagree. */
const BREAKS = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);

interface WordState {
  value: string;
  /** The value with quoted and escaped characters masked, for glob, `~` and brace checks. */
  shape: string;
  opaque: string | undefined;
  /** True when the opaque part is an expansion or substitution (not only a pattern). */
  expands: boolean;
  /** Ids of substitutions found inside. */
  subs: number[];
}

/** Removes backslash quoting of an unquoted word; `undefined` when the shell would expand it. */
const unquote = (text: string, state: WordState): string | undefined => {
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (c === '\\') {
      const next = text[i + 1];
      i += 1;
      if (next === undefined) {
        state.value += '\\';
        state.shape += 'x';
      } else if (next !== '\n') {
        state.value += next;
        state.shape += 'x';
      }
    } else if (c === '$' || c === '`') {
      return `unexpected ${c} in ${excerpt(text)}`;
    } else if (BREAKS.has(c)) {
      return `the word ${excerpt(text)} could not be read exactly`;
    } else {
      state.value += c;
      state.shape += c;
    }
  }
  return undefined;
};

/** Quote removal inside double quotes: `\` escapes only `$`, `` ` ``, `"`, `\` and newline. */
const unquoteDouble = (text: string, state: WordState): string | undefined => {
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
      if (next !== '\n') state.value += next;
      i += 1;
    } else if (c === '$' || c === '`') {
      return `unexpected ${c} in "${excerpt(text)}"`;
    } else {
      state.value += c;
    }
  }
  state.shape += 'x';
  return undefined;
};

/** Why a word's unquoted shape expands (glob, `~`, braces), or undefined. */
const patternReason = (shape: string, source: string): string | undefined => {
  if (shape.startsWith('~')) return `tilde expansion ${excerpt(source)}`;
  let open = -1;
  let list = false;
  for (let i = 0; i < shape.length; i += 1) {
    const c = shape[i];
    if (c === '*' || c === '?' || c === '[') return `pathname expansion (glob) ${excerpt(source)}`;
    if (c === '{') {
      open = i;
      list = false;
    } else if (open >= 0 && (c === ',' || (c === '.' && shape[i + 1] === '.'))) {
      list = true;
    } else if (c === '}' && open >= 0 && list) {
      return `brace expansion ${excerpt(source)}`;
    }
  }
  return undefined;
};

/** Two halves of a word the shell joins at a backslash-newline. */
const joinWords = (first: ShellWord, gap: string, second: ShellWord): ShellWord => {
  const source = `${first.source}${gap}${second.source}`;
  const substitutions = [...(first.substitutions ?? []), ...(second.substitutions ?? [])];
  const subs = substitutions.length === 0 ? {} : { substitutions };
  if (first.value === undefined || second.value === undefined) {
    return { source, opaque: first.opaque ?? second.opaque ?? excerpt(source), ...subs };
  }
  const value = `${first.value}${second.value}`;
  // Quoting of the halves is not kept: judge the joined text as if it were all unquoted.
  const reason = patternReason(value, source);
  return reason === undefined ? { source, value } : { source, opaque: reason };
};

class LineReader {
  readonly commands: SimpleCommand[] = [];
  readonly redirects: Redirect[] = [];
  readonly opaque: OpaquePart[] = [];
  readonly #functions = new Map<string, { forks: boolean }>();
  readonly #stack: Array<{ node: Node; ctx: Context }> = [];
  #pipelines = 0;

  constructor(
    private readonly source: string,
    private readonly ids: { next: number },
  ) {}

  /** True when only backslash-newlines stand between `from` and `to`: the shell joins the words. */
  #continued(from: number, to: number): boolean {
    if (from < 0 || to <= from || (to - from) % 2 !== 0) return false;
    for (let i = from; i < to; i += 2) {
      if (this.source[i] !== '\\' || this.source[i + 1] !== '\n') return false;
    }
    return true;
  }

  get functions(): FunctionDefinition[] {
    return [...this.#functions].map(([name, { forks }]) => ({ name, forks }));
  }

  read(root: Node): void {
    this.#stack.push({ node: root, ctx: { stage: 0, nested: false, within: [] } });
    for (let next = this.#stack.pop(); next !== undefined; next = this.#stack.pop()) {
      this.#statement(next.node, next.ctx);
    }
  }

  #hide(reason: string): void {
    this.opaque.push({ reason, hidesCommand: true });
  }

  /** Schedules statements; pushed in reverse so they are read in text order. */
  #push(nodes: readonly Node[], ctx: Context): void {
    for (let i = nodes.length - 1; i >= 0; i -= 1) {
      this.#stack.push({ node: nodes[i] as Node, ctx });
    }
  }

  #forks(ctx: Context): void {
    if (ctx.fn !== undefined) {
      const fn = this.#functions.get(ctx.fn);
      if (fn !== undefined) fn.forks = true;
    }
  }

  #statement(node: Node, ctx: Context): void {
    switch (node.type) {
      case 'comment':
        return;
      case 'command':
        this.#command(node, ctx, []);
        return;
      case 'redirected_statement':
        this.#redirected(node, ctx);
        return;
      case 'pipeline': {
        this.#forks(ctx);
        const pipeline = this.#pipelines++;
        const stages = node.namedChildren.filter((child) => child !== null);
        for (let i = stages.length - 1; i >= 0; i -= 1) {
          this.#stack.push({ node: stages[i] as Node, ctx: { ...ctx, pipeline, stage: i } });
        }
        return;
      }
      case 'variable_assignment':
      case 'variable_assignments': {
        const nodes = node.type === 'variable_assignment' ? [node] : node.namedChildren;
        const assignments = nodes
          .filter((child) => child?.type === 'variable_assignment')
          .map((child) => this.#assignment(child as Node, ctx));
        this.#emit({ assignments, words: [], redirects: [] }, ctx);
        return;
      }
      case 'declaration_command':
      case 'unset_command':
        this.#declaration(node, ctx);
        return;
      case 'test_command': {
        const bracket = node.child(0)?.type ?? '[';
        this.#scan(node, ctx, 0, true);
        this.#emit(
          { assignments: [], words: [{ source: bracket, value: bracket }], redirects: [] },
          ctx,
        );
        return;
      }
      case 'function_definition': {
        const name = node.childForFieldName('name')?.text ?? '';
        this.opaque.push({
          reason: `defines the shell function ${excerpt(name)}, which runs instead of any program of that name`,
        });
        this.#functions.set(name, { forks: false });
        const body = node.childForFieldName('body');
        if (body !== null) this.#push([body], { ...ctx, fn: name });
        return;
      }
      case 'c_style_for_statement':
        this.opaque.push({ reason: `arithmetic for loop ${excerpt(node.text)}` });
        this.#container(node, ctx);
        return;
      default:
        if (CONTAINERS.has(node.type) || node.type === 'ERROR') {
          this.#container(node, ctx);
          return;
        }
        this.#hide(`unsupported shell syntax (${node.type}) ${excerpt(node.text)}`);
        this.#container(node, ctx);
    }
  }

  /** Children of a container: statements are scheduled, words checked for expansions. */
  #container(node: Node, ctx: Context): void {
    const statements: Node[] = [];
    for (const child of node.children) {
      if (child === null) continue;
      if (!child.isNamed) {
        if (child.type === '&') this.#forks(ctx);
        continue;
      }
      if (STATEMENTS.has(child.type)) statements.push(child);
      else if (REDIRECTS.has(child.type)) this.#looseRedirect(child, ctx);
      else if (!PATTERN_WORDS.has(child.type)) {
        const word = this.#word(child, ctx);
        if (word.opaque !== undefined && word.expands) this.opaque.push({ reason: word.opaque });
      }
    }
    this.#push(statements, ctx);
  }

  #emit(parts: Pick<SimpleCommand, 'assignments' | 'words' | 'redirects'>, ctx: Context): void {
    this.commands.push({
      ...parts,
      pipeline: ctx.pipeline ?? this.#pipelines++,
      stage: ctx.stage,
      nested: ctx.nested,
      ...(ctx.fn === undefined ? {} : { inFunction: ctx.fn }),
      within: ctx.within,
    });
  }

  #redirected(node: Node, ctx: Context): void {
    const body = node.childForFieldName('body');
    const redirects = node.children.filter(
      (child): child is Node => child !== null && REDIRECTS.has(child.type),
    );
    if (body?.type === 'command') {
      this.#command(body, ctx, redirects);
      return;
    }
    const pipeline = ctx.pipeline ?? this.#pipelines++;
    const inner = { ...ctx, pipeline };
    for (const redirect of redirects) this.#looseRedirect(redirect, inner);
    if (body !== null) this.#push([body], inner);
  }

  /** A redirection not attached to a simple command. */
  #looseRedirect(node: Node, ctx: Context): void {
    const { redirect, extra } = this.#redirect(node, ctx);
    this.redirects.push(redirect);
    if (extra.length > 0) {
      this.#hide(`words after a redirection of a compound command: ${excerpt(node.text)}`);
    }
  }

  #command(node: Node, ctx: Context, outer: readonly Node[]): void {
    const pipeline = ctx.pipeline ?? this.#pipelines++;
    const here = { ...ctx, pipeline };
    const assignments: Assignment[] = [];
    const words: ShellWord[] = [];
    const redirects: Redirect[] = [];
    let previousEnd = -1;
    const addWord = (child: Node, word: ShellWord): void => {
      const last = words.at(-1);
      if (last !== undefined && this.#continued(previousEnd, child.startIndex)) {
        // The grammar breaks a word at a backslash-newline; the shell joins its halves.
        words[words.length - 1] = joinWords(
          last,
          this.source.slice(previousEnd, child.startIndex),
          word,
        );
      } else {
        if (child.startIndex === previousEnd) {
          this.#hide(`the words of ${excerpt(node.text)} could not be told apart exactly`);
        }
        words.push(word);
      }
      previousEnd = child.endIndex;
    };
    const addRedirect = (child: Node): void => {
      const { redirect, extra, extraNodes } = this.#redirect(child, here);
      redirects.push(redirect);
      // The grammar reads the words after `> file` as more targets; the shell, as arguments.
      extra.forEach((word, index) => {
        words.push(word);
        previousEnd = (extraNodes[index] as Node).endIndex;
      });
    };
    for (const child of node.children) {
      if (child === null) continue;
      if (!child.isNamed) {
        this.#hide(`unexpected ${excerpt(child.text)} in ${excerpt(node.text)}`);
      } else if (child.type === 'variable_assignment') {
        assignments.push(this.#assignment(child, here));
      } else if (REDIRECTS.has(child.type)) {
        addRedirect(child);
      } else if (child.type === 'command_name') {
        const inner = child.namedChild(0);
        addWord(child, inner === null ? { source: '', value: '' } : this.#word(inner, here));
      } else {
        addWord(child, this.#word(child, here));
      }
    }
    for (const child of outer) addRedirect(child);
    this.#emit({ assignments, words, redirects }, here);
  }

  #declaration(node: Node, ctx: Context): void {
    const assignments: Assignment[] = [];
    const words: ShellWord[] = [];
    for (const child of node.children) {
      if (child === null) continue;
      if (!child.isNamed) words.push({ source: child.text, value: child.text });
      else if (child.type === 'variable_assignment') assignments.push(this.#assignment(child, ctx));
      else words.push(this.#word(child, ctx));
    }
    this.#emit({ assignments, words, redirects: [] }, ctx);
  }

  #assignment(node: Node, ctx: Context): Assignment {
    const name = node.childForFieldName('name');
    const value = node.childForFieldName('value');
    if (name !== null && name.type !== 'variable_name') this.#scan(name, ctx, 0, true);
    const operator = node.children.find((child) => child !== null && !child.isNamed)?.type ?? '=';
    const word =
      value === null
        ? { source: '', value: '' }
        : value.type === 'array'
          ? this.#opaqueWord(value, ctx, `array ${excerpt(value.text)}`)
          : this.#word(value, ctx, true);
    return {
      name: `${name?.text ?? ''}${operator === '+=' ? '+' : ''}`,
      value: word,
    };
  }

  #redirect(
    node: Node,
    ctx: Context,
  ): { redirect: Redirect; extra: ShellWord[]; extraNodes: Node[] } {
    let op = '';
    let fd: string | undefined;
    const targets: Node[] = [];
    let input: ShellWord | undefined;
    let quoted = false;
    for (const child of node.children) {
      if (child === null) continue;
      if (!child.isNamed) {
        op += child.type;
      } else if (child.type === 'file_descriptor') {
        fd = child.text;
      } else if (child.type === 'heredoc_start') {
        quoted = /['"\\]/.test(child.text);
      } else if (child.type === 'heredoc_body') {
        input = this.#heredoc(child, ctx, quoted);
      } else if (child.type === 'heredoc_end') {
        // The delimiter line.
      } else if (node.type === 'heredoc_redirect' && child.type === 'pipeline') {
        // `cat <<EOF | sh`: the grammar hangs the rest of the line on the here-document;
        // what follows the `|` reads from this command (all of it, to err on the safe side).
        this.#push(
          child.namedChildren.filter((stage): stage is Node => stage !== null),
          { ...ctx, stage: ctx.stage + 1 },
        );
      } else if (node.type === 'heredoc_redirect' && STATEMENTS.has(child.type)) {
        this.#push([child], { ...ctx, stage: 0, pipeline: undefined });
      } else if (node.type === 'herestring_redirect') {
        const word = this.#word(child, ctx);
        input = word.value === undefined ? word : { ...word, value: `${word.value}\n` };
      } else {
        targets.push(child);
      }
    }
    if (node.type === 'heredoc_redirect' && input === undefined) {
      input = { source: '', value: '' };
    }
    const words: ShellWord[] = [];
    const nodes: Node[] = [];
    for (const target of targets) {
      const word = this.#word(target, ctx);
      const last = nodes.at(-1);
      if (last !== undefined && this.#continued(last.endIndex, target.startIndex)) {
        const gap = this.source.slice(last.endIndex, target.startIndex);
        words[words.length - 1] = joinWords(words.at(-1) as ShellWord, gap, word);
        nodes[nodes.length - 1] = target;
      } else {
        words.push(word);
        nodes.push(target);
      }
    }
    const [target, ...extra] = words;
    return {
      redirect: {
        op,
        ...(fd === undefined ? {} : { fd }),
        ...(target === undefined ? {} : { target }),
        ...(input === undefined ? {} : { input }),
      },
      extra,
      extraNodes: nodes.slice(1),
    };
  }

  #heredoc(node: Node, ctx: Context, quoted: boolean): ShellWord {
    const source = node.text;
    if (quoted) return { source, value: source };
    let reason: string | undefined;
    for (const child of node.namedChildren) {
      if (child === null || child.type === 'heredoc_content') continue;
      const word = this.#word(child, ctx);
      reason ??= word.opaque ?? `${child.type} ${excerpt(child.text)}`;
    }
    if (reason !== undefined) return { source, opaque: `here-document with ${reason}` };
    let value = '';
    for (let i = 0; i < source.length; i += 1) {
      const c = source[i] as string;
      const next = source[i + 1];
      if (c === '\\' && next !== undefined && '$`\\\n'.includes(next)) {
        if (next !== '\n') value += next;
        i += 1;
      } else if (c === '$' || c === '`') {
        return { source, opaque: `here-document with an expansion: ${excerpt(source)}` };
      } else {
        value += c;
      }
    }
    return { source, value };
  }

  #opaqueWord(node: Node, ctx: Context, reason: string): ShellWord {
    this.#scan(node, ctx, 0, false);
    return { source: node.text, opaque: reason };
  }

  /** Reads one word; substitutions inside it are scheduled as nested commands. */
  #word(node: Node, ctx: Context, assignment = false): ShellWord & { expands?: boolean } {
    const state: WordState = { value: '', shape: '', opaque: undefined, expands: false, subs: [] };
    this.#part(node, ctx, state, 0);
    const source = node.text;
    const subs = state.subs.length === 0 ? {} : { substitutions: state.subs };
    if (state.opaque === undefined) {
      let shape = state.shape;
      // In an assignment `~` also expands after `:` (PATH=~/bin:~/x).
      if (assignment && shape.includes(':~')) shape = `~${shape}`;
      state.opaque = patternReason(shape, source);
    }
    return state.opaque === undefined
      ? { source, value: state.value }
      : { source, opaque: state.opaque, expands: state.expands, ...subs };
  }

  #part(node: Node, ctx: Context, state: WordState, depth: number): void {
    const fail = (reason: string, expands = true): void => {
      state.opaque ??= reason;
      if (expands) state.expands = true;
    };
    if (depth > MAX_WORD_DEPTH) {
      fail(`a word nested too deeply: ${excerpt(node.text)}`);
      this.#hide(`a word nested too deeply to read: ${excerpt(node.text)}`);
      return;
    }
    const text = node.text;
    switch (node.type) {
      case 'word':
      case 'number': {
        const reason = unquote(text, state);
        if (reason !== undefined) {
          fail(reason);
          this.#hide(reason);
        }
        return;
      }
      case 'raw_string':
        if (text.length < 2 || !text.endsWith("'")) fail(`unterminated quote ${excerpt(text)}`);
        state.value += text.slice(1, -1);
        state.shape += 'x';
        return;
      case 'string': {
        let plain = text.length >= 2 && text.endsWith('"');
        for (const child of node.children) {
          if (child === null || child.type === '"' || child.type === 'string_content') continue;
          plain = false;
          if (child.isNamed) this.#part(child, ctx, state, depth + 1);
          else fail(`unexpected ${excerpt(child.text)} in ${excerpt(text)}`);
        }
        if (!plain) {
          fail(`string ${excerpt(text)}`);
          return;
        }
        const reason = unquoteDouble(text.slice(1, -1), state);
        if (reason !== undefined) fail(reason);
        return;
      }
      case 'concatenation':
        for (const child of node.children) {
          if (child === null) continue;
          if (child.isNamed) this.#part(child, ctx, state, depth + 1);
          else fail(`unexpected ${excerpt(child.text)} in ${excerpt(text)}`);
        }
        return;
      case 'simple_expansion':
        fail(`variable ${excerpt(text)}`);
        return;
      case 'expansion':
        fail(`parameter expansion ${excerpt(text)}`);
        this.#scan(node, ctx, depth + 1, false, state.subs);
        return;
      case 'arithmetic_expansion':
        fail(`arithmetic expansion ${excerpt(text)}`);
        this.#scan(node, ctx, depth + 1, false, state.subs);
        return;
      case 'command_substitution':
        fail(`command substitution ${excerpt(text)}`);
        state.subs.push(this.#substitution(node, ctx));
        return;
      case 'process_substitution':
        fail(`process substitution ${excerpt(text)}`);
        state.subs.push(this.#substitution(node, ctx));
        return;
      case 'ansi_c_string':
        fail(`$'…' quoting, which sh and bash read differently: ${excerpt(text)}`);
        return;
      case 'translated_string':
        fail(`$"…" quoting: ${excerpt(text)}`);
        return;
      case 'brace_expression':
        fail(`brace expansion ${excerpt(text)}`);
        return;
      default:
        fail(`${node.type.replaceAll('_', ' ')} ${excerpt(text)}`);
        this.#scan(node, ctx, depth + 1, false, state.subs);
    }
  }

  /** The commands of `$(…)`, backquotes and `<(…)`, read as nested statements; returns its id. */
  #substitution(node: Node, ctx: Context): number {
    const id = this.ids.next++;
    const inner: Context = {
      stage: 0,
      nested: true,
      within: [...ctx.within, id],
      ...(ctx.fn === undefined ? {} : { fn: ctx.fn }),
    };
    const statements: Node[] = [];
    for (const child of node.namedChildren) {
      if (child === null) continue;
      if (REDIRECTS.has(child.type)) this.#looseRedirect(child, inner);
      else if (STATEMENTS.has(child.type)) statements.push(child);
      else this.#scan(child, inner, 0, false);
    }
    this.#push(statements, inner);
    return id;
  }

  /**
   * Finds the substitutions (and, when `report`, the expansions) anywhere under `node`, for
   * parts of the line that are not arguments: `[ … ]`, arithmetic, array subscripts.
   */
  #scan(node: Node, ctx: Context, depth: number, report: boolean, subs?: number[]): void {
    if (depth > MAX_WORD_DEPTH) {
      this.#hide(`syntax nested too deeply to read: ${excerpt(node.text)}`);
      return;
    }
    for (const child of node.namedChildren) {
      if (child === null) continue;
      switch (child.type) {
        case 'command_substitution':
        case 'process_substitution': {
          if (subs === undefined) {
            this.opaque.push({ reason: `${child.type.replace('_', ' ')} ${excerpt(child.text)}` });
          }
          const id = this.#substitution(child, ctx);
          subs?.push(id);
          break;
        }
        case 'simple_expansion':
        case 'expansion':
        case 'arithmetic_expansion':
          if (report) this.opaque.push({ reason: `expansion ${excerpt(child.text)}` });
          this.#scan(child, ctx, depth + 1, false, subs);
          break;
        case 'raw_string':
        case 'string_content':
        case 'word':
          // Bash evaluates array subscripts in names and arithmetic: `[[ -v 'a[$(cmd)]' ]]`.
          if (report && (child.text.includes('$(') || child.text.includes('`'))) {
            this.#hide(`bash may run the substitution inside ${excerpt(child.text)}`);
          }
          break;
        default:
          this.#scan(child, ctx, depth + 1, report, subs);
      }
    }
  }
}

/** The first syntax error or missing token under `root`, for a reason. */
const syntaxError = (root: Node): string => {
  const cursor = root.walk();
  try {
    for (;;) {
      const node = cursor.currentNode;
      if (node.isMissing) return `incomplete: ${JSON.stringify(node.type)} is missing`;
      if (node.isError) return `it could not be parsed as shell syntax near ${excerpt(node.text)}`;
      if (node.hasError && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return 'it could not be parsed as shell syntax';
      }
    }
  } finally {
    cursor.delete();
  }
};

/**
 * Reads a command line with the bash grammar (tree-sitter-bash): its simple commands in
 * text order, with quotes removed where the value is fixed and the reason where the shell
 * decides it (expansions, substitutions, globs), redirections apart, pipelines numbered, and
 * the commands of `$(…)`, backquotes, `<(…)` and expanding here-documents included (marked
 * `nested`). Syntax errors, unsupported syntax and words the grammar and the shell would read
 * differently are reported in `opaque` with `hidesCommand`, so nothing is taken on trust.
 * Linear in the length of the line; the caller caps that length.
 */
export function parseShellCommand(
  grammar: BashGrammar,
  command: string,
  ids: { next: number } = { next: 0 },
): ParsedShellLine {
  const tree = grammar.parse(command);
  try {
    const reader = new LineReader(command, ids);
    if (tree.rootNode.hasError)
      reader.opaque.push({ reason: syntaxError(tree.rootNode), hidesCommand: true });
    reader.read(tree.rootNode);
    return {
      commands: reader.commands,
      redirects: reader.redirects,
      opaque: reader.opaque,
      functions: reader.functions,
    };
  } finally {
    tree.delete();
  }
}
