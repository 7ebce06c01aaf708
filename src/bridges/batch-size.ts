/**
 * The most calls one HTTP request may carry: a tRPC batch, a JSON-RPC batch on MCP 2025-03-26 (the MCP SDK's own
 * bound). Each call runs at once with the others, and tRPC counts each with a statement of its own, so without a bound
 * one request could put a thousand statements in front of everyone else's. A larger batch is refused whole, before
 * any call runs or is counted.
 */
export const MAX_BATCH_CALLS = 100;
