import { execFileSync } from 'node:child_process';
import { ensureCommand } from '../cli/ensure-command.test-helpers.js';

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Makes Debian's `chromium` available for the browser tests: installs it with apt-get when
 * it is missing (refreshing the package lists first when the install fails without them).
 * Resolves to why it is still missing, or undefined when it is there. The tests fail with
 * that reason rather than skip.
 */
export function ensureChromium(): string | undefined {
  const first = ensureCommand('chromium', 'chromium');
  if (first === undefined || process.getuid?.() !== 0) return first;
  try {
    execFileSync('apt-get', ['update'], {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: 300_000,
    });
  } catch (error) {
    return `${first}; apt-get update failed too: ${error instanceof Error ? error.message : String(error)}`;
  }
  return ensureCommand('chromium', 'chromium');
}
