// The scopes a grant can carry, and the resource (RFC 8707 audience) each one's tokens are for.

/** Use the MCP tools as the account (its credits, its rate limit): tokens for /mcp. */
export const MCP_SCOPE = 'mcp';
/** Call REST (/api/v1) and tRPC (/trpc) as the account: tokens for the service's origin, e.g. a browser app's. */
const API_SCOPE = 'api';
export const SCOPES = [MCP_SCOPE, API_SCOPE] as const;

export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  [MCP_SCOPE]:
    'Use the Subtext tools (transcripts, frames, translations, articles, search) as you, spending your credits',
  [API_SCOPE]: 'Call the Subtext API (REST and tRPC) as you from this application, spending your credits',
};

/** The resource each scope's tokens are issued for: `mcp` the /mcp endpoint, `api` the service's origin. */
export interface ScopeResources {
  mcp: string;
  api: string;
}

export const scopeResources = (publicUrl: string): ScopeResources => ({ mcp: `${publicUrl}/mcp`, api: publicUrl });

export const scopeList = (scope: string | undefined) => (scope ?? '').split(' ').filter(Boolean);

/** The audiences of a token with this scope: one resource per scope it carries. */
export const resourcesOf = (scope: string, resources: ScopeResources) =>
  scopeList(scope).flatMap((s) => (s === MCP_SCOPE || s === API_SCOPE ? [resources[s]] : []));

/** A registration's scope (RFC 7591 2): known scopes only; absent is "mcp", what every client had before "api". */
export function registeredScope(given: unknown): string | null {
  if (given === undefined) return MCP_SCOPE;
  const list = typeof given === 'string' ? scopeList(given) : [];
  if (!list.length || list.some((s) => !(SCOPES as readonly string[]).includes(s))) return null;
  return [...new Set(list)].join(' ');
}
