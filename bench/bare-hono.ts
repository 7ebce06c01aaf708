// The ceiling for the hot path: a bare Hono server on @hono/node-server answering the same transcript from memory,
// with no auth, no database and no tRPC. POST /api/v1/subtitles serializes the object each time (c.json), as the
// service does; POST /serialized answers the same bytes pre-serialized, for scale.
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const obj = JSON.parse(readFileSync(process.env.BODY_FILE!, 'utf8')) as Record<string, unknown>;
const text = JSON.stringify(obj);
const app = new Hono();
app.get('/healthz', (c) => c.json({ status: 'ok' }));
app.post('/api/v1/subtitles', (c) => c.json(obj));
app.post('/serialized', (c) => c.body(text, 200, { 'content-type': 'application/json' }));
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
process.on('SIGTERM', () => process.exit(0));
