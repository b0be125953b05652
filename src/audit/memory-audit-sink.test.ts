import { describe, expect, it } from 'vitest';
import type { AuditEvent } from './audit-event.js';
import { createMemoryAuditSink, type MemoryAuditSink } from './memory-audit-sink.js';

const event = (callId: string): AuditEvent => ({
  type: 'call.started',
  time: '2025-01-01T00:00:00.000Z',
  callId,
});

/** Writes `e`, checking that the sink stored it synchronously (no promise to wait for). */
const record = (sink: MemoryAuditSink, e: AuditEvent): void => {
  expect(sink.write(e)).toBeUndefined();
};

describe('createMemoryAuditSink', () => {
  it('keeps events in the order written, synchronously', () => {
    const sink = createMemoryAuditSink();
    record(sink, event('1'));
    record(sink, event('2'));
    expect(sink.events.map((e) => e.callId)).toEqual(['1', '2']);
  });

  it('keeps the event objects themselves', () => {
    const sink = createMemoryAuditSink();
    const first = event('1');
    record(sink, first);
    expect(sink.events[0]).toBe(first);
  });

  it('forgets everything on clear, and records again afterwards', () => {
    const sink = createMemoryAuditSink();
    record(sink, event('1'));
    const view = sink.events;
    sink.clear();
    expect(sink.events).toEqual([]);
    record(sink, event('2'));
    expect(view.map((e) => e.callId)).toEqual(['2']);
  });

  it('keeps separate events per sink', () => {
    const a = createMemoryAuditSink();
    const b = createMemoryAuditSink();
    record(a, event('1'));
    expect(b.events).toEqual([]);
  });
});
