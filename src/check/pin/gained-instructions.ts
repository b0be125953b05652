import { diffSentences } from 'diff';

/** Longest description compared, in characters; the rest is not searched. */
const MAX_TEXT = 20_000;

/**
 * Phrases that address the model rather than describe the tool: orders to it, to ignore
 * other instructions, to keep something from the user, to send data somewhere, to read
 * secrets, and pseudo-markup that poses as system text. Each pattern is linear-time (no
 * nested quantifiers, bounded gaps), since descriptions come from servers.
 */
const INSTRUCTION_PATTERNS: readonly RegExp[] = [
  /\b(?:you|the (?:assistant|model|ai|agent|llm))\s+(?:must|should|shall|need to|have to|are required to)\b/i,
  /\b(?:always|never|must|first)\s+(?:call|use|run|invoke|read|send|include|pass|ask|tell|execute|fetch|visit|open)\b/i,
  /\b(?:ignore|disregard|forget|override)\b[^.]{0,60}\b(?:instructions?|rules?|guidelines|prompts?|system)\b/i,
  /\b(?:do not|don't|never)\s+(?:tell|inform|mention|reveal|show|notify|alert|ask)\b/i,
  /<\s*\/?\s*(?:important|system|instructions?|secret|hidden|admin)\b/i,
  /\b(?:important|note to (?:the )?(?:assistant|model|ai|agent))\s*[:!]/i,
  /\b(?:send|upload|post|forward|transmit|e-?mail|exfiltrate)\b[^.]{0,60}(?:https?:\/\/|\bto\s+\S+@)/i,
  /\b(?:read|include|send|pass|attach|cat|upload|print)\b[^.]{0,60}(?:~\/\.ssh|id_rsa|\.aws\/|credentials|\.env\b|mcp\.json|private key|api[ _-]?keys?|passwords?|secrets?|tokens?)/i,
];

/** Whether a sentence reads as an instruction to the model (see {@link gainedInstructions}). */
export function isInstruction(sentence: string): boolean {
  return INSTRUCTION_PATTERNS.some((pattern) => pattern.test(sentence));
}

/**
 * The sentences that `after` added to the description `before` and that read as
 * instructions to the model (orders, "ignore previous instructions", "do not tell the
 * user", sending data to an address, reading secrets, `<IMPORTANT>` markup). A tool whose
 * description gains such text after it was reviewed is the classic tool-poisoning change, so
 * reviews call it out. A heuristic: it finds the usual phrasings, not every one.
 */
export function gainedInstructions(before: string, after: string): string[] {
  const added = diffSentences(before.slice(0, MAX_TEXT), after.slice(0, MAX_TEXT))
    .filter((part) => part.added)
    .map((part) => part.value.trim())
    .filter((sentence) => sentence !== '');
  return added.filter(isInstruction);
}
