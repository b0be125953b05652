import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { WRITE } from './presets.js';
import { toToolListing } from './to-tool-listing.js';

const inputSchema = { type: 'object', properties: { id: { type: 'string' } } } as const;

describe('toToolListing', () => {
  it('keeps the three states: absent hints stay absent on the wire, false stays false', () => {
    const tool = defineTool({
      name: 'customer_update',
      description: 'Updates a customer.',
      inputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false },
      execute: () => 'ok',
    });
    const wire = JSON.parse(JSON.stringify(toToolListing(tool)));
    expect(wire.annotations).toStrictEqual({ readOnlyHint: false, destructiveHint: false });
    expect('idempotentHint' in wire.annotations).toBe(false);
    expect('openWorldHint' in wire.annotations).toBe(false);
  });

  it('leaves annotations out when the tool claims none', () => {
    const tool = defineTool({
      name: 'ping',
      description: 'Pings.',
      inputSchema,
      execute: () => 'pong',
    });
    expect(toToolListing(tool)).toStrictEqual({
      name: 'ping',
      description: 'Pings.',
      inputSchema,
    });
  });

  it('renders schemas as JSON Schema, with title, annotations and _meta', () => {
    const tool = defineTool({
      name: 'customer_create',
      title: 'Create customer',
      description: 'Creates a customer.',
      inputSchema: z.object({ name: z.string() }),
      outputSchema: z.object({ customerId: z.string() }),
      annotations: WRITE,
      meta: { 'dev.hintgate/conflicts': ['crm'] },
      execute: () => ({ customerId: 'c1' }),
    });
    const listing = toToolListing(tool);
    expect(listing).toMatchObject({
      name: 'customer_create',
      title: 'Create customer',
      description: 'Creates a customer.',
      annotations: WRITE,
      _meta: { 'dev.hintgate/conflicts': ['crm'] },
    });
    expect(listing.inputSchema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' } },
    });
    expect(listing.outputSchema).toMatchObject({
      type: 'object',
      properties: { customerId: { type: 'string' } },
    });
  });

  it('lists an annotations title alone', () => {
    const tool = defineTool({
      name: 'ping',
      description: 'Pings.',
      inputSchema,
      annotations: { title: 'Ping' },
      execute: () => 'pong',
    });
    expect(toToolListing(tool).annotations).toStrictEqual({ title: 'Ping' });
  });
});
