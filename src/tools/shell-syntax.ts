import type { OpaquePart } from '../tool/index.js';

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

/** Where the walk of a line is: the pipeline stage, substitutions and function around it. */
export interface WalkContext {
  readonly pipeline?: number | undefined;
  readonly stage: number;
  readonly nested: boolean;
  readonly fn?: string;
  readonly within: readonly number[];
}

/** Statement nodes: what the walker visits as commands or holders of commands. */
export const STATEMENTS: ReadonlySet<string> = new Set([
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
export const CONTAINERS: ReadonlySet<string> = new Set([
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
export const REDIRECTS: ReadonlySet<string> = new Set([
  'file_redirect',
  'heredoc_redirect',
  'herestring_redirect',
]);
/** Words of `for` and `case` that are names or patterns, not arguments. */
export const PATTERN_WORDS: ReadonlySet<string> = new Set([
  'variable_name',
  'extglob_pattern',
  'word',
  'number',
  'raw_string',
]);

/** One command a command line runs, wrappers and runners taken apart. */
export interface ExpandedCommand {
  /** Runners kept because they change who runs it or how: `sudo`, `xargs`, `watch`. */
  readonly prefix: readonly string[];
  /** The program, a standard system path reduced to its name; '' for a bare assignment. */
  readonly program: string;
  /** Its arguments. */
  readonly args: readonly ShellWord[];
  /** Assignments of a bare assignment (`A=1`), for keys. */
  readonly assignments: readonly Assignment[];
  /** Its redirections (none for commands a runner starts). */
  readonly redirects: readonly Redirect[];
  /** Pipeline number, unique within the line. */
  readonly pipeline: number;
  /** Position in the pipeline. */
  readonly stage: number;
  /** True when a runner starts it in another directory (`env -C dir`, `sudo -D dir`). */
  readonly chdir: boolean;
  /** Ids of the substitutions it runs inside. */
  readonly within: readonly number[];
  /** The shell function whose body holds it. */
  readonly inFunction?: string;
  /** The key when it is not made from the program: `sh -c`, `eval`. */
  readonly key?: string;
  /** The runner that adds arguments it reads: `xargs`, `find -exec`, `fd -x`, `parallel`. */
  readonly argsFrom?: string;
}

/** Everything a command line runs, and what in it is not plainly understood. */
export interface ExpandedLine {
  readonly commands: readonly ExpandedCommand[];
  /** Redirections of compound commands. */
  readonly redirects: readonly Redirect[];
  /** Parts not understood; `hidesCommand` when one may run a command not in `commands`. */
  readonly opaque: readonly OpaquePart[];
  /** Shell functions the line defines. */
  readonly functions: readonly FunctionDefinition[];
}
