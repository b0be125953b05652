import { describe, expect, it } from 'vitest';
import { mergeProblems } from './merge-problems.js';

describe('mergeProblems', () => {
  it("keeps every schema problem the checks say nothing about, and the checks' words where they do", () => {
    const schema = [
      { path: ['audit', 'sync'], text: 'is "sometimes"; use one of always, auto.' },
      { path: ['servers', 'a', 'command'], text: 'is not an allowed key here.' },
      { path: ['servers', 'b'], text: 'is 3; use a mapping.' },
      { path: ['pinn'], text: 'is not a key; did you mean "pin"?' },
    ];
    const checks = [
      { path: ['servers', 'a', 'trust'], text: 'is not a server key; did you mean "trusted"?' },
      { path: ['servers', 'b', 'url'], text: 'is "http:", not an http(s) URL.' },
      { path: ['downstream', 'http', 'token'], text: 'is 3 characters long; use at least 8.' },
    ];
    expect(mergeProblems(schema, checks)).toEqual([schema[0], schema[3], ...checks]);
  });

  it('reports the schema alone when the checks find nothing', () => {
    const schema = [{ path: ['mode'], text: 'is "fast"; use one of ask, auto, plan, yolo.' }];
    expect(mergeProblems(schema, [])).toEqual(schema);
  });
});
