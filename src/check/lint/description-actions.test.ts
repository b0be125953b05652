import { describe, expect, it } from 'vitest';
import { destructiveDescriptionVerbs } from './description-actions.js';

describe('destructiveDescriptionVerbs', () => {
  it.each([
    ['Deletes the file at the given path.', ['delete']],
    ['Delete a branch and overwrite its ref.', ['delete', 'overwrite']],
    ['Kills the process with the given pid', ['kill']],
    ['Use it to remove stale entries', ['remove']],
    ['Erasing a volume is final', ['erase']],
    ['It wipes the cache, then purges the queue.', ['purge', 'wipe']],
  ])('finds what %j says the tool does', (description, verbs) => {
    expect(destructiveDescriptionVerbs(description)).toEqual(verbs);
  });

  it.each([
    'Lists deleted files in the trash.',
    'HTML is converted to text (scripts and tags removed).',
    'Reads a file. Never deletes or modifies anything.',
    'Shows the diff without removing anything.',
    "Doesn't delete the branch.",
    'Does not permanently delete anything',
    'To delete a file, use delete_file.',
    'See deleteFile for removal.',
    'Long output is truncated; the list is cleared between pages.',
    'A drop-in replacement for cat.',
    'The index of the deletion marker.',
  ])('finds nothing in %j', (description) => {
    expect(destructiveDescriptionVerbs(description)).toEqual([]);
  });
});
