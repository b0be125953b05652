import { splitNameWords } from './split-name-words.js';

/** Verbs in a tool name that say it deletes or overwrites something. */
export const DESTRUCTIVE_NAME_VERBS: readonly string[] = [
  'delete',
  'del',
  'remove',
  'rm',
  'rmdir',
  'drop',
  'overwrite',
  'kill',
  'erase',
  'purge',
  'destroy',
  'truncate',
  'wipe',
  'unlink',
  'shred',
  'expunge',
  'terminate',
  'uninstall',
  'prune',
  'revoke',
  'clear',
  'reset',
  'nuke',
];

/** Verbs in a tool name that say it changes something (destructive ones aside). */
export const WRITE_NAME_VERBS: readonly string[] = [
  'set',
  'create',
  'update',
  'write',
  'put',
  'add',
  'insert',
  'move',
  'rename',
  'send',
  'run',
  'exec',
  'execute',
  'invoke',
  'edit',
  'modify',
  'patch',
  'upsert',
  'save',
  'append',
  'replace',
  'apply',
  'install',
  'upload',
  'push',
  'commit',
  'merge',
  'publish',
  'post',
];

/** Verbs in a tool name that say it only reads. */
export const READ_NAME_VERBS: readonly string[] = [
  'get',
  'list',
  'read',
  'search',
  'find',
  'show',
  'describe',
  'fetch',
  'view',
  'query',
  'stat',
  'lookup',
  'inspect',
];

/** Verbs in a tool name that say it reaches outside systems. */
export const OPEN_WORLD_NAME_VERBS: readonly string[] = [
  'fetch',
  'send',
  'post',
  'browse',
  'download',
  'upload',
  'crawl',
  'scrape',
  'email',
  'mail',
  'tweet',
  'publish',
];

/** Nouns in a tool name that say it reaches the network, unless a local verb acts on them. */
export const OPEN_WORLD_NAME_NOUNS: readonly string[] = [
  'http',
  'https',
  'url',
  'urls',
  'uri',
  'web',
  'www',
  'internet',
  'website',
  'webpage',
  'browser',
  'webhook',
  'email',
  'emails',
  'mail',
  'smtp',
  'sms',
];

/**
 * Verbs that work on a value without reaching anything (`parse_url`, `validate_email`,
 * `compose_email`): a network noun they act on is no sign of an open world.
 */
export const LOCAL_NAME_VERBS: readonly string[] = [
  'parse',
  'validate',
  'format',
  'encode',
  'decode',
  'normalize',
  'escape',
  'unescape',
  'sanitize',
  'extract',
  'split',
  'build',
  'compose',
  'draft',
  'is',
];

const CONJUNCTIONS: ReadonlySet<string> = new Set(['and', 'or', 'then']);

const KNOWN_VERBS: ReadonlySet<string> = new Set([
  ...DESTRUCTIVE_NAME_VERBS,
  ...WRITE_NAME_VERBS,
  ...READ_NAME_VERBS,
  ...OPEN_WORLD_NAME_VERBS,
  ...LOCAL_NAME_VERBS,
]);

/** What a tool name says the tool does, word by word. */
export interface NameActions {
  /** The name's words (see `splitNameWords`). */
  readonly words: readonly string[];
  /**
   * Words in verb position: the first known verb, and each known verb right after `and`,
   * `or` or `then` (`search_and_replace`, `get_or_create`).
   */
  readonly verbs: readonly string[];
  /** Verbs of {@link DESTRUCTIVE_NAME_VERBS}. */
  readonly destructive: readonly string[];
  /** Verbs of {@link WRITE_NAME_VERBS}. */
  readonly write: readonly string[];
  /** Verbs of {@link READ_NAME_VERBS}. */
  readonly read: readonly string[];
  /**
   * Verbs of {@link OPEN_WORLD_NAME_VERBS}, and words of {@link OPEN_WORLD_NAME_NOUNS}
   * anywhere in the name unless a verb is one of {@link LOCAL_NAME_VERBS}.
   */
  readonly openWorld: readonly string[];
}

/**
 * Reads what a tool name says the tool does. Only whole words count, so `download` is not
 * `own`, `listen` not `list`, `reset` not `set`, `address` not `add`. Only words in verb
 * position count as actions, so `get_workflow_run` reads a run and `list_delete_markers`
 * lists markers; a name says `delete` in `deleteFile`, `file_delete` and `rm`.
 */
export function nameActions(name: string): NameActions {
  const words = splitNameWords(name);
  const first = words.findIndex((word) => KNOWN_VERBS.has(word));
  const verbs =
    first === -1
      ? []
      : words.filter(
          (word, index) =>
            index === first ||
            (index > first && KNOWN_VERBS.has(word) && CONJUNCTIONS.has(words[index - 1] ?? '')),
        );
  const among = (list: readonly string[]) => verbs.filter((verb) => list.includes(verb));
  const local = verbs.some((verb) => LOCAL_NAME_VERBS.includes(verb));
  const nouns = local ? [] : words.filter((word) => OPEN_WORLD_NAME_NOUNS.includes(word));
  return {
    words,
    verbs,
    destructive: among(DESTRUCTIVE_NAME_VERBS),
    write: among(WRITE_NAME_VERBS),
    read: among(READ_NAME_VERBS),
    openWorld: [...new Set([...among(OPEN_WORLD_NAME_VERBS), ...nouns])],
  };
}
