import { type OptionSpec, scanOptions } from './scan-options.js';
import type { ShellWord } from './shell-syntax.js';

const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

const XARGS: OptionSpec = {
  flags: [
    '-0',
    '--null',
    '-o',
    '--open-tty',
    '-p',
    '--interactive',
    '-r',
    '--no-run-if-empty',
    '-t',
    '--verbose',
    '-x',
    '--exit',
    '--show-limits',
  ],
  values: [
    '-a',
    '--arg-file',
    '-d',
    '--delimiter',
    '-E',
    '-I',
    '-L',
    '--max-lines',
    '-n',
    '--max-args',
    '-P',
    '--max-procs',
    '-s',
    '--max-chars',
    '--process-slot-var',
  ],
  optional: ['-e', '--eof', '-i', '--replace', '-l'],
};
const PARALLEL: OptionSpec = {
  flags: (
    '-0 --null -k --keep-order -u --ungroup --group --line-buffer --lb -q --quote -r ' +
    '--no-run-if-empty -X -m --dry-run --dryrun -v -t --verbose --will-cite --shuf --link ' +
    '--plus --fg --bg --eta --bar --progress --tag --pipe --cleanup --transfer --compress -g --halt-on-error'
  ).split(' '),
  values: (
    '-j --jobs -P --max-procs -S --sshlogin --sshloginfile -a --arg-file -d --delimiter -I -E ' +
    '-n --max-args -N -L --max-lines --colsep -C --halt --joblog --results --res --tmpdir ' +
    '--timeout --delay --retries --env --workdir --wd --tagstring -s --max-chars --memfree ' +
    '--load --nice --block --recstart --recend --header --sshdelay --basefile --bf --return --id'
  ).split(' '),
};
const ARG_SEPARATORS = new Set([':::', '::::', ':::+', '::::+']);

/** What a shell's arguments say it runs: `-c` code, a script, or its input. */
export const readShellArgs = (
  args: readonly ShellWord[],
): { code?: ShellWord; script?: ShellWord } => {
  let inline = false;
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] as ShellWord;
    const text = word.value;
    // An expanded word is taken as the code or script it stands where: either way unread.
    if (text === undefined) return inline ? { code: word } : { script: word };
    if (text === '--' || text === '-') {
      const next = args[i + 1];
      if (next === undefined || text === '-') return {};
      return inline ? { code: next } : { script: next };
    }
    if (text.startsWith('--')) {
      if (text === '--rcfile' || text === '--init-file') i += 1;
    } else if (/^[-+][A-Za-z]+$/.test(text)) {
      if (text.startsWith('-') && text.includes('c')) inline = true;
      if (text.startsWith('-') && text.includes('s')) return {};
      if (text.endsWith('o') || text.endsWith('O')) i += 1;
    } else {
      return inline ? { code: word } : { script: word };
    }
  }
  return {};
};

/** The command a `find -exec` or `fd -x` runs, or why it cannot be told. */
export type ExecGroup = { flag: string; words: readonly ShellWord[] } | string;

/** Commands `find` runs per file: the words after `-exec` up to `;` or `+`. */
export const findExecs = (args: readonly ShellWord[]): ExecGroup[] => {
  const groups: ExecGroup[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const flag = args[i]?.value ?? '';
    if (!FIND_EXEC.has(flag)) continue;
    let end = i + 1;
    while (end < args.length && args[end]?.value !== ';' && args[end]?.value !== '+') end += 1;
    groups.push({ flag, words: args.slice(i + 1, end) });
    i = end;
  }
  return groups;
};

/** The command of `fd -x`/`--exec`/`-X`/`--exec-batch`: the words after it up to `;`. */
export const fdExecs = (args: readonly ShellWord[]): ExecGroup[] => {
  for (let i = 0; i < args.length; i += 1) {
    const text = args[i]?.value ?? '';
    let flag: string | undefined;
    let first: ShellWord[] = [];
    if (['-x', '--exec', '-X', '--exec-batch'].includes(text)) flag = text;
    else if (text.startsWith('--exec=') || text.startsWith('--exec-batch=')) {
      flag = text.slice(0, text.indexOf('='));
      const value = text.slice(text.indexOf('=') + 1);
      first = [{ source: value, value }];
    } else if (/^-[A-Za-z]+$/.test(text) && /[xX]/.test(text)) {
      if (!/[xX]$/.test(text)) return [`cannot tell what fd ${text} runs`];
      flag = `-${text.at(-1)}`;
    }
    if (flag === undefined) continue;
    let end = i + 1;
    while (end < args.length && args[end]?.value !== ';') end += 1;
    return [{ flag, words: [...first, ...args.slice(i + 1, end)] }];
  }
  return [];
};

/** What `xargs` runs (`echo` without a command) and the string it replaces (`-I {}`). */
export const readXargs = (
  args: readonly ShellWord[],
): { problem: string } | { words: readonly ShellWord[]; token?: string } => {
  const scan = scanOptions(args, XARGS);
  if (scan.problem !== undefined) return { problem: scan.problem };
  const replace = scan.options.find((o) => ['-I', '-i', '--replace'].includes(o.name));
  const token = replace === undefined ? undefined : (replace.value?.value ?? '{}');
  const target = args.slice(scan.next);
  const words = target.length === 0 ? [{ source: 'echo', value: 'echo' }] : target;
  return token === undefined || token === '' ? { words } : { words, token };
};

/** The command words of GNU `parallel`, up to its first `:::`; none when it reads commands. */
export const readParallel = (
  args: readonly ShellWord[],
): { problem: string } | { words: readonly ShellWord[] } => {
  const scan = scanOptions(args, PARALLEL);
  if (scan.problem !== undefined) return { problem: scan.problem };
  const rest = args.slice(scan.next);
  const end = rest.findIndex((word) => ARG_SEPARATORS.has(word.value ?? ''));
  return { words: end === -1 ? rest : rest.slice(0, end) };
};
