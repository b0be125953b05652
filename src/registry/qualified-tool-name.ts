/**
 * What joins an origin's name and a tool's name on that origin into one name: a gateway
 * offers `github`'s and `gitlab`'s `search` as `github__search` and `gitlab__search`, and a
 * policy rule may name a tool so whatever it is offered as. Two underscores, since server
 * names may contain one.
 */
export const TOOL_NAME_SEPARATOR = '__';

/** `<origin>__<name>`: a tool's name qualified by its origin's (see {@link TOOL_NAME_SEPARATOR}). */
export function qualifiedToolName(origin: string, name: string): string {
  return `${origin}${TOOL_NAME_SEPARATOR}${name}`;
}
