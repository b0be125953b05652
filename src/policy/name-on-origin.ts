import type { Tool } from '../tool/index.js';

/** A call or rule subject: the name a tool is offered under, and the tool. */
export interface NamedSubject {
  /** The name the tool is offered and called under. */
  readonly name: string;
  /** The tool; its `nameOnOrigin`, when set, is its name on its origin. */
  readonly tool?: Pick<Tool, 'nameOnOrigin'>;
}

/**
 * The tool's name on its origin: what, with the origin, identifies it to rules and
 * remembered approvals, whatever name it is offered under (a gateway's `github__search` is
 * `search` of origin `github`).
 */
export function nameOnOrigin(subject: NamedSubject): string {
  return subject.tool?.nameOnOrigin ?? subject.name;
}
