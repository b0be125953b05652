/** A redirection of a simple command: `>`, `>>`, `2>`, `&>`, `<`, `<<` and so on. */
export interface Redirect {
  /** The operator without its file descriptor: `>`, `>>`, `>&`, `&>`, `<`, `<<`, ... */
  readonly op: string;
  /** The target word after quote removal (for `<<`, the here-document delimiter). */
  readonly target: string;
}

/** One simple command of a shell command line. */
export interface SimpleCommand {
  /** Words after quote removal: `git -C "a b" status` gives `git`, `-C`, `a b`, `status`. */
  readonly words: readonly string[];
  /** Its redirections, in order. */
  readonly redirects: readonly Redirect[];
  /** Number of the pipeline it belongs to, unique across the whole command line. */
  readonly pipeline: number;
  /** Position in its pipeline, 0 for the first stage. */
  readonly stage: number;
  /** True for commands inside `$(...)`, backquotes, `<(...)` or a here-document. */
  readonly nested: boolean;
}

type Token =
  | { readonly kind: 'word'; readonly text: string }
  | { readonly kind: 'op'; readonly op: string }
  | { readonly kind: 'redir'; readonly op: string };

const OPERATORS = ['&&', '||', ';;', '|&', '|', ';', '&', '(', ')'] as const;
const REDIRECTS = [
  '&>>',
  '&>',
  '<<<',
  '<<-',
  '<<',
  '>>',
  '>&',
  '<&',
  '>|',
  '<>',
  '>',
  '<',
] as const;
const WORD_END = new Set([' ', '\t', '\n', '|', '&', ';', '(', ')', '<', '>']);
const MAX_DEPTH = 16;

/** Index just past the `)` closing a `(` opened before `start`, skipping quotes. */
const closingParen = (s: string, start: number): number => {
  let depth = 1;
  for (let i = start; i < s.length; i += 1) {
    const c = s[i];
    if (c === '\\') i += 1;
    else if (c === "'") i = s.indexOf("'", i + 1) === -1 ? s.length : s.indexOf("'", i + 1);
    else if (c === '"') {
      for (i += 1; i < s.length && s[i] !== '"'; i += 1) if (s[i] === '\\') i += 1;
    } else if (c === '(') depth += 1;
    else if (c === ')') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return s.length;
};

/** Index of the backquote closing one opened before `start`. */
const closingBackquote = (s: string, start: number): number => {
  for (let i = start; i < s.length; i += 1) {
    if (s[i] === '\\') i += 1;
    else if (s[i] === '`') return i;
  }
  return s.length;
};

class Parser {
  /** Simple commands found so far, nested ones after their line's own. */
  readonly commands: SimpleCommand[] = [];
  #pipelines = 0;

  parse(source: string, nested: boolean, depth: number): void {
    if (depth > MAX_DEPTH) return;
    const nestedSources: string[] = [];
    const tokens = this.#lex(source, nestedSources);
    let words: string[] = [];
    let redirects: Redirect[] = [];
    let pipeline = this.#pipelines++;
    let stage = 0;
    const flush = () => {
      if (words.length > 0 || redirects.length > 0) {
        this.commands.push({ words, redirects, pipeline, stage, nested });
      }
      words = [];
      redirects = [];
    };
    for (let i = 0; i < tokens.length; i += 1) {
      const token = tokens[i] as Token;
      if (token.kind === 'word') {
        words.push(token.text);
      } else if (token.kind === 'redir') {
        const next = tokens[i + 1];
        const target = next?.kind === 'word' ? next.text : '';
        if (next?.kind === 'word') i += 1;
        redirects.push({ op: token.op, target });
      } else if (token.op === '|' || token.op === '|&') {
        flush();
        stage += 1;
      } else {
        flush();
        pipeline = this.#pipelines++;
        stage = 0;
      }
    }
    flush();
    for (const inner of nestedSources) this.parse(inner, true, depth + 1);
  }

  #lex(s: string, nested: string[]): Token[] {
    const tokens: Token[] = [];
    const heredocs: { delimiter: string; strip: boolean; expands: boolean }[] = [];
    let i = 0;
    while (i < s.length) {
      const c = s[i] as string;
      if (c === ' ' || c === '\t') {
        i += 1;
      } else if (c === '\\' && s[i + 1] === '\n') {
        i += 2;
      } else if (c === '#') {
        while (i < s.length && s[i] !== '\n') i += 1;
      } else if (c === '\n') {
        tokens.push({ kind: 'op', op: ';' });
        i += 1;
        for (const doc of heredocs.splice(0)) i = this.#skipHeredoc(s, i, doc, nested);
      } else if ((c === '<' || c === '>') && s[i + 1] === '(') {
        const end = closingParen(s, i + 2);
        nested.push(s.slice(i + 2, end - 1));
        tokens.push({ kind: 'word', text: s.slice(i, end) });
        i = end;
      } else {
        const fd = /^\d*/.exec(s.slice(i, i + 4))?.[0] ?? '';
        const redirect = REDIRECTS.find((op) => s.startsWith(op, i + fd.length));
        if (redirect !== undefined && (fd === '' || /[<>]/.test(s[i + fd.length] ?? ''))) {
          tokens.push({ kind: 'redir', op: redirect });
          i += fd.length + redirect.length;
          if (redirect === '<<' || redirect === '<<-') {
            while (s[i] === ' ' || s[i] === '\t') i += 1;
            const start = i;
            const word = this.#word(s, i, []);
            heredocs.push({
              delimiter: word.text,
              strip: redirect === '<<-',
              expands: !/['"\\]/.test(s.slice(start, word.end)),
            });
          }
          continue;
        }
        const op = OPERATORS.find((candidate) => s.startsWith(candidate, i));
        if (op !== undefined) {
          tokens.push({ kind: 'op', op });
          i += op.length;
          continue;
        }
        const word = this.#word(s, i, nested);
        tokens.push({ kind: 'word', text: word.text });
        i = word.end;
      }
    }
    return tokens;
  }

  /** Reads one word from `start`; substitutions it holds go to `nested`. */
  #word(s: string, start: number, nested: string[]): { text: string; end: number } {
    let text = '';
    let i = start;
    const dollar = (inQuotes: boolean): void => {
      const next = s[i + 1];
      if (s.startsWith('$((', i)) {
        const end = closingParen(s, i + 2);
        text += s.slice(i, end);
        i = end;
      } else if (next === '(') {
        const end = closingParen(s, i + 2);
        nested.push(s.slice(i + 2, end - 1));
        text += s.slice(i, end);
        i = end;
      } else if (next === '{') {
        const end = s.indexOf('}', i) === -1 ? s.length : s.indexOf('}', i) + 1;
        text += s.slice(i, end);
        i = end;
      } else if (next !== undefined && /[\w@*#?$!-]/.test(next)) {
        const name = /^[A-Za-z_]\w*|^./.exec(s.slice(i + 1))?.[0] ?? '';
        text += `$${name}`;
        i += 1 + name.length;
      } else if (next === "'" && !inQuotes) {
        let end = i + 2;
        while (end < s.length && s[end] !== "'") end += s[end] === '\\' ? 2 : 1;
        text += s.slice(i + 2, end);
        i = end + 1;
      } else {
        text += '$';
        i += 1;
      }
    };
    const backquote = (): void => {
      const end = closingBackquote(s, i + 1);
      nested.push(s.slice(i + 1, end).replaceAll('\\`', '`'));
      text += s.slice(i, end + 1);
      i = end + 1;
    };
    while (i < s.length && !WORD_END.has(s[i] as string)) {
      const c = s[i] as string;
      if (c === "'") {
        const end = s.indexOf("'", i + 1) === -1 ? s.length : s.indexOf("'", i + 1);
        text += s.slice(i + 1, end);
        i = end + 1;
      } else if (c === '"') {
        i += 1;
        while (i < s.length && s[i] !== '"') {
          const q = s[i] as string;
          if (q === '\\' && '$`"\\\n'.includes(s[i + 1] ?? '')) {
            text += s[i + 1] === '\n' ? '' : s[i + 1];
            i += 2;
          } else if (q === '$') dollar(true);
          else if (q === '`') backquote();
          else {
            text += q;
            i += 1;
          }
        }
        i += 1;
      } else if (c === '\\') {
        // A backslash-newline is a line continuation and vanishes, even inside a word.
        if (s[i + 1] !== '\n') text += s[i + 1] ?? '';
        i += 2;
      } else if (c === '$') {
        dollar(false);
      } else if (c === '`') {
        backquote();
      } else {
        text += c;
        i += 1;
      }
    }
    return { text, end: Math.min(i, s.length) };
  }

  /** Skips a here-document body from `start`; an unquoted one may run substitutions. */
  #skipHeredoc(
    s: string,
    start: number,
    doc: { delimiter: string; strip: boolean; expands: boolean },
    nested: string[],
  ): number {
    let i = start;
    while (i < s.length) {
      const eol = s.indexOf('\n', i) === -1 ? s.length : s.indexOf('\n', i);
      const line = s.slice(i, eol);
      if ((doc.strip ? line.replace(/^\t+/, '') : line) === doc.delimiter) return eol + 1;
      if (doc.expands && /\$\(|`/.test(line))
        this.#word(`"${line.replaceAll('"', '\\"')}"`, 0, nested);
      i = eol + 1;
    }
    return s.length;
  }
}

/**
 * Splits a POSIX shell command line into its simple commands, in order, with quotes
 * removed, redirections set apart, pipelines numbered, and the commands inside command and
 * process substitutions and expanding here-documents appended (marked `nested`). A best-
 * effort reading for approval keys and the safety gate, not a full shell grammar: keywords
 * (`if`, `do`, ...) stay words, and an unterminated quote runs to the end.
 */
export function parseShellCommand(command: string): SimpleCommand[] {
  const parser = new Parser();
  parser.parse(command, false, 0);
  return parser.commands;
}
