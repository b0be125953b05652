import { describe, expect, it } from 'vitest';
import { AskGatherer } from './ask-gatherer.js';

const turnOver = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('AskGatherer', () => {
  it('puts asks decided in one turn of the event loop into one group, later ones into the next', async () => {
    const groups: string[][] = [];
    const gatherer = new AskGatherer<string>((asks) => groups.push(asks), setImmediate);
    for (let i = 0; i < 3; i += 1) gatherer.arrived();
    gatherer.decided('a');
    gatherer.decided();
    await Promise.resolve();
    gatherer.decided('c');
    expect(groups).toEqual([]);
    await turnOver();
    expect(groups).toEqual([['a', 'c']]);
    gatherer.arrived();
    gatherer.decided('d');
    await turnOver();
    expect(groups).toEqual([['a', 'c'], ['d']]);
  });

  it('waits for every call still being decided, however long it takes', async () => {
    const groups: string[][] = [];
    const gatherer = new AskGatherer<string>((asks) => groups.push(asks), setImmediate);
    gatherer.arrived();
    gatherer.arrived();
    gatherer.decided('a');
    await turnOver();
    await turnOver();
    expect(groups).toEqual([]);
    gatherer.decided('b');
    await turnOver();
    expect(groups).toEqual([['a', 'b']]);
  });
});
