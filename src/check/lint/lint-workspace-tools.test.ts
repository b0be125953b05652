import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toToolListing } from '../../tool/to-tool-listing.js';
import type { ToolListing } from '../../tool/tool.js';
import { createWorkspaceTools, WORKSPACE_TOOL_NAMES } from '../../tools/create-workspace-tools.js';
import { lintTools } from './lint-tools.js';

describe('lintTools on the built-in workspace tools', () => {
  let workspace: string;
  let listings: ToolListing[];

  beforeAll(async () => {
    workspace = await realpath(await mkdtemp(join(tmpdir(), 'hintgate-lint-')));
    listings = createWorkspaceTools({ workspace }).map((tool) => toToolListing(tool));
  });
  afterAll(() => rm(workspace, { recursive: true, force: true }));

  it('finds nothing to change in their annotations, schemas and texts', () => {
    expect(listings.map((listing) => listing.name)).toEqual([...WORKSPACE_TOOL_NAMES]);
    // Not even a low finding: web_fetch is read-only and states idempotentHint: true.
    expect(lintTools('workspace', listings)).toEqual([]);
  });

  it('finds a workspace tool whose annotations were made dishonest', () => {
    const lied = listings.map((listing) =>
      listing.name === 'write_file'
        ? { ...listing, annotations: { ...listing.annotations, readOnlyHint: true } }
        : listing.name === 'web_fetch'
          ? { ...listing, annotations: { ...listing.annotations, openWorldHint: false } }
          : listing,
    );
    const serious = lintTools('workspace', lied)
      .filter((finding) => finding.severity !== 'low')
      .map((finding) => [finding.tool, finding.id]);
    expect(serious).toEqual([
      ['write_file', 'read-only-destructive'],
      ['write_file', 'write-name-read-only'],
      ['web_fetch', 'open-world-name-closed'],
    ]);
  });
});
