/**
 * The MCP protocol revisions /mcp serves, newest first: the one list `initialize` negotiates from, `server/discover`
 * answers and every UnsupportedProtocolVersion error (-32022) names in `data.supported`. 2025-03-26 is the last
 * revision with JSON-RPC batches (answered, see src/bridges/mcp/endpoint.ts); older revisions are not served.
 */
export const MCP_REVISIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] as const;

export const isServedRevision = (v: unknown): boolean => (MCP_REVISIONS as readonly unknown[]).includes(v);

/** MCP 2026-07-28's UnsupportedProtocolVersion error code. */
export const UNSUPPORTED_VERSION = -32022;
/** JSON-RPC's invalid params. */
export const INVALID_PARAMS = -32602;
