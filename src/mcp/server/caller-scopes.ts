/**
 * The scopes a call or listing runs with: the server's own (`base`, which every caller
 * holds; absent means the runtime's default) plus what the caller's token grants. Returns
 * the runtime option, `{}` when the token grants nothing more, so that the runtime's
 * default applies as before.
 */
export function callerScopes(
  base: readonly string[] | undefined,
  granted: readonly string[] | undefined,
): { readonly scopes?: readonly string[] } {
  if (granted === undefined || granted.length === 0) {
    return base === undefined ? {} : { scopes: base };
  }
  return { scopes: [...new Set([...(base ?? []), ...granted])] };
}
