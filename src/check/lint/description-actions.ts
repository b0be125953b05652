/**
 * Destructive verbs looked for in descriptions, with the forms that say the tool does it
 * (`deletes`, `deleting`). Past participles are left out on purpose: "lists deleted files"
 * and "tags are removed from the text" describe data, not what the call does. So are words
 * that descriptions of harmless tools use for their output (`truncate`, `drop`, `clear`).
 */
const DESCRIPTION_FORMS: Readonly<Record<string, readonly string[]>> = {
  delete: ['delete', 'deletes', 'deleting'],
  remove: ['remove', 'removes', 'removing'],
  erase: ['erase', 'erases', 'erasing'],
  purge: ['purge', 'purges', 'purging'],
  destroy: ['destroy', 'destroys', 'destroying'],
  wipe: ['wipe', 'wipes', 'wiping'],
  unlink: ['unlink', 'unlinks', 'unlinking'],
  overwrite: ['overwrite', 'overwrites', 'overwriting'],
  shred: ['shred', 'shreds', 'shredding'],
  expunge: ['expunge', 'expunges', 'expunging'],
  uninstall: ['uninstall', 'uninstalls', 'uninstalling'],
  kill: ['kill', 'kills', 'killing'],
  terminate: ['terminate', 'terminates', 'terminating'],
};

const BASE_OF_FORM: ReadonlyMap<string, string> = new Map(
  Object.entries(DESCRIPTION_FORMS).flatMap(([base, forms]) =>
    forms.map((form) => [form, base] as const),
  ),
);

const NEGATIONS: ReadonlySet<string> = new Set([
  'not',
  'never',
  'no',
  'without',
  'cannot',
  'nor',
  'neither',
  'nothing',
  'none',
]);

/** How many words before a verb a negation still applies to ("does not permanently delete"). */
const NEGATION_REACH = 3;

const isNegation = (word: string): boolean => NEGATIONS.has(word) || word.endsWith("n't");

/**
 * The destructive verbs (base forms, sorted, once each) a description says the tool
 * performs. Words are matched whole and in lower case, one clause at a time (clauses end at
 * `.,;:!?()[]{}"` and line breaks). A verb does not count when a negation stands up to three
 * words before it in its clause ("never deletes", "without removing", "doesn't delete"), when
 * it opens its clause after `to` ("To delete a file, use delete_file": advice about another
 * tool), or when it is part of an identifier (`delete_file`, `deleteFile`).
 */
export function destructiveDescriptionVerbs(description: string): string[] {
  const found = new Set<string>();
  for (const clause of description.replaceAll('\u2019', "'").split(/[.,;:!?()[\]{}"\n]+/)) {
    const words = clause.split(/[^A-Za-z0-9_']+/).filter((word) => word !== '');
    words.forEach((raw, index) => {
      if (/[A-Z]/.test(raw.slice(1))) return;
      const base = BASE_OF_FORM.get(raw.toLowerCase());
      if (base === undefined) return;
      const before = words.slice(Math.max(0, index - NEGATION_REACH), index);
      if (before.some((word) => isNegation(word.toLowerCase()))) return;
      if (index === 1 && words[0]?.toLowerCase() === 'to') return;
      found.add(base);
    });
  }
  return [...found].sort();
}
