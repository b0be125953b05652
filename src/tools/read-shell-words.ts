import type { OpaquePart } from '../tool/index.js';
import { excerpt } from './shell-excerpt.js';
import type { ShellWord, WalkContext } from './shell-syntax.js';
import {
  patternReason,
  unquote,
  unquoteDouble,
  unquoteHeredoc,
  type WordState,
} from './shell-word-text.js';
import type { SyntaxNode } from './syntax-tree.js';

/** What reading words needs from the walk of its line. */
export interface WordHost {
  /** Reports a part of the line that is not understood. */
  note(part: OpaquePart): void;
  /** Reads the commands of a `$(…)`, backquotes or `<(…)` as nested statements; returns its id. */
  substitution(node: SyntaxNode, ctx: WalkContext): number;
}

const MAX_WORD_DEPTH = 64;

/**
 * Reads words of the bash syntax tree: their value after quote removal, or the reason the
 * shell decides it (expansions, substitutions, globs, `~`, braces, `$'…'`); the substitutions
 * inside are handed to the host, to be read as commands. Recursion is bounded: a word nested
 * deeper than 64 levels is reported as hiding a command.
 */
export class ShellWordReader {
  constructor(private readonly host: WordHost) {}

  #hide(reason: string): void {
    this.host.note({ reason, hidesCommand: true });
  }

  /** Reads one word; substitutions inside it are read as nested commands. */
  word(node: SyntaxNode, ctx: WalkContext, assignment = false): ShellWord & { expands?: boolean } {
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

  /** A word known to be decided by the shell (an array value), its substitutions read. */
  opaqueWord(node: SyntaxNode, ctx: WalkContext, reason: string): ShellWord {
    this.scan(node, ctx, 0, false);
    return { source: node.text, opaque: reason };
  }

  /** The text of a here-document: as written when its delimiter is quoted, else expanded. */
  heredoc(node: SyntaxNode, ctx: WalkContext, quoted: boolean): ShellWord {
    const source = node.text;
    if (quoted) return { source, value: source };
    let reason: string | undefined;
    for (const child of node.namedChildren) {
      if (child === null || child.type === 'heredoc_content') continue;
      const word = this.word(child, ctx);
      reason ??= word.opaque ?? `${child.type} ${excerpt(child.text)}`;
    }
    if (reason !== undefined) return { source, opaque: `here-document with ${reason}` };
    const value = unquoteHeredoc(source);
    return value === undefined
      ? { source, opaque: `here-document with an expansion: ${excerpt(source)}` }
      : { source, value };
  }

  #part(node: SyntaxNode, ctx: WalkContext, state: WordState, depth: number): void {
    const fail = (reason: string): void => {
      state.opaque ??= reason;
      state.expands = true;
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
        this.scan(node, ctx, depth + 1, false, state.subs);
        return;
      case 'arithmetic_expansion':
        fail(`arithmetic expansion ${excerpt(text)}`);
        this.scan(node, ctx, depth + 1, false, state.subs);
        return;
      case 'command_substitution':
        fail(`command substitution ${excerpt(text)}`);
        state.subs.push(this.host.substitution(node, ctx));
        return;
      case 'process_substitution':
        fail(`process substitution ${excerpt(text)}`);
        state.subs.push(this.host.substitution(node, ctx));
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
        this.scan(node, ctx, depth + 1, false, state.subs);
    }
  }

  /**
   * Finds the substitutions (and, when `report`, the expansions) anywhere under `node`, for
   * parts of the line that are not arguments: `[ … ]`, arithmetic, array subscripts. The ids
   * of the substitutions go to `subs` when given (they are then part of a word).
   */
  scan(node: SyntaxNode, ctx: WalkContext, depth: number, report: boolean, subs?: number[]): void {
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
            this.host.note({ reason: `${child.type.replace('_', ' ')} ${excerpt(child.text)}` });
          }
          const id = this.host.substitution(child, ctx);
          subs?.push(id);
          break;
        }
        case 'simple_expansion':
        case 'expansion':
        case 'arithmetic_expansion':
          if (report) this.host.note({ reason: `expansion ${excerpt(child.text)}` });
          this.scan(child, ctx, depth + 1, false, subs);
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
          this.scan(child, ctx, depth + 1, report, subs);
      }
    }
  }
}
