/** The first MCP protocol revision of the modern era: no `initialize`, an envelope on every request. */
export const MODERN_REVISION = '2026-07-28';

/**
 * Whether a negotiated protocol revision is of the modern era (revisions are dates, so they
 * order as strings); `undefined`, nothing negotiated yet, is not.
 */
export const isModernRevision = (revision: string | undefined): boolean =>
  revision !== undefined && revision >= MODERN_REVISION;
