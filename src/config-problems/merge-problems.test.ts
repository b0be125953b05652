import { describe, expect, it } from 'vitest';
import { mergeProblems } from './merge-problems.js';

describe('mergeProblems', () => {
  it("keeps every schema problem the checks say nothing about, and the checks' words where they do", () => {
    const schema = [
      { path: ['audit', 'sync'], text: 'is "sometimes"; use one of always, auto.' },
      { path: ['servers', 'a', 'command'], text: 'is not an allowed key here.' },
      { path: ['servers', 'b'], text: 'is 3; use a mapping.' },
      { path: ['servers', 'b', 'url', 'x'], text: 'is inside.' },
      { path: ['pinn'], text: 'is not a key; did you mean "pin"?' },
    ];
    const checks = [
      { path: ['servers', 'a', 'trust'], text: 'is not a server key; did you mean "trusted"?' },
      { path: ['servers', 'b', 'url'], text: 'is "http:", not an http(s) URL.' },
      { path: ['downstream', 'http', 'token'], text: 'is 3 characters long; use at least 8.' },
    ];
    expect(mergeProblems(schema, checks)).toEqual([
      schema[0],
      schema[1],
      schema[2],
      schema[4],
      ...checks,
    ]);
  });

  it('reports the schema alone when the checks find nothing', () => {
    const schema = [{ path: ['mode'], text: 'is "fast"; use one of ask, auto, plan, yolo.' }];
    expect(mergeProblems(schema, [])).toEqual(schema);
  });
});

describe('mergeProblems around a checked value', () => {
  it('keeps the schema problems of the other keys and of the mapping around a check', () => {
    const schema = [
      { path: ['rules', 2, 'priority'], text: 'is "x"; use a number.' },
      { path: ['rules', 2], text: 'has no "decision"; add it.' },
      { path: ['rules', 2, 'tool', 'x'], text: 'is inside.' },
    ];
    const checks = [{ path: ['rules', 2, 'tool'], text: 'is "[": the "[" is never closed.' }];
    expect(mergeProblems(schema, checks)).toEqual([schema[0], schema[1], ...checks]);
  });
});
