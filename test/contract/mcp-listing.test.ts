// SEP-2127 Server Card and server.json come from one source (src/bridges/mcp/listing.ts): the committed server.json is
// what `npm run mcp:listing` writes, the name it sets is the one package.json and the Dockerfile's label carry, and the
// card served at /.well-known/mcp/server-card.json names this deployment's PUBLIC_URL.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTED_VERSION, MCP_LISTING_NAME, registryListing } from '../../src/bridges/mcp/listing.ts';
import { clientAt } from '../mcp/mcp-clients.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

describe('the MCP listing', () => {
  it('server.json is what npm run mcp:listing writes (run it after changing src/bridges/mcp/listing.ts)', () => {
    expect(JSON.parse(read('server.json'))).toEqual(registryListing());
  });

  it('the name and version are set once: package.json mcpName and version, the Dockerfile label follow them', () => {
    const pkg = JSON.parse(read('package.json'));
    expect(pkg.mcpName).toBe(MCP_LISTING_NAME);
    expect(pkg.version).toBe(LISTED_VERSION);
    expect(read('Dockerfile')).toContain(`LABEL io.modelcontextprotocol.server.name="${MCP_LISTING_NAME}"`);
  });

  describe('the Server Card', () => {
    let s: TestServer;
    const PUBLIC_URL = 'https://transcripts.example.org';
    beforeAll(async () => {
      s = await startTestServer({ PUBLIC_URL });
    });
    afterAll(() => s?.close());

    it('is served at /.well-known/mcp/server-card.json, to any origin, with the remote at PUBLIC_URL', async () => {
      const res = await fetch(`${s.url}/.well-known/mcp/server-card.json`, {
        headers: { origin: 'https://x.example' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const card = await res.json();
      const listing = registryListing();
      expect(card).toEqual({
        $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
        name: listing.name,
        title: listing.title,
        description: listing.description,
        version: listing.version,
        remotes: [{ type: 'streamable-http', url: `${PUBLIC_URL}/mcp`, headers: listing.remotes[0]!.headers }],
      });
      expect(card.remotes[0].headers[0]).toMatchObject({ name: 'Authorization', isRequired: false, isSecret: true });
    });

    it('names the server as /mcp introduces itself: initialize answers the listing’s name, title and version', async () => {
      const { key } = await s.newKey();
      const client = await clientAt(s.url, key, '2025-11-25');
      const listing = registryListing();
      expect(client.getServerVersion()).toMatchObject({
        name: MCP_LISTING_NAME.split('/').at(-1),
        title: listing.title,
        version: LISTED_VERSION,
      });
      await client.close();
    });
  });
});
