import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HintgateError } from '../errors/hintgate-error.js';
import { MODES, type Mode } from '../policy/policy-types.js';
import { SPEC_DEFAULT_HINTS } from '../tool/annotations.js';
import { DESTRUCTIVE, READ_ONLY, WRITE } from '../tool/presets.js';
import { CATALOG } from './catalog.test-helpers.js';
import { type PromptTool, promptToolClass } from './prompt-tool.js';
import { selectTools } from './select-tools.js';

const names = (tools: readonly PromptTool[]) => tools.map((tool) => tool.name);
const byName = (name: string) => CATALOG.find((tool) => tool.name === name) as PromptTool;

describe('selectTools relevance', () => {
  it.each([
    ['delete a customer', 'customer_delete'],
    ['search transactions from last month', 'transactions_search'],
    ["what's my bank balance", 'bank_accounts_balances'],
    ['list customers', 'customers_list'],
    ['send the invoice to ACME', 'invoice_send'],
    ['remove bob from the team', 'team_member_remove'],
    ['how much VAT on 100 EUR', 'calculate_tax'],
    ['cancel order 42', 'order_cancel'],
    ['categorize this transaction as travel', 'transaction_categorize'],
    ['profit and loss for last quarter', 'reports_profit_loss'],
    ['search the web for the ECB rate decision', 'web_search'],
  ])('ranks the obvious tool first for %j', (query, expected) => {
    expect(selectTools(query, { tools: CATALOG, maxTools: 5 })[0]?.name).toBe(expected);
  });

  it('matches misspellings and prefixes', () => {
    expect(selectTools('delet custmer', { tools: CATALOG, maxTools: 3 })[0]?.name).toBe(
      'customer_delete',
    );
    expect(names(selectTools('invoic', { tools: CATALOG, maxTools: 40 }))).toEqual(
      expect.arrayContaining(['invoice_send', 'invoices_list', 'invoice_create_draft']),
    );
  });

  it('splits camelCase and dotted names into words', () => {
    const tools: PromptTool[] = [
      { name: 'createInvoiceDraft', description: 'x', annotations: WRITE },
      { name: 'github.issues.close', description: 'y', annotations: DESTRUCTIVE },
      { name: 'unrelated', description: 'z', annotations: READ_ONLY },
    ];
    expect(names(selectTools('invoice draft', { tools, maxTools: 3 }))).toEqual([
      'createInvoiceDraft',
    ]);
    expect(names(selectTools('close github issue', { tools, maxTools: 3 }))).toEqual([
      'github.issues.close',
    ]);
  });

  it('indexes top-level parameter names and their descriptions', () => {
    const tools: PromptTool[] = [
      {
        name: 'payment_lookup',
        description: 'Find a payment.',
        inputSchema: {
          type: 'object',
          properties: { ibanNumber: { type: 'string', description: 'Swift routing code' } },
        },
      },
      { name: 'other', description: 'Something else entirely.' },
    ];
    expect(names(selectTools('iban', { tools, maxTools: 2 }))).toEqual(['payment_lookup']);
    expect(names(selectTools('swift', { tools, maxTools: 2 }))).toEqual(['payment_lookup']);
  });

  it('weighs the name over the title, the title over parameters and parameters over the description', () => {
    const tools: PromptTool[] = [
      { name: 'in_description', description: 'Handles a refund.' },
      {
        name: 'in_parameter',
        description: 'Does a thing.',
        inputSchema: { type: 'object', properties: { refund: {} } },
      },
      { name: 'in_title', title: 'Refund', description: 'Does a thing.' },
      { name: 'refund', description: 'Does a thing.' },
    ];
    expect(names(selectTools('refund', { tools, maxTools: 4 }))).toEqual([
      'refund',
      'in_title',
      'in_parameter',
      'in_description',
    ]);
  });

  it('breaks ties by name, whatever the catalog order', () => {
    const tool = (name: string): PromptTool => ({ name, description: 'Exports the ledger.' });
    const tools = [tool('zeta'), tool('alpha'), tool('mid')];
    expect(names(selectTools('ledger', { tools, maxTools: 3 }))).toEqual(['alpha', 'mid', 'zeta']);
    expect(names(selectTools('ledger', { tools: [...tools].reverse(), maxTools: 3 }))).toEqual([
      'alpha',
      'mid',
      'zeta',
    ]);
  });

  it('returns only matching tools, and nothing for a query that matches none', () => {
    const selected = selectTools('profit', { tools: CATALOG, maxTools: 10 });
    expect(names(selected)).toEqual(['reports_profit_loss']);
    expect(selectTools('zzyzx quux', { tools: CATALOG, maxTools: 10 })).toEqual([]);
  });
});

describe('selectTools limits and filters', () => {
  it('honours maxTools', () => {
    for (const maxTools of [1, 3, 7]) {
      expect(selectTools('customer invoice', { tools: CATALOG, maxTools })).toHaveLength(maxTools);
    }
  });

  it('returns the first maxTools tools by name for a blank query or one of common words only', () => {
    const sorted = [...names(CATALOG)].sort();
    for (const query of ['', '   ', '\n\t', 'what is it']) {
      expect(names(selectTools(query, { tools: CATALOG, maxTools: 4 }))).toEqual(
        sorted.slice(0, 4),
      );
    }
    expect(names(selectTools('', { tools: CATALOG, maxTools: 3, mode: 'plan' }))).toEqual([
      'bank_accounts_balances',
      'bank_accounts_list',
      'calculate_tax',
    ]);
    expect(
      names(selectTools('', { tools: CATALOG, maxTools: 2, excludeDestructive: true })),
    ).toEqual(['bank_accounts_balances', 'bank_accounts_list']);
  });

  it('leaves destructive tools out of the ranking with excludeDestructive, filling maxTools with others', () => {
    const selected = selectTools('delete a customer', {
      tools: CATALOG,
      maxTools: 3,
      excludeDestructive: true,
    });
    expect(names(selected)).not.toContain('customer_delete');
    expect(selected).toHaveLength(3);
    expect(selected.every((tool) => promptToolClass(tool) !== 'destructive')).toBe(true);
  });

  it('treats a tool without annotations and an untrusted one as destructive', () => {
    const tools: PromptTool[] = [
      { name: 'notes_search', description: 'Search notes.' },
      {
        name: 'notes_find',
        description: 'Search notes.',
        annotations: READ_ONLY,
        effective: SPEC_DEFAULT_HINTS,
      },
      { name: 'notes_grep', description: 'Search notes.', annotations: READ_ONLY },
    ];
    expect(
      names(selectTools('search notes', { tools, maxTools: 3, excludeDestructive: true })),
    ).toEqual(['notes_grep']);
    expect(names(selectTools('search notes', { tools, maxTools: 3, mode: 'plan' }))).toEqual([
      'notes_grep',
    ]);
  });

  it('appends alwaysActive tools beyond maxTools, in the given order, destructive ones too', () => {
    const selected = selectTools("what's my bank balance", {
      tools: CATALOG,
      maxTools: 1,
      excludeDestructive: true,
      alwaysActive: ['close_account', 'web_search', 'bank_accounts_balances', 'web_search'],
    });
    expect(names(selected)).toEqual(['bank_accounts_balances', 'close_account', 'web_search']);
  });

  it('in plan mode drops non-read tools from alwaysActive too', () => {
    const selected = selectTools('delete a customer', {
      tools: CATALOG,
      maxTools: 3,
      mode: 'plan',
      alwaysActive: ['customer_delete', 'customer_create', 'web_search'],
    });
    expect(names(selected)).not.toContain('customer_delete');
    expect(names(selected)).not.toContain('customer_create');
    expect(names(selected).at(-1)).toBe('web_search');
    expect(selected.every((tool) => promptToolClass(tool) === 'read')).toBe(true);
  });

  const WORDS = [
    'delete',
    'customer',
    'invoice',
    'send',
    'bank',
    'balance',
    'search',
    'transactions',
    'team',
    'remove',
    'order',
    'cancel',
    'close',
    'account',
    'archive',
    'the',
    'my',
    'web',
    'x',
  ];
  const query = fc.array(fc.constantFrom(...WORDS), { maxLength: 5 }).map((w) => w.join(' '));
  const alwaysActive = fc.subarray(names(CATALOG));

  it('returns the first maxTools of the whole ranking, for any maxTools and filter', () => {
    fc.assert(
      fc.property(query, fc.integer({ min: 1, max: 45 }), fc.boolean(), (q, maxTools, exclude) => {
        const options = { tools: CATALOG, excludeDestructive: exclude };
        const all = names(selectTools(q, { ...options, maxTools: CATALOG.length }));
        expect(names(selectTools(q, { ...options, maxTools }))).toEqual(all.slice(0, maxTools));
      }),
    );
  });

  it('never ranks a destructive tool with excludeDestructive, and keeps every alwaysActive tool', () => {
    fc.assert(
      fc.property(query, fc.integer({ min: 1, max: 45 }), alwaysActive, (q, maxTools, always) => {
        const selected = selectTools(q, {
          tools: CATALOG,
          maxTools,
          excludeDestructive: true,
          alwaysActive: always,
        });
        const alwaysSet = new Set(always);
        const ranked = selected.filter((tool) => !alwaysSet.has(tool.name));
        expect(ranked.length).toBeLessThanOrEqual(maxTools);
        expect(ranked.filter((tool) => promptToolClass(tool) === 'destructive')).toEqual([]);
        expect(names(selected)).toEqual(expect.arrayContaining(always));
        expect(new Set(names(selected)).size).toBe(selected.length);
      }),
    );
  });

  it('never offers a tool that is not read-only in plan mode', () => {
    fc.assert(
      fc.property(
        query,
        fc.integer({ min: 1, max: 45 }),
        alwaysActive,
        fc.boolean(),
        (q, maxTools, always, excludeDestructive) => {
          const selected = selectTools(q, {
            tools: CATALOG,
            maxTools,
            alwaysActive: always,
            excludeDestructive,
            mode: 'plan',
          });
          expect(selected.filter((tool) => promptToolClass(tool) !== 'read')).toEqual([]);
          const reads = always.filter((name) => promptToolClass(byName(name)) === 'read');
          expect(names(selected)).toEqual(expect.arrayContaining(reads));
        },
      ),
    );
  });

  it('does not filter in the other modes', () => {
    for (const mode of MODES.filter((m): m is Exclude<Mode, 'plan'> => m !== 'plan')) {
      expect(selectTools('delete a customer', { tools: CATALOG, maxTools: 1, mode })[0]?.name).toBe(
        'customer_delete',
      );
    }
  });
});

describe('selectTools validation', () => {
  it('throws for an alwaysActive name that is not in the catalog, naming it', () => {
    const call = () =>
      selectTools('x', { tools: CATALOG, maxTools: 2, alwaysActive: ['web_search', 'hand_over'] });
    expect(call).toThrow(HintgateError);
    expect(call).toThrow(
      expect.objectContaining({
        code: 'invalid_option',
        message: expect.stringContaining('"hand_over"'),
      }),
    );
    expect(() =>
      selectTools('x', { tools: CATALOG, maxTools: 2, mode: 'plan', alwaysActive: ['nope'] }),
    ).toThrow(/"nope"/);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects maxTools %s', (maxTools) => {
    expect(() => selectTools('x', { tools: CATALOG, maxTools })).toThrow(
      expect.objectContaining({
        code: 'invalid_option',
        message: expect.stringContaining('maxTools must be a positive integer'),
      }),
    );
  });

  it('rejects a query that is not a string, an unknown mode and duplicate names', () => {
    expect(() =>
      selectTools(undefined as unknown as string, { tools: CATALOG, maxTools: 1 }),
    ).toThrow(
      expect.objectContaining({
        code: 'invalid_option',
        message: expect.stringContaining('query must be a string'),
      }),
    );
    expect(() => selectTools('x', { tools: CATALOG, maxTools: 1, mode: 'all' as Mode })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
    const tools = [byName('web_search'), byName('web_search')];
    expect(() => selectTools('x', { tools, maxTools: 1 })).toThrow(
      expect.objectContaining({ code: 'duplicate_tool' }),
    );
  });

  it('keeps the element type of the catalog', () => {
    const tools = [{ ...byName('web_search'), origin: 'remote' }];
    const [first] = selectTools('web', { tools, maxTools: 1 });
    expect(first?.origin).toBe('remote');
  });
});
