import { describe, expect, it } from 'vitest';
import type { ProbeClient } from './probe-client.js';
import { settleFingerprint } from './state-fingerprint.js';

/** A client whose zero-argument tools answer with `answer(name)` on each call. */
const clientOf = (answer: (name: string) => string): ProbeClient =>
  ({
    callTool: async (name: string) => ({
      ok: true,
      result: { content: [{ type: 'text', text: answer(name) }] },
    }),
  }) as unknown as ProbeClient;

describe('settleFingerprint', () => {
  it('keeps tools that stay put', async () => {
    const settled = await settleFingerprint(
      clientOf((name) => `${name}: same`),
      ['env', 'image'],
    );
    expect(settled).toEqual({ tools: ['env', 'image'], culprits: [] });
  });

  it('drops a tool whose answer changes on its own (a clock) and keeps the others', async () => {
    let tick = 0;
    const settled = await settleFingerprint(
      clientOf((name) => {
        if (name !== 'clock') return `${name}: same`;
        tick += 1;
        return `now ${tick}`;
      }),
      ['env', 'clock', 'image'],
    );
    expect(settled).toEqual({ tools: ['env', 'image'], culprits: [] });
  });

  it('drops a tool whose call moves another, with the evidence', async () => {
    let count = 0;
    const settled = await settleFingerprint(
      clientOf((name) => {
        if (name === 'status') count += 1;
        return name === 'counter' ? `calls ${count}` : `${name}: same`;
      }),
      ['counter', 'status'],
    );
    expect(settled.tools).toEqual(['counter']);
    expect(settled.culprits.map((culprit) => culprit.tool)).toEqual(['status']);
    expect(settled.culprits[0]?.evidence.join('\n')).toMatch(/counter .* returned "calls \d+"/);
  });
});
