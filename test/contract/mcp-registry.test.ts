// server.json, the MCP Registry's listing of this service, against the registry's published schema (vendored, see
// mcp-registry/SOURCE.md), and against what it names here: package.json's mcpName and version, the image's label,
// the MCP endpoint's path.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { MCP_PATH } from '../../src/bridges/mcp/path.ts';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

const SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
const SCHEMA_SHA256 = '3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0';
const schemaText = read('test/contract/mcp-registry/server.schema.json');
const server = JSON.parse(read('server.json'));
const pkg = JSON.parse(read('package.json'));

// Draft-07, as the schema declares; `example` is an annotation of the OpenAPI the schema is generated from.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => void;
const ajv = new Ajv({ allErrors: true });
addFormats(ajv);
ajv.addKeyword('example');
const validate = ajv.compile(JSON.parse(schemaText));
const errorsOf = (doc: unknown) => (validate(doc) ? [] : validate.errors!.map((e) => `${e.instancePath} ${e.message}`));

describe('server.json (MCP Registry)', () => {
  it('is checked against the published 2025-12-11 schema, unmodified', () => {
    expect(createHash('sha256').update(schemaText).digest('hex')).toBe(SCHEMA_SHA256);
    expect(JSON.parse(schemaText).$id).toBe(SCHEMA_URL);
    expect(server.$schema).toBe(SCHEMA_URL);
  });

  it('validates', () => {
    expect(errorsOf(server)).toEqual([]);
  });

  it('and the validator does refuse what the registry refuses', () => {
    expect(errorsOf({ ...server, name: 'subtext' })).not.toEqual([]);
    expect(errorsOf({ ...server, description: 'x'.repeat(101) })).not.toEqual([]);
    expect(errorsOf({ ...server, remotes: [{ type: 'streamable-http', url: 'not a url' }] })).not.toEqual([]);
  });

  it('names what this repository ships: mcpName, version, the image and its label, the MCP endpoint', () => {
    expect(pkg.mcpName).toBe(server.name);
    expect(server.version).toBe(pkg.version);
    const image = server.packages.find((p: { registryType: string }) => p.registryType === 'oci');
    expect(image.identifier).toMatch(new RegExp(`:${pkg.version.replaceAll('.', '\\.')}$`));
    expect(read('Dockerfile')).toContain(`LABEL io.modelcontextprotocol.server.name="${server.name}"`);
    expect(new URL(image.transport.url).pathname).toBe(MCP_PATH);
    expect(server.remotes.map((r: { url: string }) => r.url)).toEqual([`https://{host}${MCP_PATH}`]);
  });
});
