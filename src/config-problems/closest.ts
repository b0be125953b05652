/**
 * The candidate `word` is a near miss of, if any: a small edit away (case ignored), or a
 * prefix of it; the "did you mean" of every message about a misspelled key or value.
 */
export function closest<T extends string>(word: string, candidates: readonly T[]): T | undefined {
  const lower = word.toLowerCase();
  let best: T | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const target = candidate.toLowerCase();
    const distance = levenshtein(lower, target);
    const near =
      distance <= Math.max(1, Math.floor(Math.max(lower.length, target.length) / 3)) ||
      (lower.length >= 3 && target.startsWith(lower));
    if (near && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function levenshtein(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 8 || a.length > 64 || b.length > 64) {
    return Math.max(a.length, b.length);
  }
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
