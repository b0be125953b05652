import { readFile, writeFile } from 'node:fs/promises';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createRuntime, defineTool, READ_ONLY, WRITE } from 'hintgate';
import { createHintgateMiddleware, type HintgateApprovalRequest } from 'hintgate/langchain';
import { createAgent } from 'langchain';
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

// A scripted chat model (swap in a real one): one message of three calls, then an answer.
const model = fakeModel()
  .respondWithTools([
    { id: 'c1', name: 'read_file', args: { path: 'a.txt' } },
    { id: 'c2', name: 'write_file', args: { path: 'a.txt', text: 'new' } }, // waits for c1
    { id: 'c3', name: 'read_file', args: { path: 'b.txt' } }, // runs alongside c1
  ])
  .respond(new AIMessage('Done.'));
const agent = createAgent({
  model,
  systemPrompt: runtime.systemPrompt(), // the tools by class, safety rules, the mode
  middleware: [createHintgateMiddleware({ runtime })], // brings the tools, asks via interrupt()
  checkpointer: new MemorySaver(), // interrupts need one
});
const thread = { configurable: { thread_id: 'example' } };

let state = await agent.invoke({ messages: [new HumanMessage('Update a.txt')] }, thread);
const request = state.__interrupt__?.[0]?.value as HintgateApprovalRequest; // nothing ran yet
console.log(`asks: ${request.actionRequests.map((a) => `${a.toolCallId} ${a.name}`).join(', ')}`);
state = await agent.invoke(new Command({ resume: { decisions: [{ type: 'approve' }] } }), thread);
for (const message of state.messages.filter(ToolMessage.isInstance)) {
  console.log(`${message.tool_call_id} ${message.status} ${message.text}`);
}
console.log(`system prompt sent: ${model.calls[0]?.messages[0]?.text === runtime.systemPrompt()}`);
