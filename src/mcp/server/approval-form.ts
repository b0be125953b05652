import type { ClientCapabilities, ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { argumentDigest } from '../../audit/index.js';
import {
  type ApprovalAnswer,
  type ApprovalRequest,
  approvalKeyLines,
  opaqueLines,
  showBlankRuns,
} from '../../policy/index.js';

/** The choices of the approval form, in the order a client shows them. */
export const APPROVAL_CHOICES = [
  { const: 'allow_once', title: 'Allow once' },
  { const: 'allow_session', title: 'Allow for this session' },
  { const: 'allow_always', title: 'Always allow (remembered for this project)' },
  { const: 'deny', title: 'Deny' },
] as const;

/** One value of the form's `decision` field. */
export type ApprovalChoice = (typeof APPROVAL_CHOICES)[number]['const'];

/** What a client answered to an elicitation, era aside. */
export interface ElicitationAnswer {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Longest argument text shown whole in the form (more than the longest command line): past
 * it, the start and the end are shown with a note of what is left out and the digest of the
 * arguments (the one the audit log records), never a silent cut.
 */
const MAX_ARGUMENTS_CHARS = 48_000;
/** Characters shown from the end of arguments too long to show whole. */
const TAIL_CHARS = 8_000;

/**
 * Code point ranges of C0/C1 controls (tab and newline aside), zero-width and bidi marks, and
 * blanks other than the space, which look like one but are not one to a shell.
 */
const HIDDEN_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x00, 0x08],
  [0x0b, 0x1f],
  [0x7f, 0x9f],
  [0xa0, 0xa0],
  [0xad, 0xad],
  [0x1680, 0x1680],
  [0x2000, 0x200f],
  [0x2028, 0x202f],
  [0x205f, 0x2069],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

/**
 * Escapes characters that could hide or reorder text in a client's dialog: control
 * characters, zero-width and bidirectional formatting characters.
 */
const neutralize = (text: string): string => {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    out += HIDDEN_RANGES.some(([low, high]) => code >= low && code <= high)
      ? `\\u${code.toString(16).padStart(4, '0')}`
      : char;
  }
  return out;
};

const digestOf = (args: unknown): string => {
  try {
    return argumentDigest(args);
  } catch {
    return 'unavailable';
  }
};

const argumentsText = (args: unknown): string => {
  let text: string;
  try {
    text = JSON.stringify(args, null, 2) ?? 'null';
  } catch {
    text = String(args);
  }
  text = neutralize(showBlankRuns(text));
  if (text.length <= MAX_ARGUMENTS_CHARS) return text;
  const head = MAX_ARGUMENTS_CHARS - TAIL_CHARS;
  const left = text.length - MAX_ARGUMENTS_CHARS;
  return `${text.slice(0, head)}\n... [${left} characters not shown here; the arguments' digest is ${digestOf(args)}] ...\n${text.slice(-TAIL_CHARS)}`;
};

/** Indented list lines under a heading, or nothing when the list is empty. */
const section = (heading: string, items: readonly string[]): string[] =>
  items.length === 0 ? [] : [heading, ...items.map((item) => `  - ${neutralize(item)}`)];

/** The message of the approval form: everything a person needs to judge the call. */
export function approvalMessage(request: ApprovalRequest): string {
  const trust = request.trusted ? 'trusted' : 'untrusted: its annotations are not relied on';
  const lines = [
    `Allow the tool call "${neutralize(request.tool.name)}"?`,
    '',
    `Tool: ${neutralize(request.tool.title ?? request.tool.name)} (from "${neutralize(request.origin)}", ${trust})`,
    `What it does: ${neutralize(request.tool.description)}`,
    `Class: ${request.class}${request.class === 'destructive' ? ' (may delete or overwrite; it cannot be undone)' : ''}`,
    `Why it asks: ${neutralize(request.reason)}`,
    ...section('Covers (each approval key and what already allows it):', approvalKeyLines(request)),
    ...section(
      'Not fully understood, so it can be allowed once only (read the arguments):',
      opaqueLines(request),
    ),
    'Arguments:',
    argumentsText(request.arguments),
  ];
  if (request.total > 1) lines.push('', `Approval ${request.position} of ${request.total}.`);
  return lines.join('\n');
}

/** The choices for `request`: Allow once, the ways it can be remembered, and Deny. */
function offeredChoices(request: ApprovalRequest): readonly (typeof APPROVAL_CHOICES)[number][] {
  // Requests built by hand before `remember` existed offer every choice.
  const offered: readonly string[] = Array.isArray(request.remember)
    ? request.remember
    : ['once', 'session', 'always'];
  return APPROVAL_CHOICES.filter(
    (choice) => choice.const === 'deny' || offered.includes(REMEMBER[choice.const]),
  );
}

/**
 * The form-mode elicitation that asks to approve one call: a message and one required
 * single-choice field, `decision`. The preselected choice is Deny for a destructive call.
 */
export function approvalForm(request: ApprovalRequest): ElicitRequestFormParams {
  return {
    mode: 'form',
    message: approvalMessage(request),
    requestedSchema: {
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: 'Decision',
          description: `Run ${request.tool.name} with the arguments shown?`,
          oneOf: offeredChoices(request).map((choice) => ({
            const: choice.const,
            title: choice.title,
          })),
          default: request.class === 'destructive' ? 'deny' : 'allow_once',
        },
      },
      required: ['decision'],
    },
  };
}

const REMEMBER = {
  allow_once: 'once',
  allow_session: 'session',
  allow_always: 'always',
} as const;

/**
 * Turns a client's answer to the approval form into the approver's answer: an accepted
 * allow choice allows (once, for the session or always); anything else denies, including
 * an accepted form without a recognizable decision (fail closed).
 */
export function answerFromElicitation(answer: ElicitationAnswer): ApprovalAnswer {
  if (answer.action === 'decline') {
    return { decision: 'deny', reason: 'the user declined the approval request' };
  }
  if (answer.action === 'cancel') {
    return { decision: 'deny', reason: 'the user dismissed the approval request' };
  }
  const decision = answer.content?.decision;
  if (decision === 'allow_once' || decision === 'allow_session' || decision === 'allow_always') {
    return { decision: 'allow', remember: REMEMBER[decision], reason: 'approved by the user' };
  }
  if (decision === 'deny') return { decision: 'deny', reason: 'the user denied the call' };
  return {
    decision: 'deny',
    reason: 'the approval form came back without a decision, so the call was not run',
  };
}

/**
 * Whether the client can show a form: it declared `elicitation` with `form`, or bare
 * `elicitation: {}` (the meaning before modes existed).
 */
export function supportsFormElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (elicitation === undefined || elicitation === null) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/** That a call needs approval and the client has no way to ask its user, without advice. */
export const NO_APPROVAL_CHANNEL_WHY =
  'approval is required, but the connected MCP client cannot ask its user (it declared no form elicitation capability, which both elicitation/create and input_required need)';

/** Why a call was denied when the client has no way to ask its user. */
export const NO_APPROVAL_CHANNEL = `${NO_APPROVAL_CHANNEL_WHY}; use a client that supports elicitation, or allow the call with a policy rule or mode`;
