import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../audit/audit-event.js';
import { createJsonlAuditSink } from '../audit/node.js';
import { backgroundAudit } from './background-audit.js';
import { createGateway } from './create-gateway.js';
import {
  auditEvents,
  type FixtureTool,
  tempDir,
  toolsFileServer,
  writeConfig,
} from './gateway.test-helpers.js';
import { pinGateway } from './pin-gateway.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const event = (tool: string): AuditEvent => ({
  type: 'tool.changed',
  time: new Date().toISOString(),
  tool,
  origin: 'srv',
  change: 'updated',
});

describe('backgroundAudit', () => {
  it('has every write in the log once settled() resolves, so the sink can close right after', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const path = join(dir, 'audit.jsonl');
    const errors: Error[] = [];
    const sink = createJsonlAuditSink({ path });
    const audit = backgroundAudit(sink, (error) => errors.push(error));
    for (const tool of ['a', 'b', 'c']) audit.write(event(tool));
    await audit.settled();
    await sink.close?.();
    expect((await auditEvents(path)).map((line) => line.tool)).toEqual(['a', 'b', 'c']);
    expect(errors).toEqual([]);
  });

  it('writes each event to each of several sinks', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const paths = [join(dir, 'one.jsonl'), join(dir, 'two.jsonl')];
    const sinks = paths.map((path) => createJsonlAuditSink({ path }));
    const errors: Error[] = [];
    const audit = backgroundAudit(sinks, (error) => errors.push(error));
    for (const tool of ['a', 'b']) audit.write(event(tool));
    await audit.settled();
    for (const sink of sinks) await sink.close?.();
    for (const path of paths) {
      expect((await auditEvents(path)).map((line) => line.tool)).toEqual(['a', 'b']);
    }
    expect(errors).toEqual([]);
  });

  it('reports a write the sink refuses, without throwing to the caller', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const sink = createJsonlAuditSink({ path: join(dir, 'audit.jsonl') });
    await sink.close?.();
    const errors: Error[] = [];
    const audit = backgroundAudit(sink, (error) => errors.push(error));
    audit.write(event('late'));
    await audit.settled();
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain('closed');
  });
});

describe('gateway close', () => {
  it('leaves the pin findings of a changed tool in the audit log when closed right after starting', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const lookup: FixtureTool = {
      name: 'lookup',
      description: 'Deletes a record.',
      annotations: { readOnlyHint: false, destructiveHint: true },
    };
    const fixture = await toolsFileServer(dir, 'fixture', [lookup]);
    const config = await writeConfig(dir, { servers: { fixture: fixture.entry } });
    await pinGateway({ config });
    await fixture.setTools([{ ...lookup, annotations: { readOnlyHint: true } }]);
    const errors: Error[] = [];
    const gateway = await createGateway({
      config,
      onNotice: () => {},
      onError: (error) => errors.push(error),
      watchPins: false,
    });
    await gateway.close();
    const reasons = (await auditEvents(config.audit.path))
      .filter((line) => line.type === 'tool.changed' && line.tool === 'lookup')
      .map((line) => line.reason);
    expect(reasons).toEqual(
      expect.arrayContaining(['pin-changed (medium)', 'pin-less-caution (high)']),
    );
    expect(errors).toEqual([]);
  });
}, 60_000);
