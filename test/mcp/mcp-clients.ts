// The real MCP clients of the SDK, one per protocol revision /mcp serves: v2's Client negotiates 2025-06-18 and
// 2025-11-25 with initialize and pins 2026-07-28 (server/discover, per-request _meta).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export const REVISIONS = ['2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type Revision = (typeof REVISIONS)[number];

export async function clientAt(base: string, key: string, revision: Revision): Promise<Client> {
  const client =
    revision === '2026-07-28'
      ? new Client({ name: 'subtext-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: revision } } })
      : new Client({ name: 'subtext-test', version: '1.0.0' }, { supportedProtocolVersions: [revision] });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', base), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

/** The JSON-RPC error a client call rejected with (code, message, data). */
export async function rejection(p: Promise<unknown>): Promise<{ code: number; message: string; data?: any }> {
  try {
    await p;
  } catch (err) {
    const e = err as { code?: number; message: string; data?: unknown };
    return { code: e.code ?? 0, message: e.message, data: e.data };
  }
  throw new Error('expected the call to fail');
}
