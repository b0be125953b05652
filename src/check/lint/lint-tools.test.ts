import { describe, expect, it } from 'vitest';
import { HintgateError } from '../../errors/hintgate-error.js';
import { LINT_RULES, type LintRuleId } from './lint-rules.js';
import { lintTools } from './lint-tools.js';

/** A tool that breaks no rule. */
const good = {
  name: 'read_note',
  title: 'Read note',
  description: 'Read one note of the notebook by its id.',
  inputSchema: {
    type: 'object',
    properties: { id: { type: 'string', description: 'Id of the note, e.g. "n-12".' } },
    required: ['id'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};

const writer = {
  ...good,
  name: 'append_note',
  title: 'Append to note',
  description: 'Append text to a note of the notebook.',
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
};

const ids = (tools: readonly unknown[], budget?: number): LintRuleId[] =>
  lintTools('notes', tools, budget === undefined ? {} : { descriptionBudget: budget }).map(
    (finding) => finding.id as LintRuleId,
  );

const withHints = (base: object, annotations: object) => ({ ...base, annotations });

interface RuleCase {
  /** Tools that break the rule, linted one at a time. */
  readonly bad: readonly unknown[];
  /** Tools close to them that do not. */
  readonly fine: readonly unknown[];
  /** `bad` and `fine` are each one whole `tools` value, linted as it is. */
  readonly whole?: true;
}

/** For each rule: tools that break it, and tools close to them that do not. */
const CASES: Record<LintRuleId, RuleCase> = {
  'tools-list-invalid': {
    bad: { tools: [] } as unknown as unknown[],
    fine: [good, null],
    whole: true,
  },
  'tool-invalid': { bad: [null, 'read_note', [good], { ...good, name: 42 }], fine: [good] },
  'tool-name-invalid': {
    bad: [
      { ...good, name: 'read note' },
      { ...good, name: 'notes/read' },
      { ...good, name: '' },
      { ...good, name: 'r'.repeat(129) },
      { ...good, name: 'lire_note_é' },
    ],
    fine: [
      { ...good, name: 'notes.read-note_v2' },
      { ...good, name: 'r'.repeat(128) },
      { ...good, name: 'Read_Note' },
    ],
  },
  'tool-name-duplicate': {
    bad: [good, writer, { ...good, title: 'Read note again' }],
    fine: [good, writer, { ...good, name: 'Read_note' }],
    whole: true,
  },
  'annotations-invalid': {
    bad: [
      { ...good, annotations: [true] },
      { ...good, annotations: null },
      { ...good, annotations: 'readOnly' },
      withHints(good, { readOnlyHint: 'true', openWorldHint: false }),
      withHints(good, { readOnlyHint: true, openWorldHint: 0 }),
      withHints(good, { readOnlyHint: true, openWorldHint: false, title: 7 }),
    ],
    fine: [good, withHints(good, { readOnlyHint: true, openWorldHint: false, title: 'Read' })],
  },
  'annotations-missing': {
    bad: [
      { ...good, annotations: undefined },
      withHints(good, {}),
      withHints(good, { title: 'Read note' }),
    ],
    fine: [good, withHints(good, { openWorldHint: true })],
  },
  'annotations-incomplete': {
    bad: [
      withHints(good, { readOnlyHint: true }),
      withHints(writer, { readOnlyHint: false, openWorldHint: false }),
      withHints(writer, { destructiveHint: false, idempotentHint: false, openWorldHint: false }),
    ],
    fine: [good, writer, withHints(good, { readOnlyHint: true, openWorldHint: true })],
  },
  'read-only-destructive': {
    bad: [withHints(good, { readOnlyHint: true, destructiveHint: true, openWorldHint: false })],
    fine: [
      good,
      withHints(good, { readOnlyHint: true, destructiveHint: false, openWorldHint: false }),
      withHints(writer, {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      }),
    ],
  },
  'read-only-not-idempotent': {
    bad: [withHints(good, { readOnlyHint: true, idempotentHint: false, openWorldHint: false })],
    fine: [
      good,
      withHints(good, { readOnlyHint: true, openWorldHint: false }),
      withHints(writer, { ...writer.annotations, idempotentHint: false }),
    ],
  },
  'destructive-name-not-destructive': {
    bad: [
      { ...good, name: 'delete_note', description: 'Read one note.' },
      { ...good, name: 'noteDelete', description: 'Read one note.' },
      { ...good, name: 'rm', description: 'Read one note.' },
      { ...writer, name: 'purge_notes', description: 'Append text.' },
      { ...writer, name: 'overwrite-note', description: 'Append text.' },
      { ...writer, name: 'kill_session', description: 'Append text.' },
    ],
    fine: [
      good,
      { ...good, name: 'list_deleted_notes', title: 'Deleted notes' },
      { ...good, name: 'download_note' },
      withHints(
        { ...writer, name: 'delete_note' },
        { ...writer.annotations, destructiveHint: true },
      ),
      withHints({ ...writer, name: 'delete_note' }, { readOnlyHint: false, openWorldHint: false }),
    ],
  },
  'destructive-description-not-destructive': {
    bad: [
      { ...good, description: 'Reads a note, then deletes it.' },
      { ...writer, description: 'Overwrites the note with the given text.' },
      { ...writer, description: 'Removes the note from the notebook' },
    ],
    fine: [
      good,
      { ...good, description: 'Read one note. Never deletes or changes anything.' },
      { ...good, description: 'Read one note; to delete one, use delete_note.' },
      { ...good, description: 'Read one note with its markup removed.' },
      withHints(
        { ...writer, description: 'Removes the note.' },
        { ...writer.annotations, destructiveHint: true },
      ),
    ],
  },
  'write-name-read-only': {
    bad: [
      { ...good, name: 'create_note' },
      { ...good, name: 'noteUpdate' },
      { ...good, name: 'set-tags' },
      { ...good, name: 'run_query' },
      { ...good, name: 'search_and_replace' },
    ],
    fine: [
      good,
      { ...good, name: 'get_address' },
      { ...good, name: 'get_workflow_run' },
      { ...good, name: 'reset_counter_preview' },
      { ...writer, name: 'create_note' },
    ],
  },
  'read-name-not-read-only': {
    bad: [
      { ...writer, name: 'get_note' },
      { ...writer, name: 'listNotes' },
      withHints({ ...good, name: 'find_note' }, { openWorldHint: false }),
    ],
    fine: [
      good,
      { ...writer, name: 'listen_for_notes' },
      { ...writer, name: 'get_or_create_note' },
      { ...writer, name: 'statistics_add' },
    ],
  },
  'open-world-name-closed': {
    bad: [
      { ...good, name: 'fetch_page' },
      { ...good, name: 'web_search' },
      { ...good, name: 'getURL' },
      { ...writer, name: 'send_email' },
      { ...writer, name: 'post_message' },
      { ...good, name: 'browse' },
    ],
    fine: [
      good,
      { ...good, name: 'grep_search' },
      { ...good, name: 'parse_url' },
      { ...good, name: 'get_post' },
      withHints({ ...good, name: 'fetch_page' }, { readOnlyHint: true, openWorldHint: true }),
      withHints({ ...good, name: 'fetch_page' }, { readOnlyHint: true }),
    ],
  },
  'input-schema-invalid': {
    bad: [
      { ...good, inputSchema: undefined },
      { ...good, inputSchema: 'object' },
      { ...good, inputSchema: {} },
      { ...good, inputSchema: { type: 'string' } },
      { ...good, inputSchema: { type: ['object', 'null'] } },
      { ...good, inputSchema: { type: 'object', properties: [] } },
    ],
    fine: [good, { ...good, inputSchema: { type: 'object', additionalProperties: false } }],
  },
  'input-schema-unconstrained': {
    bad: [
      { ...good, inputSchema: { type: 'object', additionalProperties: true } },
      { ...good, inputSchema: { type: 'object', properties: {}, additionalProperties: {} } },
    ],
    fine: [
      good,
      { ...good, inputSchema: { type: 'object', additionalProperties: { type: 'string' } } },
      {
        ...good,
        inputSchema: {
          type: 'object',
          properties: { a: { description: 'A.' } },
          additionalProperties: true,
        },
      },
    ],
  },
  'input-schema-open': {
    bad: [
      { ...good, inputSchema: { type: 'object' } },
      { ...good, inputSchema: { type: 'object', properties: {} } },
      { ...good, inputSchema: { ...good.inputSchema, additionalProperties: undefined } },
    ],
    fine: [
      good,
      { ...good, inputSchema: { type: 'object', properties: {}, additionalProperties: false } },
      { ...good, inputSchema: { type: 'object', anyOf: [{ required: ['id'] }] } },
    ],
  },
  'property-description-missing': {
    bad: [
      { ...good, inputSchema: { ...good.inputSchema, properties: { id: { type: 'string' } } } },
      { ...good, inputSchema: { ...good.inputSchema, properties: { id: true } } },
      {
        ...good,
        inputSchema: {
          ...good.inputSchema,
          properties: { id: { type: 'string', description: ' ' } },
        },
      },
    ],
    fine: [good, { ...good, inputSchema: { type: 'object', additionalProperties: false } }],
  },
  'output-schema-invalid': {
    bad: [
      { ...good, outputSchema: { type: 'array' } },
      { ...good, outputSchema: 'object' },
      { ...good, outputSchema: {} },
    ],
    fine: [good, { ...good, outputSchema: { type: 'object', properties: {} } }],
  },
  'description-missing': {
    bad: [
      { ...good, description: undefined },
      { ...good, description: '' },
      { ...good, description: '   ' },
      { ...good, description: ['Read'] },
    ],
    fine: [good],
  },
  'description-too-long': {
    bad: [{ ...good, description: 'Read one note. '.repeat(80) }],
    fine: [good, { ...good, description: 'x'.repeat(1024) }],
  },
  'title-missing': {
    bad: [
      { ...good, title: undefined },
      { ...good, title: '' },
      withHints({ ...good, title: undefined }, { ...good.annotations, title: ' ' }),
    ],
    fine: [
      good,
      withHints({ ...good, title: undefined }, { ...good.annotations, title: 'Read note' }),
    ],
  },
};

describe('lintTools', () => {
  it('finds nothing in honest, complete tools', () => {
    expect(lintTools('notes', [good, writer])).toEqual([]);
  });

  it('has a case for every rule', () => {
    expect(Object.keys(CASES).sort()).toEqual(LINT_RULES.map((rule) => rule.id).sort());
  });

  describe.each(Object.entries(CASES))('%s', (id, { bad, fine, whole }) => {
    it('fires on each bad tool', () => {
      const lists = whole ? [bad] : bad.map((tool) => [tool]);
      for (const list of lists) expect(ids(list), JSON.stringify(list)).toContain(id);
    });

    it('does not fire on the tools close to them', () => {
      const lists = whole ? [fine] : fine.map((tool) => [tool]);
      for (const list of lists) expect(ids(list), JSON.stringify(list)).not.toContain(id);
    });
  });

  it('reports a duplicate once per name, with the indexes, and tells the entries apart', () => {
    const findings = lintTools('notes', [good, writer, { ...good, title: undefined }]);
    const duplicate = findings.filter((finding) => finding.id === 'tool-name-duplicate');
    expect(duplicate).toHaveLength(1);
    expect(duplicate[0]?.message).toContain('indexes 0, 2');
    const title = findings.find((finding) => finding.id === 'title-missing');
    expect(title?.evidence).toEqual(['listed at index 2']);
  });

  it('suggests a title made from the tool name', () => {
    const titled = (name: string) =>
      lintTools('notes', [{ ...good, name, title: undefined }]).find(
        (finding) => finding.id === 'title-missing',
      )?.fix;
    expect(titled('delete_note')).toBe('Add a short human-readable `title`, e.g. "Delete note".');
    expect(titled('getFileInfo')).toContain('e.g. "Get file info".');
  });

  it('gives each finding its rule severity, the server, the tool, a message and a fix', () => {
    const findings = lintTools('notes', [
      withHints({ ...good, name: 'delete_note', title: undefined }, { readOnlyHint: true }),
    ]);
    const severities = new Map(LINT_RULES.map((rule) => [rule.id, rule.severity]));
    expect(findings.map((finding) => finding.id)).toEqual([
      'destructive-name-not-destructive',
      'annotations-incomplete',
      'title-missing',
    ]);
    for (const finding of findings) {
      expect(finding.severity).toBe(severities.get(finding.id));
      expect(finding).toMatchObject({ server: 'notes', tool: 'delete_note' });
      expect(finding.message).not.toBe('');
      expect(finding.fix).not.toBe('');
    }
    expect(findings[0]?.message).toContain('"delete"');
    expect(findings[0]?.fix).toContain('`destructiveHint: true`');
    expect(findings[0]?.evidence).toContain('readOnlyHint: true');
  });

  it('says whether the name contradicts readOnlyHint or destructiveHint', () => {
    const [readOnly] = lintTools('notes', [{ ...good, name: 'delete_note' }]);
    const [additive] = lintTools('notes', [{ ...writer, name: 'delete_note' }]);
    expect(readOnly?.message).toContain('readOnlyHint: true');
    expect(readOnly?.fix).toContain('`readOnlyHint: false`');
    expect(additive?.message).toContain('destructiveHint: false');
    expect(additive?.fix).not.toContain('readOnlyHint');
  });

  it('does not report the description when the name already says it deletes', () => {
    const tool = { ...good, name: 'delete_note', description: 'Deletes a note.' };
    expect(ids([tool])).toEqual(['destructive-name-not-destructive']);
  });

  it('sorts by severity, then tool, then rule id', () => {
    const findings = lintTools('notes', [
      { ...good, name: 'b_tool', title: undefined },
      { ...good, name: 'a_tool', title: undefined, description: '' },
      { ...good, name: 'c_tool', annotations: { readOnlyHint: true, openWorldHint: 'no' } },
      null,
    ]);
    expect(findings.map((finding) => [finding.severity, finding.tool, finding.id])).toEqual([
      ['high', undefined, 'tool-invalid'],
      ['high', 'c_tool', 'annotations-invalid'],
      ['medium', 'a_tool', 'description-missing'],
      ['low', 'a_tool', 'title-missing'],
      ['low', 'b_tool', 'title-missing'],
      ['low', 'c_tool', 'annotations-incomplete'],
    ]);
  });

  it('measures descriptions against the configured budget', () => {
    const tool = { ...good, description: 'x'.repeat(200) };
    expect(ids([tool])).toEqual([]);
    expect(ids([tool], 200)).toEqual([]);
    expect(ids([tool], 199)).toEqual(['description-too-long']);
    const [finding] = lintTools('notes', [tool], { descriptionBudget: 100 });
    expect(finding?.message).toContain('200 characters');
    expect(finding?.fix).toContain('at most 100 characters');
  });

  it('suggests a conforming name', () => {
    const [finding] = lintTools('notes', [{ ...good, name: 'read note/v2' }]);
    expect(finding?.fix).toContain('`read_note_v2`');
  });

  it('throws on a bad server name or budget', () => {
    expect(() => lintTools('', [])).toThrow(HintgateError);
    for (const descriptionBudget of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => lintTools('notes', [], { descriptionBudget })).toThrow(/descriptionBudget/);
    }
  });
});
