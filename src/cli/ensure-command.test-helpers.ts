import { execFileSync, spawnSync } from 'node:child_process';

const onPath = (command: string): boolean =>
  spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/**
 * Makes `command` available for a test: when it is not on `PATH` and this is a Debian-like
 * system where the test runs as root, installs the Debian package `debianPackage` with
 * apt-get. Resolves to why it is still missing, or undefined when it is there.
 */
export function ensureCommand(command: string, debianPackage: string): string | undefined {
  if (onPath(command)) return undefined;
  if (process.platform !== 'linux' || process.getuid?.() !== 0 || !onPath('apt-get')) {
    return `${command} is not installed (install the ${debianPackage} package)`;
  }
  try {
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', debianPackage], {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: 300_000,
    });
  } catch (error) {
    return `apt-get install ${debianPackage} failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  return onPath(command)
    ? undefined
    : `${command} is still missing after installing ${debianPackage}`;
}
