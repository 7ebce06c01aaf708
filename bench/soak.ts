// Bench 6: memory that comes back. A soak of the service as `npm start` runs it (own process): 20 stored transcripts
// of 500 segments, REST POST /api/v1/subtitles and MCP tools/call get_video_subtitles alternating over 16
// connections for BENCH_SOAK_SECONDS (default 600). The service's RSS is sampled every 10 s and printed as a series,
// with the idle RSS after the first requests and the RSS 10 s after the load stops. Goals (issue 24): worst <= 300 MiB,
// <= 200 MiB 10 s after, no step growth in the last half, idle <= 150 MiB.
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { connect } from '../db/client.ts';
import { createApiKey, ensureAccount, grantCredits } from '../test/support/stores.ts';
import { seedHotTranscript } from './hot-path.ts';
import { benchDatabase, fmt, sleep, startService, table, type BenchSection, type ChildServer } from './support.ts';

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const VIDEOS = 20;
const SEGMENTS = 500;
const CONNECTIONS = 16;
const SAMPLE_MS = 10_000;
/** Growth of the last half's highest sample over the first half's that still counts as flat (allocator noise). */
const FLAT_MIB = 10;
/**
 * BENCH_SOAK_HEAP=<dir>: the service also writes a V8 heap snapshot there when idle after the first requests and 10 s
 * after the load (Node's --heapsnapshot-signal), to compare in Chrome DevTools' Memory tab.
 */
const HEAP_DIR = process.env.BENCH_SOAK_HEAP;

const METRICS_TOKEN = 'bench-soak-metrics-token-0123456789';
/** BENCH_SOAK_SURFACES=rest or mcp: one surface only, to tell which one makes the garbage (default: both, alternating). */
const SURFACES = process.env.BENCH_SOAK_SURFACES ?? 'both';

/** The V8 heap (total and in use) and memory outside it, in MiB, from the service's own /metrics. */
async function metricsOf(url: string): Promise<string> {
  return (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
}

/** Major and minor collections so far, from the service's /metrics. */
async function gcCounts(url: string): Promise<{ major: number; minor: number }> {
  const text = await metricsOf(url);
  const count = (kind: string) =>
    Number(
      new RegExp(`^subtext_nodejs_gc_duration_seconds_count\\{kind="${kind}"\\} (\\S+)`, 'm').exec(text)?.[1] ?? 0,
    );
  return { major: count('major'), minor: count('minor') };
}

async function heapOf(url: string): Promise<{ total: number; used: number; external: number }> {
  const text = await metricsOf(url);
  const gauge = (name: string) => Number(new RegExp(`^subtext_${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20;
  return {
    total: gauge('nodejs_heap_size_total_bytes'),
    used: gauge('nodejs_heap_size_used_bytes'),
    external: gauge('nodejs_external_memory_bytes'),
  };
}

const videoId = (i: number) => `Soak${i.toString().padStart(7, '0')}`;

export async function run(): Promise<BenchSection[]> {
  const db = await benchDatabase('soak');
  const { sql } = connect(db.url, { max: 4 });
  let service: ChildServer | undefined;
  try {
    for (let i = 0; i < VIDEOS; i++) await seedHotTranscript(sql, videoId(i), SEGMENTS);
    const account = await ensureAccount(sql, 'bench-soak@example.com');
    await grantCredits(sql, account.id, 1000);
    const { key } = await createApiKey(sql, { accountId: account.id, name: 'bench', rateLimit: 1_000_000_000 });
    const headers = {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const rest = (i: number) => ({ path: '/api/v1/subtitles', body: JSON.stringify({ videoId: videoId(i) }) });
    const mcp = (i: number) => ({
      path: '/mcp',
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: { name: 'get_video_subtitles', arguments: { videoId: videoId(i) } },
      }),
    });

    service = await startService({
      DATABASE_URL: db.url,
      MODE: 'all',
      METRICS_TOKEN,
      ...(HEAP_DIR ? { NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${HEAP_DIR}` } : {}),
    });
    const snapshot = async () => {
      if (!HEAP_DIR) return;
      service!.child.kill('SIGUSR2');
      await sleep(SAMPLE_MS); // written synchronously by the service; RSS sampled after it settles
    };
    const started = service.rssMiB();
    // The first requests: every transcript once on each surface, checked.
    for (let i = 0; i < VIDEOS; i++)
      for (const r of [rest(i), mcp(i)]) {
        const res = await fetch(service.url + r.path, { method: 'POST', headers, body: r.body });
        const text = await res.text();
        if (res.status !== 200 || text.includes('"isError":true'))
          throw new Error(`${r.path} answered ${res.status}: ${text.slice(0, 300)}`);
      }
    await sleep(SAMPLE_MS);
    const idle = service.rssMiB();
    await snapshot();

    type Sample = { t: number; rss: number; load: number; heap: Awaited<ReturnType<typeof heapOf>> };
    const series: Sample[] = [];
    const gcBefore = await gcCounts(service.url);
    const t0 = Date.now();
    const sample = async () => {
      const t = (Date.now() - t0) / 1000;
      const rss = service!.rssMiB();
      series.push({ t, rss, load: loadavg()[0]!, heap: await heapOf(service!.url) });
    };
    const timer = setInterval(() => void sample(), SAMPLE_MS);
    let n = 0;
    const result = await autocannon({
      url: service.url,
      connections: CONNECTIONS,
      duration: SECONDS,
      method: 'POST',
      headers,
      requests: [
        {
          setupRequest: (req: Record<string, unknown>) => {
            const k = n++;
            // REST and MCP alternating, the transcripts round-robin on each.
            const useMcp = SURFACES === 'mcp' || (SURFACES !== 'rest' && k % 2 === 1);
            return { ...req, ...(useMcp ? mcp((k >> 1) % VIDEOS) : rest((k >> 1) % VIDEOS)) };
          },
        },
      ],
    });
    clearInterval(timer);
    await sample();
    const gcAfter = await gcCounts(service.url);
    const perK = (n: number) => fmt((n * 1000) / result.requests.total, 2);
    await sleep(SAMPLE_MS);
    const after = service.rssMiB();
    const afterHeap = await heapOf(service.url);
    await snapshot();

    const worst = Math.max(...series.map((s) => s.rss));
    const half = Math.floor(series.length / 2);
    const firstHalf = Math.max(...series.slice(0, half).map((s) => s.rss));
    const lastHalf = Math.max(...series.slice(half).map((s) => s.rss));
    const growth = lastHalf - firstHalf;
    const verdict = (ok: boolean) => (ok ? 'met' : 'missed');
    const markdown = [
      `${VIDEOS} stored transcripts of ${SEGMENTS} segments; REST \`POST /api/v1/subtitles\` and MCP \`tools/call get_video_subtitles\``,
      `${SURFACES === 'both' ? 'alternating' : `(${SURFACES} only)`}, ${CONNECTIONS} connections, ${SECONDS} s (BENCH_SOAK_SECONDS), service as \`npm start\` runs it (MODE=all), load`,
      `generator in the bench process: ${fmt(result.requests.average, 0)} req/s, p99 ${result.latency.p99} ms,`,
      `${result.non2xx} non-2xx, ${result.errors + result.timeouts} errors; per 1,000 requests ${perK(gcAfter.major - gcBefore.major)} major and`,
      `${perK(gcAfter.minor - gcBefore.minor)} minor collections. RSS every 10 s in MiB, beside it the V8 heap`,
      '(total / in use) and the memory V8 counts outside it (external: buffers), from /metrics, and the 1-minute load average:',
      '',
      '```',
      [...series, { t: Number.NaN, rss: after, load: loadavg()[0]!, heap: afterHeap }]
        .map(
          (s) =>
            `${Number.isNaN(s.t) ? '10 s after' : `${fmt(s.t, 0)}s`} rss ${fmt(s.rss, 0)}  heap ${fmt(s.heap.total, 0)} / ${fmt(s.heap.used, 0)}  external ${fmt(s.heap.external, 0)}  (load ${fmt(s.load, 1)})`,
        )
        .join('\n'),
      '```',
      '',
      table(
        ['measure', 'MiB', 'goal', 'verdict'],
        [
          ['started (before any request)', fmt(started), '', ''],
          ['idle after the first requests (+10 s)', fmt(idle), '<= 150', verdict(idle <= 150)],
          ['worst sample under load', fmt(worst), '<= 300', verdict(worst <= 300)],
          ['10 s after the load stopped', fmt(after), '<= 200', verdict(after <= 200)],
          [
            'last half highest minus first half highest',
            fmt(growth),
            `<= ${FLAT_MIB} (no step growth)`,
            verdict(growth <= FLAT_MIB),
          ],
        ],
      ),
    ].join('\n');
    return [{ title: '6. Memory under a soak', markdown }];
  } finally {
    await service?.stop();
    await sql.end();
    await db.drop();
  }
}
