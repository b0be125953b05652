/**
 * Overhead per call of `hintgate/openai-agents` against the OpenAI Agents SDK's plain
 * function tools, in one run: `npm run build && npx tsx --tsconfig bench/tsconfig.json
 * bench/openai-agents.ts [--write]`. With `--write`, the results replace their section of
 * bench/RESULTS.md.
 *
 * The same no-op tool (a synchronous function of a number returning a short string) is
 * offered to the SDK as its own `tool()` with the same JSON Schema (the baseline), the same
 * with a per-call approval check, the same handing each call to hintgate in its `execute`
 * (glue, to split the cost), and as a hintgate tool (zod schema, mode `yolo`, no audit
 * sink) made a function tool by `createAgentsTools`. Two paths:
 *
 * 1. What the SDK's runner does with the calls of one model response: for each call, in the
 *    model's order and all at once, `needsApproval(runContext, args, callId)` and then
 *    `invoke(runContext, argsJson, { toolCall })`, awaited together (a fresh run context per
 *    response). This isolates the tool path, where the adapter adds its cost.
 * 2. Whole runs: `run(agent, input)` with the SDK's `ScriptedModel` answering one response
 *    of N calls and then a message, for each kind of agent. The runner's own work per run
 *    is in both, so the difference per call is what the adapter adds in place.
 *
 * Each scenario: warm-up, then rounds in which the tools take turns (in an order that
 * rotates); µs per call = a round's CPU time of the process (user + system) / calls, median
 * of the rounds; the same for wall time.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, RunContext, run, setTracingDisabled, tool } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { createRuntime, defineTool, READ_ONLY, WRITE } from 'hintgate';
import { createAgentsTools } from 'hintgate/openai-agents';
import { z } from 'zod';
import { fixed, loadNow, machine, median, replaceSection, table, yesNo } from './report.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '15' },
    write: { type: 'boolean', default: false },
  },
});
const ROUNDS = Number(values.rounds);
const GOAL_US = 20;
/** Heading of this script's section of bench/RESULTS.md. */
export const SECTION =
  "## Adapter overhead: hintgate/openai-agents against the SDK's plain function tools";

setTracingDisabled(true);

const parameters = {
  type: 'object' as const,
  properties: { n: { type: 'number' } },
  required: ['n'],
  additionalProperties: false as const,
};
const fn = ({ n }: { n: number }): string => String(n + 1);

/**
 * The SDK's own function tool: what an app without hintgate gives the agent. With
 * `checked`, it also has a per-call approval check (answering no at once), which makes the
 * SDK's runner keep approval records for each call, as it does for the adapter's tools.
 */
const plainTool = (name: string, checked = false) =>
  tool({
    name,
    description: 'Adds one.',
    parameters,
    ...(checked ? { needsApproval: async () => false } : {}),
    execute: (input) => fn(input as { n: number }),
  });
/** A function tool as the benchmark drives it. */
type FunctionTool = ReturnType<typeof plainTool>;

/**
 * Reference: the glue an app writes without the adapter, the SDK's tool with a per-call
 * check whose `execute` hands each call to the runtime in a turn of its own. It runs
 * hintgate's pipeline but keeps no order among a response's calls and surfaces no asks.
 */
const glueTool = (name: string, runtime: ReturnType<typeof createRuntime>) =>
  tool({
    name,
    description: 'Adds one.',
    parameters,
    needsApproval: async () => false,
    execute: async (input, _runContext, details) => {
      const id = details?.toolCall?.callId ?? 'call';
      const result = await runtime.turn().call({ id, name, arguments: input });
      const [block] = result.content;
      return block?.type === 'text' ? block.text : '';
    },
  });

/** The same tool through hintgate, as `createAgentsTools` makes it. */
const adapterTools = (name: string, kind: 'read' | 'write') => {
  const add = defineTool({
    name,
    description: 'Adds one.',
    annotations: kind === 'read' ? READ_ONLY : WRITE,
    inputSchema: z.object({ n: z.number() }),
    // Writes all touch one key, so hintgate runs them one after another.
    ...(kind === 'write' ? { resources: ['counter:one'] } : {}),
    execute: fn,
  });
  const runtime = createRuntime({ tools: [add], mode: 'yolo' });
  return { runtime, tools: createAgentsTools({ runtime }) as unknown as FunctionTool[] };
};

interface Call {
  readonly callId: string;
  readonly args: { n: number };
  readonly json: string;
  readonly item: ReturnType<typeof functionCall>;
}
const callsOf = (name: string, count: number): Call[] =>
  Array.from({ length: count }, (_, index) => {
    const args = { n: index };
    const callId = `c${index}`;
    return { callId, args, json: JSON.stringify(args), item: functionCall(name, args, { callId }) };
  });

/** Path 1: what the runner does with the calls of one response, on one tool. */
const toolPath = (target: FunctionTool, calls: readonly Call[]) => async (): Promise<void> => {
  const runContext = new RunContext();
  const outputs = await Promise.all(
    calls.map(async (call) => {
      if (await target.needsApproval(runContext, call.args, call.callId)) {
        throw new Error('no call of the benchmark needs approval');
      }
      return target.invoke(runContext, call.json, { toolCall: call.item });
    }),
  );
  if (outputs.length !== calls.length) throw new Error('a call got lost');
};

/** Path 2: a whole run of one response of `calls` and a closing message. */
const runPath = (target: FunctionTool, name: string, calls: readonly Call[]) => {
  const model = new ScriptedModel();
  const agent = new Agent({ name: 'bench', model, tools: [target] });
  return async (): Promise<void> => {
    model.enqueue(
      calls.map((call) => functionCall(name, call.args, { callId: call.callId })),
      [assistantMessage('done')],
    );
    const result = await run(agent, 'go');
    if (result.finalOutput !== 'done') throw new Error('the run did not finish');
  };
};

interface Measured {
  readonly wallUs: number;
  readonly cpuUs: number;
}

/**
 * Runs the variants taking turns in each round (the order rotating from round to round);
 * median µs per call of each.
 */
const measure = async (
  variants: readonly (() => Promise<void>)[],
  callsPerIteration: number,
  iterationsPerRound: number,
  warmup: number,
): Promise<Measured[]> => {
  for (const variant of variants) for (let i = 0; i < warmup; i++) await variant();
  const wall = variants.map((): number[] => []);
  const cpu = variants.map((): number[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let turn = 0; turn < variants.length; turn++) {
      const index = (round + turn) % variants.length;
      const variant = variants[index] as () => Promise<void>;
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      for (let i = 0; i < iterationsPerRound; i++) await variant();
      const elapsedUs = (performance.now() - start) * 1000;
      const used = process.cpuUsage(cpuStart);
      const calls = callsPerIteration * iterationsPerRound;
      wall[index]?.push(elapsedUs / calls);
      cpu[index]?.push((used.user + used.system) / calls);
    }
  }
  return variants.map((_, index) => ({
    wallUs: median(wall[index] ?? []),
    cpuUs: median(cpu[index] ?? []),
  }));
};

interface Scenario {
  readonly label: string;
  readonly path: 'tool' | 'run';
  readonly calls: number;
  readonly kind: 'read' | 'write';
}
const SCENARIOS: readonly Scenario[] = [
  { label: '1 read per response', path: 'tool', calls: 1, kind: 'read' },
  { label: '10 reads per response', path: 'tool', calls: 10, kind: 'read' },
  { label: '100 reads per response', path: 'tool', calls: 100, kind: 'read' },
  {
    label: '100 writes of one key per response (hintgate runs them in order)',
    path: 'tool',
    calls: 100,
    kind: 'write',
  },
  { label: 'whole run: 1 read, then a message', path: 'run', calls: 1, kind: 'read' },
  { label: 'whole run: 10 reads, then a message', path: 'run', calls: 10, kind: 'read' },
];

async function main(): Promise<void> {
  const host = machine();
  const rows: string[][] = [];
  const addedCpu: number[] = [];
  for (const scenario of SCENARIOS) {
    const name = 'add_one';
    const calls = callsOf(name, scenario.calls);
    const { runtime, tools } = adapterTools(name, scenario.kind);
    const adapter = tools[0] as FunctionTool;
    const targets = [plainTool(name), plainTool(name, true), glueTool(name, runtime), adapter];
    const variants = targets.map((target) =>
      scenario.path === 'tool' ? toolPath(target, calls) : runPath(target, name, calls),
    );
    const perRound = Math.max(
      4,
      Math.round((scenario.path === 'tool' ? 4000 : 400) / scenario.calls),
    );
    const [plain, checked, glue, through] = (await measure(
      variants,
      scenario.calls,
      perRound,
      perRound * 5,
    )) as [Measured, Measured, Measured, Measured];
    await runtime.close();
    const added = through.cpuUs - plain.cpuUs;
    addedCpu.push(added);
    rows.push([
      scenario.label,
      fixed(plain.cpuUs, 2),
      fixed(checked.cpuUs, 2),
      fixed(glue.cpuUs, 2),
      fixed(through.cpuUs, 2),
      fixed(through.cpuUs / plain.cpuUs, 2),
      fixed(added, 2),
      fixed(glue.cpuUs - checked.cpuUs, 2),
      fixed(through.cpuUs - glue.cpuUs, 2),
      scenario.path === 'tool' ? yesNo(added < GOAL_US) : 'n/a (reference)',
      fixed(plain.wallUs, 2),
      fixed(through.wallUs, 2),
      fixed(through.wallUs - plain.wallUs, 2),
    ]);
    process.stdout.write(`${scenario.label}: +${fixed(added, 2)} CPU µs per call\n`);
  }
  const toolRows = SCENARIOS.map((scenario, index) => ({
    scenario,
    added: addedCpu[index] ?? 0,
  })).filter(({ scenario }) => scenario.path === 'tool');
  const met = toolRows.filter(({ added }) => added < GOAL_US).length;
  const body = `${SECTION}

Generated by \`bench/openai-agents.ts\` (run alone: \`npm run build && npx tsx --tsconfig bench/tsconfig.json bench/openai-agents.ts --write\`), against the built package. Goal: the adapter adds under ${GOAL_US} µs of CPU time per call on the tool path: ${met}/${toolRows.length} scenarios.

- Machine: ${host.cpu}, ${host.cores} cores; Node ${host.node}; ${host.date}; load average (1 min) at the start: ${fixed(host.load, 2)}, at the end: ${fixed(loadNow(), 2)}
- \`@openai/agents\` ${agentsVersion()}

Method: one no-op tool as the SDK's \`tool()\` (plain), plain with a \`needsApproval\` that answers no (plain + check), the SDK tool handing calls to \`runtime.turn()\` (glue), and \`createAgentsTools\` (adapter, mode \`yolo\`). Tool path: \`needsApproval\` then \`invoke\` for one response's calls; whole run: \`run()\` with \`ScriptedModel\`. ${ROUNDS} rotating rounds after a warm-up; median µs per call; goal judged on CPU.

${table(
  [
    'scenario',
    'plain CPU µs/call',
    'plain + check CPU µs/call',
    'glue CPU µs/call',
    'adapter CPU µs/call',
    'adapter / plain (CPU)',
    'added CPU µs/call',
    'of it hintgate (glue - plain + check)',
    'of it the adapter (adapter - glue)',
    `added under ${GOAL_US} µs`,
    'plain wall µs/call',
    'adapter wall µs/call',
    'added wall µs/call',
  ],
  rows,
)}
`;
  process.stdout.write(`\n${body}`);
  if (values.write === true) {
    const path = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
    writeFileSync(path, replaceSection(readFileSync(path, 'utf8'), SECTION, body));
  }
}

const agentsVersion = (): string => {
  const url = new URL('../node_modules/@openai/agents/package.json', import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
};

await main();
