// The public contract, as clients see it. A change here is a change for every REST and MCP client: review the
// diff, then update with `npx vitest run test/foundation/contract.test.ts -u`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp } from '../support/security-checks.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer();
  ({ key } = await s.newKey());
});
afterAll(() => s?.close());

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

describe('contract', () => {
  it('the OpenAPI document', async () => {
    const res = await fetch(`${s.url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = await res.json();
    // The server URL follows PUBLIC_URL (here a random port); everything else is the contract.
    for (const server of doc.servers ?? []) server.url = server.url.replace(s.url, 'https://subtext.example');
    for (const item of Object.values<any>(doc.paths))
      for (const server of item.servers ?? []) server.url = server.url.replace(s.url, 'https://subtext.example');
    await expect(json(doc)).toMatchFileSnapshot('__snapshots__/openapi.json');
  });

  it('the MCP tools/list', async () => {
    const client = await connectMcp(s.url, { authorization: `Bearer ${key}` });
    const { tools } = await client.listTools();
    await client.close();
    await expect(json(tools)).toMatchFileSnapshot('__snapshots__/mcp-tools.json');
  });

  it('every REST operation and MCP tool comes from the router, with the spec’s names', async () => {
    const doc = await (await fetch(`${s.url}/api/v1/openapi.json`)).json();
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      if (item.servers) continue; // OAuth and /healthz-like paths at the origin: test/contract/openapi-lint.test.ts
      for (const [method, op] of Object.entries<any>(item)) {
        // Every operation is keyed and documents the spec's error body for 401 and 429.
        expect(op.security, `${method} ${path}`).toEqual([{ bearer: [] }, { apiKey: [] }]);
        for (const status of ['401', '429', '500']) {
          expect(op.responses[status]?.content?.['application/json']?.schema?.$ref, `${method} ${path} ${status}`).toBe(
            '#/components/schemas/Error',
          );
        }
      }
    }
    const client = await connectMcp(s.url, { authorization: `Bearer ${key}` });
    const { tools } = await client.listTools();
    await client.close();
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.description?.length).toBeGreaterThan(20);
    }
  });
});
