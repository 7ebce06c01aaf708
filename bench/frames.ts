// Bench 3: a frame at 0:01 and at 2:59:00 of a three-hour generated video served with range requests: time and
// bytes read, by the ffmpeg grabber directly and through the API.
import { statSync } from 'node:fs';
import { connect } from '../db/client.ts';
import { createFfmpegFrameGrabber } from '../src/infra/ffmpeg/capture-frame.ts';
import { findFfmpeg } from '../src/infra/ffmpeg/find-ffmpeg.ts';
import { startMediaYoutube } from '../test/support/media-youtube.ts';
import { benchDatabase, fmt, percentile, startService, table, type BenchSection, type ChildServer } from './support.ts';
import { createApiKey, ensureAccount, grantCredits } from '../test/support/stores.ts';

const LONG = 'Fjg5lYqvzUs'; // its recorded player response has plain stream URLs; /videoplayback serves the 3-hour file
const REPS = Number(process.env.BENCH_FRAME_REPS ?? 5);
const EARLY = 1;
const LATE = 2 * 3600 + 59 * 60;

export async function run(): Promise<BenchSection[]> {
  const media = await startMediaYoutube();
  const db = await benchDatabase('frames');
  const { sql } = connect(db.url, { max: 2 });
  let service: ChildServer | undefined;
  try {
    const fileBytes = statSync(media.videoFile).size;
    const grabber = createFfmpegFrameGrabber({
      ffmpegPath: findFfmpeg({ pathEnv: process.env.PATH ?? '' }).path,
      extraOrigins: [media.origin],
      timeoutMs: 60_000,
    });
    const measure = async (fn: () => Promise<unknown>) => {
      const before = media.bytesSent();
      const requests = media.requests.length;
      const t0 = performance.now();
      await fn();
      const ms = performance.now() - t0;
      // Bytes are counted as they are written; let closed streams settle.
      await Promise.all(media.requests.slice(requests).map((r) => r.closed));
      return { ms, bytes: media.bytesSent() - before };
    };
    const source = { kind: 'stream' as const, url: media.url('/videoplayback'), width: 160, height: 90 };

    const account = await ensureAccount(sql, 'bench-frames@example.com');
    await grantCredits(sql, account.id, 1000);
    const { key } = await createApiKey(sql, { accountId: account.id, name: 'bench', rateLimit: 1_000_000 });
    service = await startService({ DATABASE_URL: db.url, MODE: 'all', YOUTUBE_BASE_URL: media.origin });
    const api = async (t: number) => {
      const r = await fetch(`${service!.url}/api/v1/frames`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ videoId: LONG, t, width: 160 }),
      });
      const body = (await r.json()) as { frames?: { cached: boolean }[] };
      if (r.status !== 200 || body.frames?.[0]?.cached !== false)
        throw new Error(`frames answered ${r.status} ${JSON.stringify(body).slice(0, 200)}`);
    };

    // Warm-up (ffmpeg probe, player fetch, pools).
    await grabber.capture(source, 5, 160);
    await api(5);

    const runs: Record<string, { ms: number[]; bytes: number[] }> = {};
    const add = (k: string, m: { ms: number; bytes: number }) => {
      const e = (runs[k] ??= { ms: [], bytes: [] });
      e.ms.push(m.ms);
      e.bytes.push(m.bytes);
    };
    for (let i = 0; i < REPS; i++) {
      // Distinct milliseconds each time, so the API never answers from its frame store.
      const d = (i + 1) / 1000;
      add('direct early', await measure(() => grabber.capture(source, EARLY + d, 160)));
      add('direct late', await measure(() => grabber.capture(source, LATE + d, 160)));
      add('api early', await measure(() => api(EARLY + d)));
      add('api late', await measure(() => api(LATE + d)));
    }
    const p50 = (k: string) => percentile(runs[k]!.ms, 50);
    const kb = (k: string) => percentile(runs[k]!.bytes, 50) / 1024;
    const rows = (['direct', 'api'] as const).flatMap((path) => {
      const early = `${path} early`;
      const late = `${path} late`;
      const label = path === 'direct' ? 'createFfmpegFrameGrabber' : 'REST POST /api/v1/frames';
      return [
        [label, '0:00:01', fmt(p50(early), 0), fmt(Math.max(...runs[early]!.ms), 0), fmt(kb(early), 0), ''],
        [
          label,
          '2:59:00',
          fmt(p50(late), 0),
          fmt(Math.max(...runs[late]!.ms), 0),
          fmt(kb(late), 0),
          fmt(p50(late) / p50(early), 2),
        ],
      ];
    });
    const apiRatio = p50('api late') / p50('api early');
    const directRatio = p50('direct late') / p50('direct early');
    return [
      {
        title: '3. Frames: early vs late seek',
        markdown: [
          `A generated three-hour 160x90 H.264 video (${(fileBytes / 2 ** 20).toFixed(1)} MiB, keyframe every 10 s, faststart) served by a loopback`,
          `server with range requests; ${REPS} captures each (distinct milliseconds, so never from the frame store), width 160. The service runs`,
          'in a child process; its frames job goes through the queue and stores the JPEG and the charge. Bytes are what the video server sent.',
          '',
          table(['path', 'at', 'p50 ms', 'max ms', 'KiB read (p50)', 'late / early'], rows),
          '',
          `**Late vs early at p50: ${fmt(directRatio, 2)}x direct, ${fmt(apiRatio, 2)}x through the API** (target: within 1.5x) — ${Math.max(apiRatio, directRatio) <= 1.5 ? 'met' : 'missed'}.`,
        ].join('\n'),
      },
    ];
  } finally {
    await service?.stop();
    await media.close();
    await sql.end();
    await db.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const s of await run()) console.log(`## ${s.title}\n\n${s.markdown}\n`);
}
