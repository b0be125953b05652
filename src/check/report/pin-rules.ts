import type { CheckRule } from '../check-types.js';
import type { PinFinding, PinFindingId } from '../pin/index.js';
import type { ReportedFinding } from './check-report.js';

const PIN_RULE_TEXT: Record<PinFindingId, Omit<CheckRule, 'id' | 'kind'> & { fix: string }> = {
  'pin-less-caution': {
    severity: 'high',
    summary: 'A pinned tool now claims a hint that asks for less caution than when it was pinned.',
    help: 'readOnlyHint false -> true, destructiveHint true -> false, idempotentHint false -> true or openWorldHint true -> false (effective values) lets clients run the tool in parallel, without approval, or retry it. The gateway holds the tool back until it is pinned again. Check that the tool really changed, then pin it with `hintgate pin`.',
    fix: 'Check that the tool really changed this way, then pin it again with `hintgate pin` (or `hintgate check --probe --write-pin`).',
  },
  'pin-changed': {
    severity: 'medium',
    summary: 'A pinned tool is listed with another definition than the one pinned.',
    help: 'Name, title, description, schemas, annotations or hint _meta changed since `hintgate pin`; the message names the hints that moved and a changed `annotations.custom.rateLimit` (`custom.rateLimit 2 per 60000 ms -> absent`). The gateway holds the tool back until the new definition is reviewed and pinned.',
    fix: 'Review the new definition, then pin it with `hintgate pin`.',
  },
  'pin-renamed': {
    severity: 'medium',
    summary: 'A tool has the pinned definition of another name that is no longer listed.',
    help: 'The tool was renamed. It is not pinned under its new name, so the gateway holds it back until it is pinned.',
    fix: 'If the rename is expected, pin it with `hintgate pin`.',
  },
  'pin-new': {
    severity: 'low',
    summary: 'A listed tool is not in the pin file.',
    help: 'By default (pin.newTools: pending) the gateway holds back tools that are not pinned yet.',
    fix: 'Review the tool, then pin it with `hintgate pin`.',
  },
  'pin-removed': {
    severity: 'low',
    summary: 'A pinned tool is no longer listed.',
    help: 'The server stopped offering a tool that was pinned. Nothing runs it; the pin is stale.',
    fix: 'Pin again with `hintgate pin` to drop it from the pin file.',
  },
};

/** The rules of the pin comparison `hintgate check` makes when a pin file exists. */
export const PIN_RULES: readonly CheckRule[] = Object.freeze(
  (Object.keys(PIN_RULE_TEXT) as PinFindingId[]).map((id) => {
    const { severity, summary, help } = PIN_RULE_TEXT[id];
    return Object.freeze({ id, kind: 'pin' as const, severity, summary, help });
  }),
);

/** A pin comparison finding as a check finding, with the fix its rule gives. */
export function pinCheckFinding(finding: PinFinding): ReportedFinding {
  const evidence =
    finding.move === undefined
      ? undefined
      : [
          `${finding.move.hint}: claimed ${String(finding.move.from ?? 'absent')} -> ${String(finding.move.to ?? 'absent')}`,
        ];
  return {
    kind: 'pin',
    id: finding.id,
    severity: finding.severity,
    server: finding.server,
    tool: finding.tool,
    message: finding.message,
    fix: PIN_RULE_TEXT[finding.id].fix,
    ...(evidence === undefined ? {} : { evidence }),
  };
}
