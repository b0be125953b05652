import { relative } from 'node:path';
import type { TrustAnswer, TrustRequest } from '../discovery/index.js';
import type { Approver } from '../policy/index.js';
import { createTerminalApprover, type TerminalInput } from '../terminal/index.js';
import { SPEC_DEFAULT_HINTS } from '../tool/index.js';

/**
 * Asks a person on the terminal whether to load a project's tool modules, through the
 * terminal approver: "Allow once" loads them for this run, "Always allow" trusts the folder
 * with these files (as `hintgate trust` does), "Deny" holds them back. Deny is preselected.
 */
export function askTrustInTerminal(
  options: { readonly input?: TerminalInput; readonly output?: NodeJS.WritableStream } = {},
): (request: TrustRequest) => Promise<TrustAnswer> {
  const approver: Approver = createTerminalApprover(options);
  return async (request) => {
    const files = request.files.map((file) => relative(request.directory, file));
    const answer = await approver(
      {
        callId: 'project-trust',
        tool: {
          name: 'load project tools',
          description: `${request.directory} holds ${files.length} tool module(s): ${files.join(', ')}. Loading them runs their code with your permissions, and their tools may shadow built-in and global ones.`,
        },
        origin: request.project,
        trusted: false,
        arguments: { project: request.project, files, hash: request.hash },
        class: 'destructive',
        claimed: {},
        effective: SPEC_DEFAULT_HINTS,
        approvalKeys: [request.hash],
        reason:
          request.status === 'new'
            ? 'first run in this project folder: its tools are not trusted yet'
            : 'the tool files of this project folder changed since it was trusted',
        position: 1,
        total: 1,
        remember: ['once', 'always'],
      },
      { signal: new AbortController().signal },
    );
    if (answer.decision !== 'allow') return 'deny';
    return answer.remember === 'always' ? 'always' : 'once';
  };
}
