import { describe, expect, it } from 'vitest';
import type { ContentBlock } from '../../tool/index.js';
import { toModelOutput } from './to-model-output.js';

const ok = (content: ContentBlock[]) => toModelOutput({ content, isError: false });

describe('toModelOutput', () => {
  it('gives a failed call to the model as error-text', () => {
    expect(
      toModelOutput({
        isError: true,
        content: [{ type: 'text', text: 'The call to "rm" was denied: no.' }],
      }),
    ).toEqual({ type: 'error-text', value: 'The call to "rm" was denied: no.' });
  });

  it('names blocks that are not text in an error, one per line', () => {
    expect(
      toModelOutput({
        isError: true,
        content: [
          { type: 'text', text: 'failed' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'resource_link', uri: 'file:///log.txt', name: 'log' },
        ],
      }),
    ).toEqual({
      type: 'error-text',
      value: 'failed\n[image image/png]\n[resource_link file:///log.txt]',
    });
  });

  it('gives one text block as text, and no content as empty text', () => {
    expect(ok([{ type: 'text', text: 'hello' }])).toEqual({ type: 'text', value: 'hello' });
    expect(ok([])).toEqual({ type: 'text', value: '' });
  });

  it('gives several blocks as content, images, audio and blobs as files', () => {
    expect(
      ok([
        { type: 'text', text: 'a chart' },
        { type: 'image', data: 'iVBOR', mimeType: 'image/png' },
        { type: 'audio', data: 'UklGR', mimeType: 'audio/wav' },
        {
          type: 'resource',
          resource: { uri: 'mem://x', blob: 'AAEC', mimeType: 'application/pdf' },
        },
        { type: 'resource', resource: { uri: 'mem://y', text: 'inline text' } },
        { type: 'resource_link', uri: 'https://example.com/r', name: 'r' },
      ]),
    ).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'a chart' },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'iVBOR' } },
        { type: 'file', mediaType: 'audio/wav', data: { type: 'data', data: 'UklGR' } },
        { type: 'file', mediaType: 'application/pdf', data: { type: 'data', data: 'AAEC' } },
        { type: 'text', text: 'inline text' },
        { type: 'text', text: '[resource_link https://example.com/r]' },
      ],
    });
  });

  it('describes a block with missing or ill-typed fields instead of passing them on', () => {
    expect(
      ok([
        { type: 'image', data: 42, mimeType: 'image/png' },
        { type: 'audio', data: 'x' },
        { type: 'resource', resource: null },
      ]),
    ).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: '[image image/png]' },
        { type: 'text', text: '[audio]' },
        { type: 'text', text: '[resource]' },
      ],
    });
  });
});
