/** Section `adapters`: what each framework adapter adds per call to the framework's plain tool. */
import { AIMessage, type ToolCall } from '@langchain/core/messages';
import { type DynamicStructuredTool, tool as langchainTool } from '@langchain/core/tools';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { Agent, tool as agentsTool, RunContext, run, setTracingDisabled } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { tool as aiTool, generateText, isStepCount, jsonSchema } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createRuntime, defineTool, READ_ONLY, type Runtime, WRITE } from 'hintgate';
import { createAiSdkTools } from 'hintgate/ai-sdk';
import { createLangChainTools } from 'hintgate/langchain';
import { createAgentsTools } from 'hintgate/openai-agents';
import { interleave, type PerCall, version } from './measure.js';
import { type Cell, type Goal, goal, type Result, table } from './report.js';

const [properties, required] = [{ n: { type: 'number' } }, ['n']];
const parameters = { type: 'object', properties, required, additionalProperties: false } as const;
// Written mutable: the AI SDK's jsonSchema() takes a JSONSchema7, whose arrays are not readonly.
const schema = parameters as { type: 'object'; [key: string]: unknown };
const addOne = ({ n }: { n: number }): string => String(n + 1);
const numbers = (count: number) => Array.from({ length: count }, (_, n) => n);
/** The same no-op tool in hintgate; writes all touch one key, so hintgate runs them in order. */
const runtimeOf = (write: boolean): Runtime => {
  const tool = defineTool({
    name: 'add_one',
    description: 'Adds one.',
    annotations: write ? WRITE : READ_ONLY,
    inputSchema: schema,
    ...(write ? { resources: ['counter:one'] } : {}),
    execute: (args) => addOne(args as { n: number }),
  });
  return createRuntime({ mode: 'yolo', tools: [tool] });
};

/** A setup: its scenario, calls per run, calls per round, variants (the first plain). */
type Setup = [string, number, number, Record<string, () => Promise<unknown>>];
const setupOf = (...setup: Setup) => setup;
type AgentsTool = ReturnType<typeof agentsTool>;
setTracingDisabled(true);

/** The OpenAI Agents SDK: the tool path its runner takes for one response's calls, and whole runs. */
function openaiAgents(reads: Runtime, writes: Runtime): Setup[] {
  type Execute = (input: unknown, callId?: string) => string | Promise<string>;
  // A per-call check makes the runner keep approval records, as it does for the adapter.
  const sdkTool = (execute: Execute, checked: boolean) =>
    agentsTool({
      name: 'add_one',
      description: 'Adds one.',
      parameters,
      ...(checked ? { needsApproval: async () => false } : {}),
      execute: (input, _context, details) => execute(input, details?.toolCall?.callId),
    });
  const plain = (checked: boolean) => sdkTool((input) => addOne(input as { n: number }), checked);
  // What an app writes without the adapter: each call handed to the runtime in a turn of its own.
  const glue = (runtime: Runtime) =>
    sdkTool(async (input, id = 'call') => {
      const turn = runtime.turn();
      const [block] = (await turn.call({ id, name: 'add_one', arguments: input })).content;
      return block?.type === 'text' ? block.text : '';
    }, true);
  const setup = (count: number, runtime: Runtime, whole: boolean, scenario: string): Setup => {
    const items = numbers(count).map((n) => functionCall('add_one', { n }, { callId: `c${n}` }));
    const toolPath = (target: AgentsTool) => async () => {
      const context = new RunContext();
      const one = async (item: (typeof items)[0], n: number) => {
        if (await target.needsApproval(context, { n }, item.callId)) throw new Error('approval');
        return target.invoke(context, JSON.stringify({ n }), { toolCall: item });
      };
      await Promise.all(items.map(one));
    };
    const runPath = (target: AgentsTool) => {
      const model = new ScriptedModel();
      const agent = new Agent({ name: 'bench', model, tools: [target] });
      return async () => {
        model.enqueue(items, [assistantMessage('done')]);
        if ((await run(agent, 'go')).finalOutput !== 'done') throw new Error('run unfinished');
      };
    };
    const drive = whole ? runPath : toolPath;
    const [adapter] = createAgentsTools({ runtime }) as unknown as AgentsTool[];
    return setupOf(whole ? `${scenario} (reference)` : scenario, count, whole ? 400 : 4000, {
      'plain `tool()`': drive(plain(false)),
      'plain + `needsApproval`': drive(plain(true)),
      'glue to `runtime.turn()`': drive(glue(runtime)),
      adapter: drive(adapter as AgentsTool),
    });
  };
  return [
    setup(1, reads, false, 'tool path, 1 read per response'),
    setup(10, reads, false, 'tool path, 10 reads per response'),
    setup(100, reads, false, 'tool path, 100 reads per response'),
    setup(100, writes, false, 'tool path, 100 writes of one key per response'),
    setup(1, reads, true, 'whole `run()`: 1 read, then a message'),
    setup(10, reads, true, 'whole `run()`: 10 reads, then a message'),
  ];
}

/** The AI SDK: `generateText` over its mock model, one step of 50 reads, then text. */
function aiSdk(runtime: Runtime): Setup[] {
  const count = 50;
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
  const input = (n: number) => JSON.stringify({ n });
  const toolCall = (n: number) =>
    ({ type: 'tool-call', toolCallId: `c${n}`, toolName: 'add_one', input: input(n) }) as const;
  const model = new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      const done = prompt.at(-1)?.role === 'tool';
      const content = done ? [{ type: 'text' as const, text: 'done' }] : numbers(50).map(toolCall);
      const unified = done ? ('stop' as const) : ('tool-calls' as const);
      return { content, finishReason: { unified, raw: undefined }, usage, warnings: [] };
    },
  });
  const execute = async (input: { n: number }) => addOne(input);
  const inputSchema = jsonSchema<{ n: number }>(schema);
  const plain = { add_one: aiTool({ description: 'Adds one.', inputSchema, execute }) };
  type Options = Pick<Parameters<typeof generateText>[0], 'tools' | 'toolApproval'>;
  const run = { model, prompt: 'go', stopWhen: isStepCount(2) };
  const generate = (options: Options) => async () => {
    const result = await generateText({ ...run, ...options });
    const status = ({ output }: { output: unknown }) => (output as { status?: unknown }).status;
    const failed = result.steps[0]?.toolResults.some(
      (r) => typeof r.output === 'object' && status(r) !== 'ok',
    );
    if (result.text !== 'done' || failed !== false) throw new Error('a call or the run failed');
  };
  const calls = numbers(count).map((n) => ({ id: `c${n}`, name: 'add_one', arguments: { n } }));
  const approval = { add_one: async () => undefined };
  const alone = async () => {
    if ((await runtime.execute(calls)).some((r) => r.status !== 'ok')) throw new Error('failed');
  };
  const scenario = `\`generateText\`, one step of ${count} reads`;
  return [
    setupOf(scenario, count, 1000, {
      'plain `tool()`': generate({ tools: plain }),
      'plain + `toolApproval`': generate({ tools: plain, toolApproval: approval }),
      // Made anew per run, as an app does per request.
      adapter: () => generate(createAiSdkTools({ runtime }))(),
      'reference: `runtime.execute` alone': alone,
    }),
  ];
}

/** LangChain: LangGraph's `ToolNode` (10 and 1 calls per message) and `tool.invoke(toolCall)`. */
function langchain(runtime: Runtime): Setup[] {
  // A JSON Schema of an object makes tool() return a DynamicStructuredTool.
  const options = { name: 'add_one', description: 'Adds one.', schema };
  const execute = async (input: { n: number }) => addOne(input);
  const plain = langchainTool(execute, options) as DynamicStructuredTool;
  const [adapter] = createLangChainTools({ runtime }) as [DynamicStructuredTool];
  const callsOf = (count: number): ToolCall[] =>
    numbers(count).map((n) => ({ type: 'tool_call', id: `c${n}`, name: 'add_one', args: { n } }));
  const node = (count: number): Setup => {
    const message = new AIMessage({ content: '', tool_calls: callsOf(count) });
    const drive = (target: DynamicStructuredTool) => {
      const toolNode = new ToolNode([target]);
      return () => toolNode.invoke({ messages: [message] });
    };
    const scenario = `LangGraph \`ToolNode\`, ${count} call${count > 1 ? 's' : ''} per message`;
    return [scenario, count, 4000, { 'plain `tool()`': drive(plain), adapter: drive(adapter) }];
  };
  const [one] = callsOf(1) as [ToolCall];
  const invoke = { 'plain `tool()`': () => plain.invoke(one), adapter: () => adapter.invoke(one) };
  return [node(10), node(1), ['`tool.invoke(toolCall)`, one call at a time', 1, 4000, invoke]];
}

/** Section `adapters`. */
export async function adapters(): Promise<Result> {
  const goals: Goal[] = [];
  const rows: Cell[][] = [];
  const [reads, writes] = [runtimeOf(false), runtimeOf(true)];
  const setups = {
    'openai-agents': openaiAgents(reads, writes),
    'ai-sdk': aiSdk(reads),
    langchain: langchain(reads),
  };
  for (const [framework, list] of Object.entries(setups)) {
    for (const [scenario, calls, perRound, variants] of list) {
      const runsPerRound = Math.max(4, Math.round(perRound / calls));
      const options = { calls, rounds: 15, runsPerRound, warmupRuns: runsPerRound * 5 };
      const f = await interleave(Object.values(variants), options);
      const plain = f[0] as PerCall;
      for (const [index, variant] of Object.keys(variants).entries()) {
        const { cpuUs, wallUs } = f[index] as PerCall;
        const added = cpuUs - plain.cpuUs;
        const name = `${framework}, ${scenario}: adapter CPU µs added over plain`;
        if (variant === 'adapter' && !scenario.endsWith('(reference)'))
          goals.push(goal(name, added, 20, 'µs'));
        const [cpu, wall] = [cpuUs / plain.cpuUs, wallUs / plain.wallUs];
        rows.push([framework, scenario, variant, cpuUs, added, cpu, wallUs, wall]);
      }
    }
  }
  await Promise.all([reads.close(), writes.close()]);
  const frameworks = ['@openai/agents', 'ai', '@langchain/langgraph'];
  const versions = frameworks.map((n) => `\`${n}\` ${version(n)}`);
  const head = 'framework|setup|variant|CPU µs/call|CPU - plain µs|CPU / plain|wall µs/call';
  return {
    method: `${versions.join(', ')}. One no-op tool (\`add_one\`) made by the framework (plain) and by hintgate's adapter over a runtime in mode \`yolo\`, plus references: for the OpenAI Agents SDK, plain with a \`needsApproval\` answering no and the SDK tool handing each call to \`runtime.turn()\` (glue: glue - plain is hintgate's share, adapter - glue the adapter's); for the AI SDK, plain with a \`toolApproval\` and \`runtime.execute\` of the same calls alone. Each setup's variants take turns in 15 rotating rounds of about 4000 calls (400 for whole runs, 1000 for \`generateText\`) after 5 rounds' warm-up; median µs per call.`,
    tables: [table(`${head}|wall / plain`, rows)],
    goals,
  };
}
