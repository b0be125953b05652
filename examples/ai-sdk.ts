// hintgate under the Vercel AI SDK (v7): run it with `npx tsx examples/ai-sdk.ts` in a
// directory holding a.txt and b.txt. The model is the AI SDK's scripted mock; use any model.
import { readFile, writeFile } from 'node:fs/promises';
import { generateText, isStepCount, type ModelMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createRuntime, defineTool, READ_ONLY, WRITE } from 'hintgate';
import { approvalResponse, createAiSdkTools } from 'hintgate/ai-sdk';
import { z } from 'zod';

const read = defineTool({
  name: 'read_file', description: 'Read a UTF-8 file of the project.', annotations: READ_ONLY,
  inputSchema: z.object({ path: z.string() }), resources: ['file:{path}'],
  execute: ({ path }, { signal }) => readFile(path, { encoding: 'utf8', signal }),
});
const write = defineTool({
  name: 'write_file', description: 'Create or replace a file.', annotations: WRITE,
  inputSchema: z.object({ path: z.string(), text: z.string() }), resources: ['file:{path}'],
  execute: async ({ path, text }) => { await writeFile(path, text); return { written: path }; },
});
const runtime = createRuntime({ tools: [read, write] }); // mode ask: reads run, writes ask

// The model's first step: three calls, as a model makes them when the system prompt tells it
// to batch independent calls; then its answer.
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined } };
const calls = [['c1', 'read_file', { path: 'a.txt' }], ['c2', 'write_file', { path: 'a.txt', text: 'new' }],
  ['c3', 'read_file', { path: 'b.txt' }]] as const;
const model = new MockLanguageModelV4({ doGenerate: [
  { content: calls.map(([toolCallId, toolName, input]) => ({ type: 'tool-call' as const, toolCallId, toolName,
    input: JSON.stringify(input) })), finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] },
  { content: [{ type: 'text', text: 'a.txt now says "new".' }], finishReason: { unified: 'stop', raw: undefined },
    usage, warnings: [] },
] });

const messages: ModelMessage[] = [{ role: 'user', content: 'Replace the text of a.txt with "new".' }];
const run = () => generateText({ model, instructions: runtime.systemPrompt(), messages, stopWhen: isStepCount(5),
  ...createAiSdkTools({ runtime, session: 'chat-1' }) }); // tools + toolApproval

const first = await run(); // c1 and c3 run at once; c2 waits for the person
for (const part of first.content) {
  if (part.type === 'tool-result') console.log(`${part.toolCallId} ${part.output.status} ${JSON.stringify(part.output.content)}`);
  if (part.type === 'tool-approval-request') console.log(`${part.toolCall.toolCallId} asks: ${part.reason}`);
}
const request = first.content.find((part) => part.type === 'tool-approval-request');
messages.push(...first.responseMessages, { role: 'tool', content: [
  approvalResponse({ approvalId: request?.approvalId ?? '', approved: true, remember: 'session' }),
] });
const second = await run(); // the approved write runs through hintgate, which remembers the answer
const [results] = second.responseMessages; // the tool message with the approved call's result
for (const part of results?.role === 'tool' ? results.content : []) {
  if (part.type === 'tool-result') console.log(`${part.toolCallId} ${JSON.stringify(part.output)}`);
}
console.log(second.text);
console.log(`system prompt sent: ${JSON.stringify(model.doGenerateCalls[0]?.prompt[0]?.content).includes('in one turn')}`);
