import { readFile, writeFile } from 'node:fs/promises';
import { createRuntime, defineTool, READ_ONLY, WRITE } from 'hintgate';
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

const runtime = createRuntime({ tools: [read, write], mode: 'auto' }); // writes run; deletes would ask
const results = await runtime.execute([ // the tool calls of one model turn
  { id: 'c1', name: 'read_file', arguments: { path: 'a.txt' } },
  { id: 'c2', name: 'write_file', arguments: { path: 'a.txt', text: 'new' } }, // waits for c1
  { id: 'c3', name: 'read_file', arguments: { path: 'b.txt' } }, // runs alongside c1
]);
console.log(results.map((r) => `${r.id} ${r.status} ${JSON.stringify(r.content)}`).join('\n'));
