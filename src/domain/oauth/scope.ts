/** The one scope: use the MCP tools as the account (its credits, its rate limit). */
export const MCP_SCOPE = 'mcp';
export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  [MCP_SCOPE]:
    'Use the Subtext tools (transcripts, frames, translations, articles, search) as you, spending your credits',
};
