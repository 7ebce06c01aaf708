/** Where the MCP endpoint is mounted; the listings name it too. */
export const MCP_PATH = '/mcp';
