/**
 * What `hintgate/langchain` adds per call to LangChain's plain tool execution, in one run:
 * `npx tsx --tsconfig bench/tsconfig.json bench/langchain-adapter.ts [--write]`. The plain
 * tool is `tool()` with a JSON Schema; the adapter's is `createLangChainTools({ runtime })`
 * over the same no-op read-only tool (no audit sink). Both through LangGraph's `ToolNode`
 * (10 calls and 1 call per message) and `tool.invoke(toolCall)`.
 */
import { AIMessage, type ToolCall } from '@langchain/core/messages';
import { type DynamicStructuredTool, tool } from '@langchain/core/tools';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { createRuntime, defineTool, READ_ONLY } from 'hintgate';
import { createLangChainTools } from 'hintgate/langchain';
import { interleave, machine } from './measure.js';
import { fixed, type Goal, runAlone, type SectionResult, section, table } from './report.js';

const GOAL_US = 20;
const schema = {
  type: 'object',
  properties: { n: { type: 'number' } },
  required: ['n'],
  additionalProperties: false,
} as const;

/** Measures the section. */
export async function langchainSection(): Promise<SectionResult> {
  const started = machine();
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
  const node = (target: DynamicStructuredTool, count: number) => {
    const message = new AIMessage({ content: '', tool_calls: callsOf(count) });
    const toolNode = new ToolNode([target]);
    return { calls: count, run: () => toolNode.invoke({ messages: [message] }) };
  };
  const [one] = callsOf(1) as [ToolCall];
  const paths = [
    ['LangGraph `ToolNode`, 10 calls per message', (t: DynamicStructuredTool) => node(t, 10)],
    ['LangGraph `ToolNode`, 1 call per message', (t: DynamicStructuredTool) => node(t, 1)],
    [
      '`tool.invoke(toolCall)`, one call at a time',
      (t: DynamicStructuredTool) => ({ calls: 1, run: () => t.invoke(one) }),
    ],
  ] as const;
  const goals: Goal[] = [];
  const rows: string[][] = [];
  for (const [label, make] of paths) {
    const plain = make(plainTool);
    const runs = 4000 / plain.calls;
    const [p, a] = await interleave([plain, make(adapterTool)], {
      rounds: 21,
      runsPerRound: runs,
      warmupRuns: runs * 5,
    });
    if (p === undefined || a === undefined) throw new Error('not measured');
    goals.push({
      name: `langchain: ${label}: CPU µs added`,
      value: a.cpuUs - p.cpuUs,
      limit: GOAL_US,
      bound: 'most',
      unit: ' µs',
    });
    rows.push([
      label,
      fixed(p.wallUs, 2),
      fixed(a.wallUs, 2),
      fixed(a.wallUs / p.wallUs, 3),
      fixed(p.cpuUs, 2),
      fixed(a.cpuUs, 2),
      fixed(a.cpuUs - p.cpuUs, 2),
      fixed(a.cpuUs / p.cpuUs, 3),
    ]);
  }
  await runtime.close();
  return section({
    heading: '## LangChain adapter: overhead per call of `hintgate/langchain`',
    command: 'bench/langchain-adapter.ts',
    started,
    method: `a plain LangChain \`tool()\` against \`createLangChainTools({ runtime })\` over the same no-op read-only tool, same path; 20,000 warm-up calls, 21 alternating rounds of 4000 calls; median µs per call. Goal: under ${GOAL_US} CPU µs added over the plain tool.`,
    tables: [
      table(
        [
          'path',
          'plain wall µs/call',
          'adapter wall µs/call',
          'adapter / plain (wall)',
          'plain CPU µs/call',
          'adapter CPU µs/call',
          'added CPU µs/call',
          'adapter / plain (CPU)',
        ],
        rows,
      ),
    ],
    goals,
  });
}

runAlone(import.meta.url, langchainSection);
