const MAX_EXCERPT = 60;

/**
 * A short one-line excerpt of shell text for reasons shown to people: each run of
 * whitespace becomes one space, and text past `max` characters is cut with `…`. Linear.
 */
export function excerpt(text: string, max = MAX_EXCERPT): string {
  let out = '';
  let space = false;
  for (const c of text) {
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      space = true;
      continue;
    }
    if (space && out !== '') out += ' ';
    space = false;
    if (out.length >= max) return `${out}…`;
    out += c;
  }
  return out;
}
