import type { ConfigPath, ConfigProblem } from './config-problem.js';

/**
 * Problems in the order of the values they are about, as the value lists its keys and
 * items (so that, as in a file, fixing them top to bottom works); a problem about a mapping
 * or list as a whole comes after those inside it (a rule's missing `decision` after its
 * wrong `tool`), and a path the value lacks after its siblings. Equal places keep their
 * order.
 */
export function inValueOrder(problems: readonly ConfigProblem[], value: unknown): ConfigProblem[] {
  const places = new Map<ConfigProblem, number[]>();
  for (const problem of problems) places.set(problem, placeOf(problem.path, value));
  return [...problems].sort((a, b) => compare(places.get(a) ?? [], places.get(b) ?? []));
}

function placeOf(path: ConfigPath, value: unknown): number[] {
  const place: number[] = [];
  let node = value;
  for (const segment of path) {
    if (Array.isArray(node) && typeof segment === 'number') {
      place.push(segment);
      node = node[segment];
    } else if (typeof node === 'object' && node !== null) {
      const index = Object.keys(node).indexOf(String(segment));
      place.push(index === -1 ? Number.MAX_SAFE_INTEGER : index);
      node = index === -1 ? undefined : Object.getOwnPropertyDescriptor(node, segment)?.value;
    } else {
      place.push(Number.MAX_SAFE_INTEGER);
      node = undefined;
    }
  }
  return place;
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < Math.min(a.length, b.length); index += 1) {
    const difference = (a[index] as number) - (b[index] as number);
    if (difference !== 0) return difference;
  }
  // The longer path is inside the shorter one: it comes first.
  return b.length - a.length;
}
