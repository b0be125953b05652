import type { Tool as McpTool } from '@modelcontextprotocol/client';
import { diffSnapshots, type FileChange, type FileSnapshot, snapshotFiles } from './fs-snapshot.js';
import type { ProbeClient } from './probe-client.js';
import {
  changedTools,
  diffFingerprints,
  type StateFingerprint,
  takeFingerprint,
} from './state-fingerprint.js';
import { diffToolLists, type ToolListChange } from './tool-list-diff.js';

/** What changed while some calls ran. */
export interface Observation {
  /** Files created, modified or deleted in the sandbox. */
  readonly fileChanges: readonly FileChange[];
  /** Fingerprint tools whose output changed, one evidence line each. */
  readonly stateChanges: readonly string[];
  /** The names of those fingerprint tools. */
  readonly stateChangedTools: readonly string[];
  /** How the tool list changed, if it did. */
  readonly listChange?: ToolListChange;
}

/** A change of the tool list seen between observed calls (during fingerprint calls). */
export interface UnattributedListChange {
  readonly change: ToolListChange;
  /** The fingerprint tools called in that interval. */
  readonly during: readonly string[];
}

/**
 * Watches the sandbox's files, the server's state fingerprint and its tool list around
 * calls. The fingerprint taken after one observation serves as the "before" of the next,
 * since nothing runs in between.
 */
export class ProbeObserver {
  readonly #client: ProbeClient;
  readonly #root: string | undefined;
  #fingerprintTools: readonly string[] = [];
  #fingerprint: StateFingerprint | undefined;
  #list: readonly McpTool[];
  readonly #unattributed: UnattributedListChange[] = [];

  /**
   * @param root Directory whose files are watched; `undefined` when the server's files are
   *   out of reach (an HTTP server).
   */
  constructor(client: ProbeClient, root: string | undefined) {
    this.#client = client;
    this.#root = root;
    this.#list = client.tools;
  }

  /** The tools whose zero-argument output stands for the server's state. */
  get fingerprintTools(): readonly string[] {
    return this.#fingerprintTools;
  }

  set fingerprintTools(names: readonly string[]) {
    this.#fingerprintTools = [...names];
    this.#fingerprint = undefined;
  }

  /** The latest tool list read. */
  get tools(): readonly McpTool[] {
    return this.#list;
  }

  /** Tool list changes that happened outside any observed calls. */
  get unattributedListChanges(): readonly UnattributedListChange[] {
    return this.#unattributed;
  }

  async #snapshot(): Promise<FileSnapshot> {
    return this.#root === undefined ? new Map() : snapshotFiles(this.#root);
  }

  async #readList(): Promise<readonly McpTool[]> {
    try {
      return await this.#client.listTools();
    } catch {
      // A server that died or hung keeps its last known list; its calls report the failure.
      return this.#list;
    }
  }

  /** Runs `calls` and reports what changed in files, state and tool list meanwhile. */
  async observe<T>(calls: () => Promise<T>): Promise<{ value: T; observation: Observation }> {
    const fingerprintBefore =
      this.#fingerprint ?? (await takeFingerprint(this.#client, this.#fingerprintTools));
    const listBefore = await this.#readList();
    const between = diffToolLists(this.#list, listBefore);
    if (between !== undefined) {
      this.#unattributed.push({ change: between, during: this.#fingerprintTools });
    }
    const filesBefore = await this.#snapshot();
    const value = await calls();
    const listAfter = await this.#readList();
    const filesAfter = await this.#snapshot();
    const fingerprintAfter = await takeFingerprint(this.#client, this.#fingerprintTools);
    this.#fingerprint = fingerprintAfter;
    this.#list = listAfter;
    const listChange = diffToolLists(listBefore, listAfter);
    return {
      value,
      observation: {
        fileChanges: diffSnapshots(filesBefore, filesAfter),
        stateChanges: diffFingerprints(fingerprintBefore, fingerprintAfter),
        stateChangedTools: changedTools(fingerprintBefore, fingerprintAfter),
        ...(listChange === undefined ? {} : { listChange }),
      },
    };
  }

  /** Reads the tool list once more and records a change since the last observation. */
  async finish(): Promise<void> {
    const list = await this.#readList();
    const change = diffToolLists(this.#list, list);
    if (change !== undefined) this.#unattributed.push({ change, during: this.#fingerprintTools });
    this.#list = list;
  }
}
