import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createTrustStore, findToolFiles, hintgateHome } from '../discovery/index.js';
import type { CliIo } from './run-cli.js';

/** Help of `hintgate trust`. */
export const TRUST_USAGE = `Usage: hintgate trust [DIR]
       hintgate trust --revoke [DIR]
       hintgate trust --list

Trusts the tool modules of a project folder: DIR/.hintgate/tools/ (default: the current
directory) is then loaded by serve, gateway and the runtime's discovery. The trust is
remembered in ~/.hintgate/trusted-projects.json (HINTGATE_HOME moves it) with a hash of
every file under that folder: when any of them changes, the folder is held back (or asked
for on a terminal) until it is trusted again. Review the files before you trust them:
loading them runs their code with your permissions.

Options:
  --revoke      Forget the folder: its tools are held back again.
  --list        List the trusted folders.
  -h, --help    Show this help and exit.
`;

/** `hintgate trust [DIR]`: remembers a project folder's tool files as trusted. */
export async function runTrust(argv: readonly string[], io: CliIo): Promise<number> {
  let values: { revoke?: boolean; list?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: {
        revoke: { type: 'boolean' },
        list: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    io.stderr(
      `hintgate trust: ${(error as Error).message}. Run "hintgate trust --help" for usage.\n`,
    );
    return 2;
  }
  if (values.help === true) {
    io.stdout(TRUST_USAGE);
    return 0;
  }
  if (positionals.length > 1 || (values.list === true && positionals.length > 0)) {
    io.stderr(
      'hintgate trust: give at most one folder (and none with --list). Run "hintgate trust --help" for usage.\n',
    );
    return 2;
  }
  try {
    const store = createTrustStore({ home: hintgateHome(io.env ?? process.env) });
    if (values.list === true) {
      const records = await store.list();
      if (records.size === 0) io.stdout('No project folder is trusted.\n');
      for (const [folder, record] of records) {
        io.stdout(`${folder}  ${record.hash}  trusted ${record.trustedAt}\n`);
      }
      return 0;
    }
    const project = resolve(io.cwd ?? process.cwd(), positionals[0] ?? '.');
    if (values.revoke === true) {
      const known = await store.forget(project);
      io.stdout(
        known
          ? `No longer trusted: ${project}\n`
          : `${project} was not trusted; nothing to revoke.\n`,
      );
      return 0;
    }
    const directory = join(project, '.hintgate', 'tools');
    const files = await findToolFiles(directory);
    if (files === undefined) {
      io.stderr(
        `hintgate trust: ${directory} does not exist; there are no project tools to trust. Put tool modules there first (see docs/discovery.md).\n`,
      );
      return 1;
    }
    await store.trust(project, files.hash);
    io.stdout(
      `Trusted ${project} with ${files.modules.length} tool module(s): ${files.modules.map((f) => relative(directory, f)).join(', ') || 'none'} (${files.hash}).\nA change of any file under ${directory} asks again.\n`,
    );
    return 0;
  } catch (error) {
    io.stderr(`hintgate trust: ${(error as Error).message}\n`);
    return 1;
  }
}
