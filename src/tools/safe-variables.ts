/**
 * Environment variables a command line may set (`LANG=C git status`, `CI=1 npm test`) and
 * still be fully understood: they change how programs format their output, not what they
 * run. Any other assignment (`GIT_*`, `LD_*`, `*_OPTIONS`, `PATH`, `PAGER`, ...) can make an
 * allowed program run something else, so a line that sets one is never allowed by a rule on
 * keys and is refused where a deny rule on keys applies.
 */
export const SAFE_VARIABLES: ReadonlySet<string> = new Set([
  'LANG',
  'LANGUAGE',
  'TZ',
  'TERM',
  'NO_COLOR',
  'FORCE_COLOR',
  'CLICOLOR',
  'CLICOLOR_FORCE',
  'COLUMNS',
  'LINES',
  'CI',
  'NODE_ENV',
  'RUST_BACKTRACE',
  'PYTHONUNBUFFERED',
  'PYTHONDONTWRITEBYTECODE',
]);

/** True for a variable of {@link SAFE_VARIABLES} or a locale variable (`LC_ALL`, `LC_CTYPE`, ...). */
export function isSafeVariable(name: string): boolean {
  return SAFE_VARIABLES.has(name) || /^LC_[A-Z]+$/.test(name);
}
