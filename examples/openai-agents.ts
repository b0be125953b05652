import { Agent, run, setTracingDisabled } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { createRuntime, defineTool, READ_ONLY, WRITE } from 'hintgate';
import { createAgentsTools } from 'hintgate/openai-agents';
import { z } from 'zod';

setTracingDisabled(true);
const files = new Map([['a.txt', 'old'], ['b.txt', 'bee']]);
const read = defineTool({
  name: 'read_file', description: 'Read a file.', annotations: READ_ONLY,
  inputSchema: z.object({ path: z.string() }), resources: ['file:{path}'],
  execute: ({ path }) => files.get(path) ?? 'no such file',
});
const write = defineTool({
  name: 'write_file', description: 'Create or replace a file.', annotations: WRITE,
  inputSchema: z.object({ path: z.string(), text: z.string() }), resources: ['file:{path}'],
  execute: ({ path, text }) => { files.set(path, text); return `wrote ${path}`; },
});
const runtime = createRuntime({ tools: [read, write], mode: 'ask' }); // reads run, writes ask

// A scripted model (no API key needed): one response with three calls, then an answer.
const model = new ScriptedModel([
  [
    functionCall('read_file', { path: 'a.txt' }, { callId: 'c1' }),
    functionCall('write_file', { path: 'a.txt', text: 'new' }, { callId: 'c2' }), // asks
    functionCall('read_file', { path: 'b.txt' }, { callId: 'c3' }), // runs alongside c1
  ],
  [assistantMessage('a.txt now says "new".')],
]);
const agent = new Agent({
  name: 'editor', instructions: runtime.systemPrompt(), model, tools: createAgentsTools({ runtime }),
});

let result = await run(agent, 'Replace the text of a.txt with "new".');
while (result.interruptions.length > 0) {
  for (const item of result.interruptions) {
    console.log(`approve? ${item.name} ${item.arguments}`); // ask the person in your UI
    result.state.approve(item); // or result.state.reject(item, { message: 'why not' })
  }
  result = await run(agent, result.state); // also after result.state.toString() / RunState.fromString()
}
for (const item of result.newItems) {
  if (item.type === 'tool_call_output_item') console.log(`${item.rawItem.callId}: ${item.output}`);
}
console.log(result.finalOutput);
console.log('system prompt reached the model:', model.firstCall?.request.systemInstructions === runtime.systemPrompt());
