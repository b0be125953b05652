/**
 * Overhead per call of `hintgate/langchain` against LangChain's plain tool execution, both
 * measured in one run: `npm run build && npx tsx --tsconfig bench/tsconfig.json
 * bench/langchain-adapter.ts [--write]`. With `--write`, the table replaces its own section
 * of bench/RESULTS.md (appended at the end when absent).
 *
 * The plain tool is what a LangChain user writes: `tool()` from `@langchain/core/tools` with
 * a JSON Schema, its function answering at once. The adapter's tool is
 * `createLangChainTools({ runtime })` over a runtime with the same no-op tool (read-only,
 * the same JSON Schema, no audit sink, default mode). Both go through the same LangChain
 * path: LangGraph's `ToolNode` with a message of 10 calls and of 1 call, and
 * `tool.invoke(toolCall)` one call at a time. Rounds alternate which goes first.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AIMessage, type ToolCall } from '@langchain/core/messages';
import { type DynamicStructuredTool, tool } from '@langchain/core/tools';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { createRuntime, defineTool, READ_ONLY } from 'hintgate';
import { createLangChainTools } from 'hintgate/langchain';
import { fixed, loadNow, machine, median, table } from './report.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '21' },
    write: { type: 'boolean', default: false },
  },
});

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Heading of this script's section of bench/RESULTS.md. */
const SECTION = '## LangChain adapter: overhead per call of `hintgate/langchain`';
const GOAL_US = 20;
const ROUNDS = Number(values.rounds);
const CALLS_PER_ROUND = 4000;
const WARMUP_CALLS = 20_000;

const schema = {
  type: 'object',
  properties: { n: { type: 'number' } },
  required: ['n'],
  additionalProperties: false,
} as const;

// A JSON Schema of an object makes tool() return a DynamicStructuredTool.
const plainTool = tool(async ({ n }: { n: number }) => String(n), {
  name: 'noop',
  description: 'Does nothing.',
  schema,
}) as DynamicStructuredTool;
const runtime = createRuntime({
  tools: [
    defineTool({
      name: 'noop',
      description: 'Does nothing.',
      annotations: READ_ONLY,
      inputSchema: schema,
      execute: ({ n }) => String(n),
    }),
  ],
});
const [adapterTool] = createLangChainTools({ runtime });
if (adapterTool === undefined) throw new Error('the adapter listed no tool');

const callsOf = (count: number): ToolCall[] =>
  Array.from({ length: count }, (_, i) => ({
    type: 'tool_call',
    id: `call_${i}`,
    name: 'noop',
    args: { n: i },
  }));

interface Path {
  readonly label: string;
  readonly callsPerRun: number;
  readonly plain: () => Promise<unknown>;
  readonly adapter: () => Promise<unknown>;
}

const nodePath = (count: number): Path => {
  const message = new AIMessage({ content: '', tool_calls: callsOf(count) });
  const plainNode = new ToolNode([plainTool]);
  const adapterNode = new ToolNode([adapterTool]);
  return {
    label: `LangGraph \`ToolNode\`, ${count} call${count === 1 ? '' : 's'} per message`,
    callsPerRun: count,
    plain: () => plainNode.invoke({ messages: [message] }),
    adapter: () => adapterNode.invoke({ messages: [message] }),
  };
};

const [oneCall] = callsOf(1) as [ToolCall];
const paths: Path[] = [
  nodePath(10),
  nodePath(1),
  {
    label: '`tool.invoke(toolCall)`, one call at a time',
    callsPerRun: 1,
    plain: () => plainTool.invoke(oneCall),
    adapter: () => adapterTool.invoke(oneCall),
  },
];

interface Sample {
  readonly wallUs: number;
  readonly cpuUs: number;
}

/** Wall and CPU µs per call of `calls` calls made `run` at a time, one after another. */
async function measure(run: () => Promise<unknown>, callsPerRun: number, calls: number) {
  const runs = Math.ceil(calls / callsPerRun);
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < runs; i += 1) await run();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const done = runs * callsPerRun;
  return { wallUs: (wall * 1000) / done, cpuUs: (used.user + used.system) / done };
}

const loadAtStart = loadNow();
const rows: string[][] = [];
const summary: string[] = [];
for (const path of paths) {
  await measure(path.plain, path.callsPerRun, WARMUP_CALLS);
  await measure(path.adapter, path.callsPerRun, WARMUP_CALLS);
  const plain: Sample[] = [];
  const adapter: Sample[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const order =
      round % 2 === 0 ? (['plain', 'adapter'] as const) : (['adapter', 'plain'] as const);
    for (const which of order) {
      const sample = await measure(path[which], path.callsPerRun, CALLS_PER_ROUND);
      (which === 'plain' ? plain : adapter).push(sample);
    }
  }
  const plainWall = median(plain.map((s) => s.wallUs));
  const adapterWall = median(adapter.map((s) => s.wallUs));
  const plainCpu = median(plain.map((s) => s.cpuUs));
  const adapterCpu = median(adapter.map((s) => s.cpuUs));
  const added = adapterWall - plainWall;
  const addedCpu = adapterCpu - plainCpu;
  rows.push([
    path.label,
    fixed(plainWall, 2),
    fixed(adapterWall, 2),
    fixed(added, 2),
    fixed(adapterWall / plainWall, 3),
    fixed(plainCpu, 2),
    fixed(adapterCpu, 2),
    fixed(addedCpu, 2),
    addedCpu < GOAL_US ? 'yes' : 'no',
  ]);
  summary.push(`${path.label}: ${fixed(addedCpu, 2)} CPU µs added per call`);
}

const host = machine();
const body = `${SECTION}

Method (\`bench/langchain-adapter.ts --write\`): a plain LangChain \`tool()\` against \`createLangChainTools({ runtime })\` over the same no-op read-only tool, same path; ${WARMUP_CALLS} warm-up calls, ${ROUNDS} alternating rounds of ${CALLS_PER_ROUND}; median µs per call, wall and CPU. Goal: under ${GOAL_US} CPU µs added.

- Machine: ${host.cpu}, ${host.cores} cores, ${fixed(host.memoryGiB, 1)} GiB; Node ${host.node}; ${host.date}; load average (1 min) at the start: ${fixed(loadAtStart, 2)}, at the end: ${fixed(loadNow(), 2)}

${table(
  [
    'path',
    'plain wall µs/call',
    'adapter wall µs/call',
    'added µs/call',
    'adapter / plain',
    'plain CPU µs/call',
    'adapter CPU µs/call',
    'added CPU µs/call',
    `under ${GOAL_US} CPU µs added`,
  ],
  rows,
)}
`;
process.stdout.write(`${body}\n${summary.join('\n')}\n`);
if (values.write === true) {
  const file = join(ROOT, 'bench', 'RESULTS.md');
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf(SECTION);
  if (at < 0) {
    writeFileSync(file, `${text.trimEnd()}\n\n${body}`);
  } else {
    const next = text.indexOf('\n## ', at + SECTION.length);
    const rest = next < 0 ? '' : text.slice(next + 1);
    writeFileSync(file, `${text.slice(0, at)}${body}${rest === '' ? '' : `\n${rest}`}`);
  }
}
await runtime.close();
