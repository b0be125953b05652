/** Environment variables as `process.env` holds them. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Name of the environment variable that disables a tool: `TOOL_<NAME>_DISABLED`, where
 * `<NAME>` is the tool name upper-cased with every character outside `A-Z 0-9` replaced
 * by `_`. So `web-fetch` and `web.fetch` both map to `TOOL_WEB_FETCH_DISABLED`.
 */
export function disabledEnvVar(toolName: string): string {
  return `TOOL_${toolName.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_DISABLED`;
}

/**
 * Reads the environment once: the names of the `TOOL_<NAME>_DISABLED` variables whose value
 * is `true` (case-insensitive, surrounding whitespace ignored). Any other value, `1` and
 * `yes` included, leaves the tool enabled. Test a tool with
 * `set.has(disabledEnvVar(tool.name))`.
 */
export function readDisabledEnv(env: Env): ReadonlySet<string> {
  const disabled = new Set<string>();
  for (const [key, value] of Object.entries(env)) {
    if (
      key.startsWith('TOOL_') &&
      key.endsWith('_DISABLED') &&
      value?.trim().toLowerCase() === 'true'
    ) {
      disabled.add(key);
    }
  }
  return disabled;
}
