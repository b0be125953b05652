/**
 * The environment variables a stdio server inherits from the process that starts it, as the
 * MCP SDK's `StdioClientTransport` passes them (its `DEFAULT_INHERITED_ENV_VARS`): enough
 * to find programs and the user's home, nothing else of the parent's environment.
 *
 * Kept here rather than imported from the SDK's stdio module, which loads the SDK's protocol
 * code and its schema library (about 0.1 s) before it can be used: the gateway starts its
 * stdio servers before it loads the rest of itself (see `spawnStdioServerEarly`), and that
 * import delayed every server's start by as much. A test holds the list to the SDK's.
 */
export function inheritedEnvVars(platform: NodeJS.Platform): readonly string[] {
  return platform === 'win32'
    ? [
        'APPDATA',
        'COMSPEC',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PATHEXT',
        'PROCESSOR_ARCHITECTURE',
        'PROGRAMDATA',
        'PROGRAMFILES',
        'PROGRAMFILES(X86)',
        'PROGRAMW6432',
        'SYSTEMDRIVE',
        'SYSTEMROOT',
        'TEMP',
        'USERNAME',
        'USERPROFILE',
        'WINDIR',
      ]
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];
}

const INHERITED = inheritedEnvVars(process.platform);

/**
 * The part of `env` a stdio server inherits, as the SDK's `getDefaultEnvironment` makes it:
 * the variables of {@link inheritedEnvVars} that are set, except values starting with `()`
 * (exported shell functions, a known injection vector).
 */
export function defaultEnvironment(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const key of INHERITED) {
    const value = env[key];
    if (value === undefined || value.startsWith('()')) continue;
    inherited[key] = value;
  }
  return inherited;
}
