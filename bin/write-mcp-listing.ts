// Writes server.json (the MCP Registry listing) from src/bridges/mcp/listing.ts, its one source.
import { writeFileSync } from 'node:fs';
import { registryListing } from '../src/bridges/mcp/listing.ts';

writeFileSync(new URL('../server.json', import.meta.url), `${JSON.stringify(registryListing(), null, 2)}\n`);
console.log('wrote server.json');
