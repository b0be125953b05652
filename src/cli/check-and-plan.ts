import { relative } from 'node:path';
import type { CheckJson } from '../check/index.js';
import {
  createGateway,
  loadGatewayConfig,
  pinGateway,
  planGatewayTools,
  type ToolPlan,
} from '../gateway/index.js';
import type { CliIo } from './run-cli.js';

/** Options of {@link checkAndPlan}. */
export interface CheckAndPlanOptions {
  /** The gateway configuration (absolute). */
  readonly config: string;
  /** Where the CLI writes, and its environment and directory. */
  readonly io: CliIo;
  /** One line of progress or trouble, on stderr. */
  readonly say: (line: string) => void;
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

const OUTCOME_WIDTH = 10;

/** Why a tool whose annotations are not trusted does not run freely: the probe's verdict. */
function untrustedWhy(plan: ToolPlan, verdicts: CheckJson['verdicts']): string {
  if (plan.claimed.readOnlyHint !== true) {
    return 'claims to change something (not verified, so it counts as destructive)';
  }
  const verdict = verdicts.find((v) => v.server === plan.server && v.tool === plan.tool);
  const tail = 'it counts as destructive until verified or trusted';
  if (verdict === undefined) return `claims read-only, not verified: ${tail}`;
  if (verdict.verdict === 'violation') {
    return `claims read-only, but the probe saw a side effect (${verdict.reason}), so it counts as destructive`;
  }
  return `claims read-only, but the probe could not verify it (${verdict.reason}): ${tail}`;
}

/** The short reason shown beside a tool. */
function shortWhy(plan: ToolPlan, verdicts: CheckJson['verdicts']): string {
  if (plan.outcome === 'held back') return plan.why;
  if (plan.verified && plan.outcome === 'runs' && plan.class === 'read') {
    return 'verified read-only by the probe and pinned';
  }
  if (!plan.trusted && plan.outcome !== 'runs') return untrustedWhy(plan, verdicts);
  return plan.why;
}

/** The lines telling what the gateway does with each tool, grouped by server. */
export function formatPlan(plans: readonly ToolPlan[], verdicts: CheckJson['verdicts']): string[] {
  const lines: string[] = [];
  const servers = [...new Set(plans.map((plan) => plan.server))];
  const width = Math.min(32, Math.max(0, ...plans.map((plan) => plan.tool.length)));
  for (const server of servers) {
    const own = plans.filter((plan) => plan.server === server);
    const count = (outcome: ToolPlan['outcome']): number =>
      own.filter((plan) => plan.outcome === outcome).length;
    const parts = [
      count('runs') > 0 ? `${count('runs')} run freely` : '',
      count('asks') > 0 ? `${count('asks')} ask` : '',
      count('held back') > 0 ? `${count('held back')} held back` : '',
      count('denied') > 0 ? `${count('denied')} denied` : '',
    ].filter((part) => part !== '');
    lines.push(`${server} (${plural(own.length, 'tool')}): ${parts.join(', ')}`);
    for (const plan of own) {
      const name = plan.offeredAs === undefined ? plan.tool : `${plan.tool} (as ${plan.offeredAs})`;
      lines.push(
        `  ${plan.outcome.padEnd(OUTCOME_WIDTH)} ${name.padEnd(width)}  ${shortWhy(plan, verdicts)}`,
      );
    }
  }
  return lines;
}

/**
 * The check step of `hintgate init`: runs `hintgate check --probe --write-pin` on the
 * configuration (lint, side-effect probe of read-only tools in a sandbox, pins with the
 * verdicts), prints a summary of it, then starts the gateway of the configuration once
 * to print what it does with each tool (runs freely, asks, held back, denied) and why.
 * Resolves to the exit code: `check`'s 2 or 3 when it could not check or pin everything,
 * 1 when the gateway could not be started, else 0.
 */
export async function checkAndPlan(options: CheckAndPlanOptions): Promise<number> {
  const { config, io, say } = options;
  const cwd = io.cwd ?? process.cwd();
  const shown = relative(cwd, config) || config;
  say(
    `checking the servers of ${shown}: lint, and a probe of their read-only tools in a sandbox...`,
  );
  let output = '';
  const { runCheck } = await import('./run-check.js');
  const exit = await runCheck(
    ['--config', config, '--probe', '--write-pin', '--json', '--fail-on', 'none'],
    { ...io, stdout: (text) => (output += text) },
  );
  let report: CheckJson | undefined;
  try {
    report = JSON.parse(output) as CheckJson;
  } catch {
    report = undefined;
  }
  if (report === undefined) {
    say(`the check did not finish; run "hintgate check --config ${shown} --probe" to see why.`);
    return exit === 0 ? 1 : exit;
  }
  const { summary } = report;
  const { verified, violation, inconclusive } = summary.verdicts;
  const { high, medium, low } = summary.findings;
  io.stdout(
    `Checked ${plural(summary.servers - summary.failedServers, 'server')}${summary.failedServers > 0 ? ` (${summary.failedServers} could not be checked)` : ''}, ${plural(summary.tools, 'tool')}: ${verified} verified, ${plural(violation, 'violation')}, ${inconclusive} inconclusive; ${plural(high + medium + low, 'finding')} (${high} high, ${medium} medium, ${low} low).\n`,
  );
  io.stdout(
    report.pin == null
      ? `Nothing was pinned: the gateway holds back tools until "hintgate pin --config ${shown}" pins them.\n`
      : `Pinned the tools with their verdicts in ${report.pin.file}.\n`,
  );
  const env = io.env ?? process.env;
  if (report.pin != null) {
    // The gateway declares roots, sampling and elicitation to its servers, and some list
    // more tools to such a client: those are pinned too (verdicts of the others are kept).
    try {
      const loaded = await loadGatewayConfig(config, { env });
      await pinGateway({ config: loaded });
    } catch (error) {
      say(
        `could not pin what the gateway lists beyond the check: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      );
    }
  }
  io.stdout(`The full report: hintgate check --config ${shown} --probe\n\n`);

  const notices: string[] = [];
  let plans: ToolPlan[];
  let mode: string | undefined;
  try {
    const loaded = await loadGatewayConfig(config, { env });
    const gateway = await createGateway({
      config: loaded,
      watchPins: false,
      reconnect: false,
      onNotice: (line) => notices.push(line),
      onError: (error) => notices.push(error.message.split('\n')[0] ?? ''),
      onUpstreamStderr: () => {},
    });
    try {
      plans = await planGatewayTools({ gateway, config: loaded });
      mode = gateway.runtime.mode;
    } finally {
      await gateway.close();
    }
  } catch (error) {
    say(
      `the gateway could not be started: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
  io.stdout(`What the gateway will do${mode === undefined ? '' : ` (mode ${mode})`}:\n`);
  for (const line of formatPlan(plans, report.verdicts)) io.stdout(`${line}\n`);
  for (const notice of notices) if (!notice.startsWith('[low]')) say(notice);
  if (plans.some((plan) => plan.outcome === 'asks')) {
    io.stdout(
      '\nCalls that ask are put to the user of your MCP client (elicitation); a client that cannot ask gets them denied, with the ways to let them run.\n',
    );
  }
  return report.exitCode >= 2 ? report.exitCode : 0;
}
