import type { OpaquePart } from '../tool/index.js';
import type { BashGrammar } from './load-bash-grammar.js';
import { ShellWordReader, type WordHost } from './read-shell-words.js';
import { excerpt } from './shell-excerpt.js';
import {
  type Assignment,
  CONTAINERS,
  type FunctionDefinition,
  PATTERN_WORDS,
  type ParsedShellLine,
  REDIRECTS,
  type Redirect,
  type ShellWord,
  type SimpleCommand,
  STATEMENTS,
  type WalkContext,
} from './shell-syntax.js';
import { joinWords } from './shell-word-text.js';
import { MAX_TREE_DEPTH, type SyntaxNode } from './syntax-tree.js';

/** How deep substitutions inside substitutions are read. */
const MAX_SUBSTITUTION_DEPTH = 64;

class LineReader implements WordHost {
  readonly commands: SimpleCommand[] = [];
  readonly redirects: Redirect[] = [];
  readonly opaque: OpaquePart[] = [];
  readonly #functions = new Map<string, { forks: boolean }>();
  readonly #stack: Array<{ node: SyntaxNode; ctx: WalkContext }> = [];
  /** Statements of the substitutions met in the statement being read. */
  readonly #pending: Array<{ nodes: SyntaxNode[]; ctx: WalkContext }> = [];
  #pipelines = 0;
  readonly #words = new ShellWordReader(this);

  constructor(
    private readonly source: string,
    private readonly ids: { next: number },
  ) {}

  /** True when only spaces, tabs, newlines and backslash-newlines stand between `from` and `to`. */
  #blank(from: number, to: number): boolean {
    for (let i = from; i < to; i += 1) {
      const c = this.source[i];
      if (c === '\\' && this.source[i + 1] === '\n') i += 1;
      else if (c !== ' ' && c !== '\t' && c !== '\n') return false;
    }
    return true;
  }

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

  read(root: SyntaxNode): void {
    this.#stack.push({ node: root, ctx: { stage: 0, nested: false, within: [] } });
    for (let next = this.#stack.pop(); next !== undefined; next = this.#stack.pop()) {
      this.#statement(next.node, next.ctx);
      // The substitutions met in that statement are read next, in text order.
      for (const group of this.#pending.splice(0).reverse()) this.#push(group.nodes, group.ctx);
    }
  }

  #hide(reason: string): void {
    this.opaque.push({ reason, hidesCommand: true });
  }

  note(part: OpaquePart): void {
    this.opaque.push(part);
  }

  /** Schedules statements; pushed in reverse so they are read in text order. */
  #push(nodes: readonly SyntaxNode[], ctx: WalkContext): void {
    for (let i = nodes.length - 1; i >= 0; i -= 1) {
      this.#stack.push({ node: nodes[i] as SyntaxNode, ctx });
    }
  }

  #forks(ctx: WalkContext): void {
    if (ctx.fn !== undefined) {
      const fn = this.#functions.get(ctx.fn);
      if (fn !== undefined) fn.forks = true;
    }
  }

  #statement(node: SyntaxNode, ctx: WalkContext): void {
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
          this.#stack.push({ node: stages[i] as SyntaxNode, ctx: { ...ctx, pipeline, stage: i } });
        }
        return;
      }
      case 'variable_assignment':
      case 'variable_assignments': {
        const nodes = node.type === 'variable_assignment' ? [node] : node.namedChildren;
        const assignments = nodes
          .filter((child) => child?.type === 'variable_assignment')
          .map((child) => this.#assignment(child as SyntaxNode, ctx));
        this.#emit({ assignments, words: [], redirects: [] }, ctx);
        return;
      }
      case 'declaration_command':
      case 'unset_command':
        this.#declaration(node, ctx);
        return;
      case 'test_command': {
        const bracket = node.child(0)?.type ?? '[';
        this.#words.scan(node, ctx, 0, true);
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
  #container(node: SyntaxNode, ctx: WalkContext): void {
    const statements: SyntaxNode[] = [];
    for (const child of node.children) {
      if (child === null) continue;
      if (!child.isNamed) {
        if (child.type === '&') this.#forks(ctx);
        continue;
      }
      if (STATEMENTS.has(child.type)) statements.push(child);
      else if (REDIRECTS.has(child.type)) this.#looseRedirect(child, ctx);
      else if (!PATTERN_WORDS.has(child.type)) {
        const word = this.#words.word(child, ctx);
        if (word.opaque !== undefined && word.expands) this.opaque.push({ reason: word.opaque });
      }
    }
    this.#push(statements, ctx);
  }

  #emit(parts: Pick<SimpleCommand, 'assignments' | 'words' | 'redirects'>, ctx: WalkContext): void {
    this.commands.push({
      ...parts,
      pipeline: ctx.pipeline ?? this.#pipelines++,
      stage: ctx.stage,
      nested: ctx.nested,
      ...(ctx.fn === undefined ? {} : { inFunction: ctx.fn }),
      within: ctx.within,
    });
  }

  #redirected(node: SyntaxNode, ctx: WalkContext): void {
    const body = node.childForFieldName('body');
    const redirects = node.children.filter(
      (child): child is SyntaxNode => child !== null && REDIRECTS.has(child.type),
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
  #looseRedirect(node: SyntaxNode, ctx: WalkContext): void {
    const { redirect, extra } = this.#redirect(node, ctx);
    this.redirects.push(redirect);
    if (extra.length > 0) {
      this.#hide(`words after a redirection of a compound command: ${excerpt(node.text)}`);
    }
  }

  #command(node: SyntaxNode, ctx: WalkContext, outer: readonly SyntaxNode[]): void {
    const pipeline = ctx.pipeline ?? this.#pipelines++;
    const here = { ...ctx, pipeline };
    const assignments: Assignment[] = [];
    const words: ShellWord[] = [];
    const redirects: Redirect[] = [];
    let previousEnd = -1;
    const addWord = (child: SyntaxNode, word: ShellWord): void => {
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
    const addRedirect = (child: SyntaxNode): void => {
      const { redirect, extra, extraNodes } = this.#redirect(child, here);
      redirects.push(redirect);
      // The grammar reads the words after `> file` as more targets; the shell, as arguments.
      extra.forEach((word, index) => {
        words.push(word);
        previousEnd = (extraNodes[index] as SyntaxNode).endIndex;
      });
    };
    let lastEnd = -1;
    for (const child of node.children) {
      if (child === null) continue;
      if (lastEnd >= 0 && !this.#blank(lastEnd, child.startIndex)) {
        // The grammar skips \r, \v and \f between words; the shell keeps them in the word.
        this.#hide(
          `${excerpt(node.text)} holds characters between its words that the shell does not take as blanks`,
        );
      }
      lastEnd = child.endIndex;
      if (!child.isNamed) {
        this.#hide(`unexpected ${excerpt(child.text)} in ${excerpt(node.text)}`);
      } else if (child.type === 'variable_assignment') {
        assignments.push(this.#assignment(child, here));
      } else if (REDIRECTS.has(child.type)) {
        addRedirect(child);
      } else if (child.type === 'command_name') {
        const inner = child.namedChild(0);
        addWord(child, inner === null ? { source: '', value: '' } : this.#words.word(inner, here));
      } else {
        addWord(child, this.#words.word(child, here));
      }
    }
    for (const child of outer) addRedirect(child);
    this.#emit({ assignments, words, redirects }, here);
  }

  #declaration(node: SyntaxNode, ctx: WalkContext): void {
    const assignments: Assignment[] = [];
    const words: ShellWord[] = [];
    for (const child of node.children) {
      if (child === null) continue;
      if (!child.isNamed || child.type === 'variable_name') {
        words.push({ source: child.text, value: child.text });
      } else if (child.type === 'variable_assignment') {
        assignments.push(this.#assignment(child, ctx));
      } else words.push(this.#words.word(child, ctx));
    }
    this.#emit({ assignments, words, redirects: [] }, ctx);
  }

  #assignment(node: SyntaxNode, ctx: WalkContext): Assignment {
    const name = node.childForFieldName('name');
    const value = node.childForFieldName('value');
    if (name !== null && name.type !== 'variable_name') this.#words.scan(name, ctx, 0, true);
    const operator = node.children.find((child) => child !== null && !child.isNamed)?.type ?? '=';
    const word =
      value === null
        ? { source: '', value: '' }
        : value.type === 'array'
          ? this.#words.opaqueWord(value, ctx, `array ${excerpt(value.text)}`)
          : this.#words.word(value, ctx, true);
    return {
      name: `${name?.text ?? ''}${operator === '+=' ? '+' : ''}`,
      value: word,
    };
  }

  #redirect(
    node: SyntaxNode,
    ctx: WalkContext,
  ): { redirect: Redirect; extra: ShellWord[]; extraNodes: SyntaxNode[] } {
    let op = '';
    let fd: string | undefined;
    const targets: SyntaxNode[] = [];
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
        input = this.#words.heredoc(child, ctx, quoted);
      } else if (child.type === 'heredoc_end') {
        // The delimiter line.
      } else if (node.type === 'heredoc_redirect' && child.type === 'pipeline') {
        // `cat <<EOF | sh`: the grammar hangs the rest of the line on the here-document;
        // what follows the `|` reads from this command (all of it, to err on the safe side).
        this.#push(
          child.namedChildren.filter((stage): stage is SyntaxNode => stage !== null),
          { ...ctx, stage: ctx.stage + 1 },
        );
      } else if (node.type === 'heredoc_redirect' && STATEMENTS.has(child.type)) {
        this.#push([child], { ...ctx, stage: 0, pipeline: undefined });
      } else if (node.type === 'herestring_redirect') {
        const word = this.#words.word(child, ctx);
        input = word.value === undefined ? word : { ...word, value: `${word.value}\n` };
      } else {
        targets.push(child);
      }
    }
    if (node.type === 'heredoc_redirect' && input === undefined) {
      input = { source: '', value: '' };
    }
    const words: ShellWord[] = [];
    const nodes: SyntaxNode[] = [];
    for (const target of targets) {
      const word = this.#words.word(target, ctx);
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

  /** The commands of `$(…)`, backquotes and `<(…)`, read as nested statements; returns its id. */
  substitution(node: SyntaxNode, ctx: WalkContext): number {
    const id = this.ids.next++;
    if (ctx.within.length >= MAX_SUBSTITUTION_DEPTH) {
      this.#hide(`substitutions nested more than ${MAX_SUBSTITUTION_DEPTH} deep are not read`);
      return id;
    }
    const inner: WalkContext = {
      stage: 0,
      nested: true,
      within: [...ctx.within, id],
      ...(ctx.fn === undefined ? {} : { fn: ctx.fn }),
    };
    const statements: SyntaxNode[] = [];
    for (const child of node.namedChildren) {
      if (child === null) continue;
      if (REDIRECTS.has(child.type)) this.#looseRedirect(child, inner);
      else if (STATEMENTS.has(child.type)) statements.push(child);
      else this.#words.scan(child, inner, 0, false);
    }
    this.#pending.push({ nodes: statements, ctx: inner });
    return id;
  }
}

/** The first syntax error or missing token under `root`, for a reason. */
const syntaxError = (root: SyntaxNode): string => {
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.isMissing) return `incomplete: ${JSON.stringify(node.type)} is missing`;
    if (node.isError) return `it could not be parsed as shell syntax near ${excerpt(node.text)}`;
    for (let i = node.children.length - 1; i >= 0; i -= 1)
      stack.push(node.children[i] as SyntaxNode);
  }
  return 'it could not be parsed as shell syntax';
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
  const reader = new LineReader(command, ids);
  if (tree.hasError) reader.opaque.push({ reason: syntaxError(tree.root), hidesCommand: true });
  if (tree.truncated) {
    reader.opaque.push({
      reason: `it is nested more than ${MAX_TREE_DEPTH} levels deep, past what is read`,
      hidesCommand: true,
    });
  }
  reader.read(tree.root);
  return {
    commands: reader.commands,
    redirects: reader.redirects,
    opaque: reader.opaque,
    functions: reader.functions,
  };
}
