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

    service = await startService({ DATABASE_URL: db.url, MODE: 'all' });
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

    const series: { t: number; rss: number; load: number }[] = [];
    const t0 = Date.now();
    const sample = () => series.push({ t: (Date.now() - t0) / 1000, rss: service!.rssMiB(), load: loadavg()[0]! });
    const timer = setInterval(sample, SAMPLE_MS);
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
            return { ...req, ...(k % 2 ? mcp((k >> 1) % VIDEOS) : rest((k >> 1) % VIDEOS)) };
          },
        },
      ],
    });
    clearInterval(timer);
    sample();
    await sleep(SAMPLE_MS);
    const after = service.rssMiB();

    const worst = Math.max(...series.map((s) => s.rss));
    const half = Math.floor(series.length / 2);
    const firstHalf = Math.max(...series.slice(0, half).map((s) => s.rss));
    const lastHalf = Math.max(...series.slice(half).map((s) => s.rss));
    const growth = lastHalf - firstHalf;
    const verdict = (ok: boolean) => (ok ? 'met' : 'missed');
    const markdown = [
      `${VIDEOS} stored transcripts of ${SEGMENTS} segments; REST \`POST /api/v1/subtitles\` and MCP \`tools/call get_video_subtitles\``,
      `alternating, ${CONNECTIONS} connections, ${SECONDS} s (BENCH_SOAK_SECONDS), service as \`npm start\` runs it (MODE=all), load`,
      `generator in the bench process: ${fmt(result.requests.average, 0)} req/s, p99 ${result.latency.p99} ms,`,
      `${result.non2xx} non-2xx, ${result.errors + result.timeouts} errors. RSS every 10 s (MiB, with the 1-minute load average):`,
      '',
      '```',
      series.map((s) => `${fmt(s.t, 0)}s ${fmt(s.rss, 0)} (load ${fmt(s.load, 1)})`).join('\n'),
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
