/**
 * What `hintgate/openai-agents` adds per call to the OpenAI Agents SDK's plain function
 * tools, in one run: `npx tsx --tsconfig bench/tsconfig.json bench/openai-agents.ts
 * [--write]`. The same no-op tool as the SDK's own `tool()`, with a per-call approval check,
 * as glue handing each call to hintgate, and made by `createAgentsTools`; driven as the
 * SDK's runner drives one response's calls (the tool path), and as whole `run()`s.
 */
import { Agent, RunContext, run, setTracingDisabled, tool } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { createRuntime, defineTool, READ_ONLY, WRITE } from 'hintgate';
import { createAgentsTools } from 'hintgate/openai-agents';
import { z } from 'zod';
import { packageVersion } from './gateway.js';
import { interleave, machine, type PerCall } from './measure.js';
import { fixed, type Goal, runAlone, type SectionResult, section, table } from './report.js';

const GOAL_US = 20;
const SECTION =
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

/** Measures the section. */
export async function agentsSection(): Promise<SectionResult> {
  const started = machine();
  const goals: Goal[] = [];
  const rows: string[][] = [];
  for (const scenario of SCENARIOS) {
    const name = 'add_one';
    const calls = callsOf(name, scenario.calls);
    const { runtime, tools } = adapterTools(name, scenario.kind);
    const targets = [
      plainTool(name),
      plainTool(name, true),
      glueTool(name, runtime),
      tools[0] as FunctionTool,
    ];
    const runs = Math.max(4, Math.round((scenario.path === 'tool' ? 4000 : 400) / scenario.calls));
    const variants = targets.map((target) => ({
      calls: scenario.calls,
      run: scenario.path === 'tool' ? toolPath(target, calls) : runPath(target, name, calls),
    }));
    const [plain, checked, glue, through] = (await interleave(variants, {
      rounds: 15,
      runsPerRound: runs,
      warmupRuns: runs * 5,
    })) as [PerCall, PerCall, PerCall, PerCall];
    await runtime.close();
    const added = through.cpuUs - plain.cpuUs;
    if (scenario.path === 'tool')
      goals.push({
        name: `openai-agents: ${scenario.label}: CPU µs added`,
        value: added,
        limit: GOAL_US,
        bound: 'most',
        unit: ' µs',
      });
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
      fixed(plain.wallUs, 2),
      fixed(through.wallUs, 2),
    ]);
  }
  return section({
    heading: SECTION,
    command: 'bench/openai-agents.ts',
    started,
    method: `\`@openai/agents\` ${packageVersion('@openai/agents')}. One no-op tool as the SDK's \`tool()\` (plain), plain with a \`needsApproval\` that answers no (plain + check), the SDK tool handing calls to \`runtime.turn()\` (glue), and \`createAgentsTools\` (adapter, mode \`yolo\`). Tool path: \`needsApproval\` then \`invoke\` for one response's calls, awaited together; whole run: \`run()\` with \`ScriptedModel\` (reference, not judged). 15 rotating rounds after a warm-up; median µs per call. Goal: under ${GOAL_US} CPU µs added over plain on the tool path.`,
    tables: [
      table(
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
          'plain wall µs/call',
          'adapter wall µs/call',
        ],
        rows,
      ),
    ],
    goals,
  });
}

runAlone(import.meta.url, agentsSection);
