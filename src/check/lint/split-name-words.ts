/**
 * Splits a tool name into lower-case words: on every character that is not an ASCII letter
 * or digit (`_`, `-`, `.`, spaces, ...) and on camelCase humps, keeping acronyms whole
 * (`fetchURL` -> `fetch`, `url`; `HTTPRequest` -> `http`, `request`). So `deleteFile`,
 * `file_delete` and `file.delete` all contain the word `delete`, while `download` does not
 * contain `own`.
 */
export function splitNameWords(name: string): string[] {
  return name
    .split(/[^A-Za-z0-9]+/)
    .flatMap((part) =>
      part
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
        .split(' '),
    )
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}
