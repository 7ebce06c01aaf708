import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpsApp } from '../../src/bridges/ops-routes.ts';
import { mcpClient, rest, trpcClient } from '../support/clients.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';

/** Prometheus text format: sample lines as name -> [{ labels, value }]. */
function parseSamples(text: string): Map<string, { labels: Record<string, string>; value: number }[]> {
  const out = new Map<string, { labels: Record<string, string>; value: number }[]>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]),
    );
    out.set(m[1]!, [...(out.get(m[1]!) ?? []), { labels, value: Number(m[3]) }]);
  }
  return out;
}

const sample = (s: ReturnType<typeof parseSamples>, name: string, labels: Record<string, string>) =>
  s.get(name)?.find((x) => Object.entries(labels).every(([k, v]) => x.labels[k] === v))?.value;

describe('/metrics', () => {
  let s: TestServer;
  const video = fakeVideoSource();
  const scrape = async () => {
    const res = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseSamples(await res.text());
  };

  beforeAll(async () => {
    s = await startTestServer({ METRICS_TOKEN: TOKEN, DAILY_FREE_CREDITS: '10' }, { youtube: video });
    // Traffic on every surface: a charged extraction (a job), a cached repeat, an error, MCP and tRPC calls, a 401.
    const { key } = await s.newKey({ credits: 10 });
    expect((await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: 'aaaaaaaaaaa' } })).status).toBe(200);
    expect((await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: 'aaaaaaaaaaa' } })).status).toBe(200);
    expect((await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: 'not a video' } })).status).toBe(400);
    expect((await rest(s.url, 'GET', '/credits', { key: 'sk_wrong' })).status).toBe(401);
    const mcp = await mcpClient(s.url, key);
    await mcp.callTool({ name: 'get_credits', arguments: {} });
    await mcp.close();
    await trpcClient(s.url, key).credits.get.query({});
  });
  afterAll(async () => {
    await s?.close();
  });

  it('refuses a scrape without the token, or with a wrong one', async () => {
    const none = await fetch(`${s.url}/metrics`);
    expect(none.status).toBe(401);
    expect((await none.json()).error.code).toBe('UNAUTHENTICATED');
    const wrong = await fetch(`${s.url}/metrics`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
  });

  it('counts procedure calls by surface, procedure and status, with latency histograms', async () => {
    const m = await scrape();
    expect(sample(m, 'subtext_requests_total', { surface: 'rest', procedure: 'subtitles.get', status: '200' })).toBe(2);
    expect(sample(m, 'subtext_requests_total', { surface: 'rest', procedure: 'subtitles.get', status: '400' })).toBe(1);
    expect(sample(m, 'subtext_requests_total', { surface: 'rest', procedure: 'credits.get', status: '401' })).toBe(1);
    expect(sample(m, 'subtext_requests_total', { surface: 'mcp', procedure: 'credits.get', status: '200' })).toBe(1);
    expect(sample(m, 'subtext_requests_total', { surface: 'trpc', procedure: 'credits.get', status: '200' })).toBe(1);
    expect(sample(m, 'subtext_request_duration_seconds_count', { surface: 'rest', procedure: 'subtitles.get' })).toBe(
      3,
    );
    expect(
      sample(m, 'subtext_request_duration_seconds_bucket', { surface: 'rest', procedure: 'subtitles.get', le: '+Inf' }),
    ).toBe(3);
    expect(
      sample(m, 'subtext_http_requests_total', { method: 'POST', route: '/mcp', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(m, 'subtext_http_request_duration_seconds_count', { route: '/api/v1/*' })).toBeGreaterThanOrEqual(4);
  });

  it('reports jobs by queue and state, queue depth, wait time, credits charged, cache hits and pools', async () => {
    const m = await scrape();
    expect(sample(m, 'subtext_jobs_total', { queue: 'extract', state: 'completed' })).toBeGreaterThanOrEqual(2); // info + transcript
    expect(sample(m, 'subtext_job_wait_seconds_count', { queue: 'extract' })).toBeGreaterThanOrEqual(2);
    expect(sample(m, 'subtext_job_run_seconds_count', { queue: 'extract' })).toBeGreaterThanOrEqual(2);
    // Nothing is waiting now: depth 0 for every queue and state, still present as a series.
    for (const queue of ['extract', 'frames', 'llm']) {
      for (const state of ['created', 'retry', 'active'])
        expect(sample(m, 'subtext_queue_jobs', { queue, state })).toBe(0);
      expect(sample(m, 'subtext_queue_oldest_waiting_seconds', { queue })).toBe(0);
    }
    expect(sample(m, 'subtext_credits_charged_total', { operation: 'subtitles' })).toBe(2);
    // The cached repeat was served from memory.
    expect(sample(m, 'subtext_cache_lookups_total', { cache: 'transcripts', result: 'hit' })).toBeGreaterThanOrEqual(1);
    expect(sample(m, 'subtext_cache_lookups_total', { cache: 'transcripts', result: 'miss' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(sample(m, 'subtext_db_pool', { pool: 'app', stat: 'max' })).toBe(20);
    expect(sample(m, 'subtext_db_pool', { pool: 'queue', stat: 'total' })).toBeGreaterThanOrEqual(1);
    expect(sample(m, 'subtext_db_connections', { state: 'active' })).toBeGreaterThanOrEqual(1);
  });

  it('the Grafana dashboard queries only series that exist', async () => {
    const dashboard = JSON.parse(
      readFileSync(new URL('../../deploy/grafana/subtext-dashboard.json', import.meta.url), 'utf8'),
    );
    const exprs: string[] = dashboard.panels.flatMap((p: { targets: { expr: string }[] }) =>
      p.targets.map((t) => t.expr),
    );
    expect(exprs.length).toBeGreaterThanOrEqual(15);
    const names = new Set(exprs.flatMap((e) => [...e.matchAll(/\bsubtext_[a-z0-9_]+/g)].map((x) => x[0])));
    const m = await scrape();
    // Gauges a scheduled job sets (the YouTube canary's) are declared from the start, with samples after its first run.
    const res = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const declared = new Set([...(await res.text()).matchAll(/^# TYPE (\S+)/gm)].map((x) => x[1]!));
    const missing = [...names].filter((n) => !m.has(n) && !declared.has(n));
    expect(missing).toEqual([]);
    // And every series we define is on the dashboard (histograms through their buckets).
    const ours = [...m.keys()].filter((n) =>
      /^subtext_(requests|request_duration|http|jobs|job_|queue|credits|cache|db)/.test(n),
    );
    const shown = ours.filter((n) => !/_(count|sum)$/.test(n) && !n.startsWith('subtext_cache_bytes'));
    expect(shown.filter((n) => !names.has(n))).toEqual([]);
  });

  it('METRICS_PORT serves metrics and probes on a listener of its own', async () => {
    const ops = serve({ fetch: createOpsApp(s.deps).fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => ops.once('listening', () => resolve()));
    const base = `http://127.0.0.1:${(ops.address() as AddressInfo).port}`;
    try {
      // The token, when set, is wanted there too.
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(parseSamples(await res.text()).has('subtext_requests_total')).toBe(true);
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      expect((await fetch(`${base}/api/v1/credits`)).status).toBe(404);
    } finally {
      await new Promise((r) => ops.close(r));
    }
  });
});

describe('/metrics without a token', () => {
  it('is not served on the main port', async () => {
    const s = await startTestServer();
    try {
      const res = await fetch(`${s.url}/metrics`);
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe('NOT_FOUND');
    } finally {
      await s.close();
    }
  });
});
