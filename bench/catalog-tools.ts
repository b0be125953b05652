/**
 * A big catalog for the catalog benchmarks (bench/catalog.ts): `catalogTools(n)` lists `n`
 * tools as a SaaS MCP server would, deterministic for a given `n`. Every tool has its own
 * input schema (2-6 parameters of mixed types, some with patterns, enums, bounds and
 * defaults; a third with an output schema), so no two schemas are identical and nothing can
 * be shared between them.
 */

const SERVICES = [
  'billing',
  'crm',
  'issues',
  'wiki',
  'calendar',
  'mail',
  'storage',
  'deploy',
  'metrics',
  'alerts',
  'chat',
  'docs',
  'hr',
  'payroll',
  'inventory',
  'orders',
  'shipping',
  'support',
  'analytics',
  'auth',
  'search',
  'forms',
  'surveys',
  'tickets',
  'contracts',
];
const VERBS = ['list', 'get', 'create', 'update', 'delete', 'archive', 'search', 'export'];
const NOUNS = [
  'customer',
  'invoice',
  'payment',
  'project',
  'task',
  'comment',
  'user',
  'team',
  'event',
  'message',
  'file',
  'folder',
  'release',
  'build',
  'dashboard',
  'report',
  'rule',
  'channel',
  'page',
  'record',
  'employee',
  'product',
  'shipment',
  'refund',
  'subscription',
  'webhook',
  'label',
  'milestone',
  'note',
  'template',
];
const FIELDS = [
  'id',
  'name',
  'email',
  'status',
  'limit',
  'cursor',
  'since',
  'until',
  'owner',
  'tags',
  'amount',
  'currency',
  'priority',
  'title',
  'body',
  'region',
  'force',
  'dryRun',
  'format',
  'query',
  'sort',
  'parentId',
  'dueDate',
  'color',
];

/** One tool of a `tools/list` answer. */
export interface CatalogTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: { readonly type: 'object'; readonly [key: string]: unknown };
  readonly outputSchema?: { readonly type: 'object'; readonly [key: string]: unknown };
  readonly annotations: Record<string, boolean | string>;
}

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length] as T;

function property(field: string, n: number): Record<string, unknown> {
  const description = `The ${field} of the item (variant ${n}).`;
  switch (n % 6) {
    case 0:
      return { type: 'string', description, pattern: `^[a-z0-9_-]{1,${8 + (n % 50)}}$` };
    case 1:
      return { type: 'integer', description, minimum: 0, maximum: 100 + n };
    case 2:
      return { type: 'boolean', description, default: n % 2 === 0 };
    case 3:
      return { type: 'string', description, enum: ['low', 'medium', 'high', `level${n}`] };
    case 4:
      return { type: 'array', description, items: { type: 'string', maxLength: 20 + n } };
    default:
      return { type: 'string', description, format: n % 2 === 0 ? 'email' : 'date-time' };
  }
}

/** Tool `n` of the catalog. */
export function catalogTool(n: number): CatalogTool {
  const service = pick(SERVICES, n);
  const verb = pick(VERBS, Math.floor(n / SERVICES.length));
  const noun = pick(NOUNS, Math.floor(n / (SERVICES.length * VERBS.length)) + n);
  const name = `${service}_${verb}_${noun}_${n}`;
  const count = 2 + (n % 5);
  const properties: Record<string, unknown> = {};
  for (let p = 0; p < count; p += 1)
    properties[pick(FIELDS, n + p * 7)] = property(FIELDS[p] ?? 'x', n + p);
  const readOnly = verb === 'list' || verb === 'get' || verb === 'search' || verb === 'export';
  return {
    name,
    title: `${verb} ${noun} (${service})`,
    description: `${verb[0]?.toUpperCase()}${verb.slice(1)} a ${noun} in ${service}. Returns the ${noun} with its fields; use the ${Object.keys(properties).join(', ')} parameters to narrow it down.`,
    inputSchema: {
      type: 'object' as const,
      properties,
      required: [Object.keys(properties)[0]],
      additionalProperties: false,
    },
    ...(n % 3 === 0
      ? {
          outputSchema: {
            type: 'object' as const,
            properties: {
              id: { type: 'string' },
              [noun]: { type: 'object', properties: { n: { const: n } } },
            },
            required: ['id'],
          },
        }
      : {}),
    annotations: {
      title: `${verb} ${noun}`,
      readOnlyHint: readOnly,
      destructiveHint: verb === 'delete',
      idempotentHint: verb !== 'create',
      openWorldHint: false,
    },
  };
}

/** The first `n` tools of the catalog. */
export const catalogTools = (n: number): CatalogTool[] =>
  Array.from({ length: n }, (_, index) => catalogTool(index));
