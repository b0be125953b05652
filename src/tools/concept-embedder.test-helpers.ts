import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Concepts of a small hand-made embedding space, each a list of word stems that mean about
 * the same here. A text's vector counts the words that start with a stem of each concept.
 */
export const CONCEPTS: readonly (readonly string[])[] = [
  ['simultaneous', 'concurren', 'parallel', 'overlap', 'meanwhile'],
  ['order', 'sequen', 'serial', 'wait'],
  ['approv', 'consent', 'permission', 'confirm', 'ask'],
  ['network', 'internet', 'http', 'url', 'fetch', 'dns', 'address'],
  ['file', 'disk', 'path', 'director', 'folder'],
  ['secret', 'token', 'password', 'credential'],
  ['error', 'fail', 'problem', 'wrong'],
];

/**
 * A deterministic embedder over {@link CONCEPTS}: a real embedding function (texts to
 * vectors, closer vectors for texts about the same things), small enough to reason about in
 * a test. Records every batch it was given.
 */
export function conceptEmbedder(): {
  readonly embed: (texts: readonly string[]) => number[][];
  readonly batches: string[][];
} {
  const batches: string[][] = [];
  return {
    batches,
    embed: (texts) => {
      batches.push([...texts]);
      return texts.map((text) => {
        const vector = CONCEPTS.map(() => 0);
        for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
          for (const [index, stems] of CONCEPTS.entries()) {
            if (stems.some((stem) => word.startsWith(stem)))
              vector[index] = (vector[index] ?? 0) + 1;
          }
        }
        return vector;
      });
    },
  };
}

/** Copies this repository's own docs/ into `workspace`/docs: a small real corpus. */
export async function copyRepositoryDocs(workspace: string): Promise<void> {
  const docs = fileURLToPath(new URL('../../docs', import.meta.url));
  // The pages, not their images (docs/console/*.png), which the index would leave out.
  await cp(docs, join(workspace, 'docs'), {
    recursive: true,
    filter: (source) => !source.endsWith('.png'),
  });
}
