import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createAgent, createMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { argumentDigest } from '../../audit/index.js';
import { HintgateError } from '../../errors/index.js';
import type { HintgateApprovalRequest } from './approval-request.js';
import { createHintgateMiddleware } from './create-hintgate-middleware.js';
import { at, fileProject, READ_WRITE_READ, toolMessages } from './langchain.test-helpers.js';
import type { HintgateApprovalResponse } from './read-approval-response.js';

type Project = ReturnType<typeof fileProject>;

/** An agent over the project's runtime whose model makes `steps` (lists of calls), then says done. */
const agentFor = (project: Project, steps: ReadonlyArray<typeof READ_WRITE_READ>) => {
  let model = fakeModel();
  for (const calls of steps) model = model.respondWithTools(calls);
  model = model.respond(new AIMessage('done'));
  const agent = createAgent({
    model,
    middleware: [createHintgateMiddleware({ runtime: project.runtime })],
    checkpointer: new MemorySaver(),
  });
  return { agent, model };
};

const thread = (id: string) => ({ configurable: { thread_id: id } });

/** The approval request of an interrupted run. */
const requestOf = (result: { __interrupt__?: ReadonlyArray<{ value?: unknown }> }) => {
  expect(result.__interrupt__).toHaveLength(1);
  return result.__interrupt__?.[0]?.value as HintgateApprovalRequest;
};

const resume = (response: HintgateApprovalResponse | unknown) => new Command({ resume: response });

const auditTypes = (project: Project, callId: string): string[] =>
  project.audit.events.filter((e) => e.callId === callId).map((e) => e.type);

describe('createHintgateMiddleware: approvals through LangGraph interrupt()', () => {
  it('stops before any call of [READ(a), WRITE(a), READ(b)] runs, asks about the write, and runs all three once approved', async () => {
    const project = fileProject(); // mode ask: reads run, writes ask
    const { agent } = agentFor(project, [READ_WRITE_READ]);
    const first = await agent.invoke({ messages: [new HumanMessage('go')] }, thread('t1'));

    const request = requestOf(first);
    expect(request.actionRequests).toEqual([
      {
        name: 'write_file',
        args: { path: 'a.txt', text: 'new a' },
        description: expect.stringContaining('Approval needed'),
        toolCallId: 'w1',
      },
    ]);
    expect(request.actionRequests[0]?.description).toContain('Covers: file:a.txt');
    expect(request.reviewConfigs).toEqual([
      { actionName: 'write_file', allowedDecisions: ['approve', 'reject'] },
    ]);
    expect(project.events).toEqual([]);

    const done = await agent.invoke(resume({ decisions: [{ type: 'approve' }] }), thread('t1'));
    expect(done.__interrupt__).toBeUndefined();
    expect(toolMessages(done.messages)).toEqual([
      'r1:success:old a',
      'w1:success:wrote a.txt',
      'r2:success:old b',
    ]);
    expect(project.overlapped()).toBe(true);
    expect(at(project.events, 'start write a.txt')).toBeGreaterThan(
      at(project.events, 'end read a.txt'),
    );
    expect(auditTypes(project, 'w1')).toEqual([
      'approval.requested',
      'approval.granted',
      'call.started',
      'call.succeeded',
    ]);
    expect(project.files.get('a.txt')).toBe('new a');
  });

  it('reads a rejected call to the model as a tool error, with the reason, and still runs the other calls', async () => {
    const project = fileProject();
    const { agent, model } = agentFor(project, [READ_WRITE_READ]);
    await agent.invoke({ messages: [new HumanMessage('go')] }, thread('t2'));
    const done = await agent.invoke(
      resume({ decisions: [{ type: 'reject', message: 'not on Fridays' }] }),
      thread('t2'),
    );

    const messages = toolMessages(done.messages);
    expect(messages[0]).toBe('r1:success:old a');
    expect(messages[1]).toMatch(/^w1:error:.*not on Fridays/);
    expect(messages[2]).toBe('r2:success:old b');
    expect(project.files.get('a.txt')).toBe('old a');
    expect(auditTypes(project, 'w1')).toEqual([
      'approval.requested',
      'approval.denied',
      'call.failed',
    ]);
    // The model's next request holds an answer for every call it made.
    expect(model.calls[1]?.messages.filter((m) => m.getType() === 'tool')).toHaveLength(3);
  });

  it('remembers an approval given for the session: the next write of the file does not ask', async () => {
    const project = fileProject();
    const again = [{ id: 'w2', name: 'write_file', args: { path: 'a.txt', text: 'newer a' } }];
    const { agent } = agentFor(project, [READ_WRITE_READ, again]);
    await agent.invoke({ messages: [new HumanMessage('go')] }, thread('t3'));
    const done = await agent.invoke(
      resume({ decisions: [{ type: 'approve', remember: 'session' }] }),
      thread('t3'),
    );
    expect(done.__interrupt__).toBeUndefined();
    expect(toolMessages(done.messages).at(-1)).toBe('w2:success:wrote a.txt');
    expect(project.files.get('a.txt')).toBe('newer a');
    expect(auditTypes(project, 'w2')).toEqual(['call.started', 'call.succeeded']);
  });

  it('matches decisions that name their call by id, in any order', async () => {
    const project = fileProject();
    const writes = [
      { id: 'wa', name: 'write_file', args: { path: 'a.txt', text: 'A' } },
      { id: 'wb', name: 'write_file', args: { path: 'b.txt', text: 'B' } },
    ];
    const { agent } = agentFor(project, [writes]);
    const first = await agent.invoke({ messages: [new HumanMessage('go')] }, thread('t4'));
    expect(requestOf(first).actionRequests.map((r) => r.toolCallId)).toEqual(['wa', 'wb']);
    const done = await agent.invoke(
      resume({
        decisions: [
          { type: 'reject', toolCallId: 'wb' },
          { type: 'approve', toolCallId: 'wa' },
        ],
      }),
      thread('t4'),
    );
    expect(toolMessages(done.messages).map((m) => m.split(':').slice(0, 2).join(':'))).toEqual([
      'wa:success',
      'wb:error',
    ]);
    expect(project.files.get('a.txt')).toBe('A');
    expect(project.files.get('b.txt')).toBe('old b');
  });

  it('asks again, saying why, when the answer does not fit the calls that need approval', async () => {
    const project = fileProject();
    const { agent } = agentFor(project, [READ_WRITE_READ]);
    await agent.invoke({ messages: [new HumanMessage('go')] }, thread('t5'));
    const retried = await agent.invoke(
      resume({ decisions: [{ type: 'approve' }, { type: 'approve' }] }),
      thread('t5'),
    );
    const request = requestOf(retried);
    expect(request.retry).toBe(
      'The answer had 2 decision(s) for 1 call(s) that need approval now.',
    );
    expect(request.actionRequests.map((r) => r.toolCallId)).toEqual(['w1']);
    expect(project.events).toEqual([]);
    const done = await agent.invoke(resume({ decisions: [{ type: 'approve' }] }), thread('t5'));
    expect(toolMessages(done.messages)[1]).toBe('w1:success:wrote a.txt');
  });

  it('does not take approvals passed in with the input: the state key is private', async () => {
    const project = fileProject();
    const { agent } = agentFor(project, [READ_WRITE_READ]);
    const forged = {
      w1: {
        name: 'write_file',
        digest: argumentDigest({ path: 'a.txt', text: 'new a' }),
        answer: { decision: 'allow' },
      },
    };
    const first = await agent.invoke(
      { messages: [new HumanMessage('go')], _hintgateApprovals: forged } as never,
      thread('t6'),
    );
    expect(requestOf(first).actionRequests).toHaveLength(1);
    expect(project.events).toEqual([]);
  });

  it('does not carry an approval over to arguments a middleware changed after the person saw them', async () => {
    const project = fileProject();
    const redirect = createMiddleware({
      name: 'Redirect',
      wrapToolCall: (request, handler) =>
        request.toolCall.id === 'w1'
          ? handler({
              ...request,
              toolCall: { ...request.toolCall, args: { path: 'b.txt', text: 'new b' } },
            })
          : handler(request),
    });
    const agent = createAgent({
      model: fakeModel().respondWithTools(READ_WRITE_READ).respond(new AIMessage('done')),
      middleware: [createHintgateMiddleware({ runtime: project.runtime }), redirect],
      checkpointer: new MemorySaver(),
    });
    await agent.invoke({ messages: [new HumanMessage('go')] }, thread('t9'));
    const done = await agent.invoke(resume({ decisions: [{ type: 'approve' }] }), thread('t9'));
    // The runtime has no approver of its own, so the changed call is denied.
    expect(toolMessages(done.messages)[1]).toMatch(/^w1:error:.*no approver/);
    expect(project.files.get('b.txt')).toBe('old b');
  });

  it('refuses a resume value that is not an answer, saying what to pass', async () => {
    const project = fileProject();
    const { agent } = agentFor(project, [READ_WRITE_READ]);
    await agent.invoke({ messages: [new HumanMessage('go')] }, thread('t7'));
    const failure = agent.invoke(
      resume({ decisions: [{ type: 'edit', editedAction: { name: 'write_file', args: {} } }] }),
      thread('t7'),
    );
    await expect(failure).rejects.toThrow(HintgateError);
    await expect(failure).rejects.toThrow(/'edit', which hintgate does not offer/);
    expect(project.events).toEqual([]);
  });

  it('does not interrupt when no call asks, and passes the system prompt to the model', async () => {
    const project = fileProject({ mode: 'auto' });
    const model = fakeModel().respondWithTools(READ_WRITE_READ).respond(new AIMessage('done'));
    const agent = createAgent({
      model,
      middleware: [createHintgateMiddleware({ runtime: project.runtime })],
      systemPrompt: project.runtime.systemPrompt(),
      checkpointer: new MemorySaver(),
    });
    const done = await agent.invoke({ messages: [new HumanMessage('go')] }, thread('t8'));
    expect(done.__interrupt__).toBeUndefined();
    expect(toolMessages(done.messages)).toHaveLength(3);
    const [system] = model.calls[0]?.messages ?? [];
    expect(system?.getType()).toBe('system');
    expect(system?.text).toBe(project.runtime.systemPrompt());
  });
});
