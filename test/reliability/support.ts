import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readShared } from '../support/fixture-files.ts';
import { readAnswer } from '../support/clients.ts';
import { createDatabase, TEMPLATE_DB } from '../support/databases.ts';
import { FRAME_FIXTURES } from '../support/media-youtube.ts';
import { cachedTestVideo } from '../support/make-video.ts';
import { serveFile, startVideoServer, type ServedRequest, type VideoServer } from '../support/video-server.ts';

export const NOTES_DIR = path.join(os.tmpdir(), 'subtext-reliability-notes');
const REPO = new URL('../../', import.meta.url).pathname;

export const relDatabase = () => createDatabase('subtext_rel', TEMPLATE_DB);

/** A finding for RELIABILITY.md, under a section; written when the run ends. */
export function note(section: string, markdown: string): void {
  mkdirSync(NOTES_DIR, { recursive: true });
  appendFileSync(
    path.join(NOTES_DIR, `${section.replace(/[^\w.-]+/g, '_')}.md`),
    `${markdown.replaceAll('\u0000', '\\0')}\n\n`,
  );
  const titles = path.join(NOTES_DIR, '_titles.json');
  const all = existsSync(titles) ? (JSON.parse(readFileSync(titles, 'utf8')) as Record<string, string>) : {};
  all[section.replace(/[^\w.-]+/g, '_')] = section;
  writeFileSync(titles, JSON.stringify(all));
}

export function writeReport(): void {
  if (!existsSync(NOTES_DIR)) return;
  const titles = JSON.parse(readFileSync(path.join(NOTES_DIR, '_titles.json'), 'utf8')) as Record<string, string>;
  const files = readdirSync(NOTES_DIR)
    .filter((f) => f.endsWith('.md'))
    .sort();
  const stamp = `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const sections = new Map<string, string>();
  // A filtered run (`npm run test:reliability -- shutdown`) rewrites only the sections its tests wrote: the others
  // are kept as the run that wrote them left them, each with its own date.
  const report = path.join(REPO, 'RELIABILITY.md');
  if (existsSync(report)) {
    for (const section of readFileSync(report, 'utf8')
      .split(/\n(?=## )/)
      .slice(1)) {
      sections.set(section.slice(3, section.indexOf('\n')).trim(), `${section.trim()}\n`);
    }
  }
  for (const f of files) {
    const title = titles[f.slice(0, -3)] ?? f;
    sections.set(
      title,
      `## ${title}\n\n_Written ${stamp}._\n\n${readFileSync(path.join(NOTES_DIR, f), 'utf8').trim()}\n`,
    );
  }
  const body = [...sections.entries()]
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([, text]) => text);
  writeFileSync(
    report,
    [
      '# Reliability',
      '',
      `Written by \`npm run test:reliability\` (vitest.reliability.config.ts, test/reliability/**), last on ${stamp},`,
      `${os.cpus()[0]?.model ?? 'cpu'}, ${os.cpus().length} cores, Node ${process.version}. Each section is written by a test after its checks ran,`,
      "and dated: a run filtered to some files rewrites only their sections. A section missing, or older than its test's last run, means",
      'the test did not get that far (see the vitest output). Timing figures are reported, never asserted.',
      '',
      ...body,
    ].join('\n'),
  );
}

const CAPTION_PLAYER_ID = 'M4gD1WSo5mA';

export interface MixedYoutube extends VideoServer {
  /** Player requests per video id. */
  players: (videoId: string) => number;
  /** Caption downloads per video id. */
  captions: (videoId: string) => number;
  /** While set, answers matching requests with this instead (faults). */
  fault: ((kind: 'player' | 'timedtext', videoId: string) => Fault | undefined) | undefined;
}

export type Fault = { status: number; body: string; contentType?: string } | { hang: true } | { delayMs: number };

/**
 * One loopback origin for youtube.com and googlevideo.com: /youtubei/v1/player answers the recorded frames fixtures
 * for their ids and a recorded captions player (id swapped) for any other id; /api/timedtext a recorded json3 file;
 * /videoplayback a generated three-hour video with range requests.
 */
export async function startMixedYoutube(): Promise<MixedYoutube> {
  const videoFile = await cachedTestVideo({ seconds: 3 * 3600 });
  const captionPlayer = readShared(`player.visionos.captions.manual-and-asr.${CAPTION_PLAYER_ID}.json`);
  const captions = readShared('timedtext.styled-manual.json3.sc3-z_2aNX0.json');
  const counts = { player: new Map<string, number>(), timedtext: new Map<string, number>() };
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  let server!: MixedYoutube;
  const applyFault = async (
    kind: 'player' | 'timedtext',
    videoId: string,
    res: import('node:http').ServerResponse,
    served: ServedRequest,
  ) => {
    const f = server.fault?.(kind, videoId);
    if (!f) return false;
    if ('hang' in f) return true;
    if ('delayMs' in f) {
      await new Promise((r) => setTimeout(r, f.delayMs));
      return false;
    }
    served.status = f.status;
    if (!res.destroyed) {
      res.writeHead(f.status, { 'content-type': f.contentType ?? 'application/json' });
      res.end(f.body);
    }
    return true;
  };
  const base = await startVideoServer(
    {
      '/youtubei/v1/player': {
        handle: (req, res, served) => {
          let body = '';
          req.on('data', (c) => (body += c));
          req.on('end', async () => {
            let videoId = '';
            try {
              videoId = (JSON.parse(body || '{}') as { videoId?: string }).videoId ?? '';
            } catch {
              /* answered below */
            }
            bump(counts.player, videoId);
            if (await applyFault('player', videoId, res, served)) return;
            const fixture = FRAME_FIXTURES[videoId];
            served.status = 200;
            if (res.destroyed) return;
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(fixture ? readShared(fixture) : captionPlayer.replaceAll(CAPTION_PLAYER_ID, videoId));
          });
        },
      },
      '/api/timedtext': {
        handle: async (req, res, served) => {
          const videoId = new URL(req.url ?? '/', 'http://x').searchParams.get('v') ?? '';
          bump(counts.timedtext, videoId);
          if (await applyFault('timedtext', videoId, res, served)) return;
          served.status = 200;
          if (res.destroyed) return;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(captions);
        },
      },
      '/videoplayback': { file: videoFile },
    },
    (p) =>
      p.startsWith('/videoplayback')
        ? { handle: (req, res, served) => serveFile(req, res, served, videoFile, 'video/mp4') }
        : undefined,
  );
  server = Object.assign(base, {
    players: (id: string) => counts.player.get(id) ?? 0,
    captions: (id: string) => counts.timedtext.get(id) ?? 0,
    fault: undefined,
  }) as MixedYoutube;
  return server;
}

let seq = 0;
/** A fresh valid video id (cache misses on purpose). */
export const newVideoId = (prefix = 'R') =>
  `${prefix}${process.pid.toString(36)}${(seq++).toString(36)}`.padEnd(11, '_').slice(0, 11);

export async function call(
  base: string,
  method: string,
  path: string,
  opts: {
    key?: string;
    body?: unknown;
    raw?: string | Buffer;
    headers?: Record<string, string>;
    signal?: AbortSignal;
  } = {},
) {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.body !== undefined || opts.raw !== undefined) headers['content-type'] ??= 'application/json';
  const body =
    opts.raw !== undefined
      ? typeof opts.raw === 'string'
        ? opts.raw
        : new Uint8Array(opts.raw)
      : opts.body === undefined
        ? undefined
        : JSON.stringify(opts.body);
  const answer = await readAnswer(await fetch(new URL(path, base), { method, headers, body, signal: opts.signal }));
  return { ...answer, requestId: answer.headers.get('x-request-id') };
}

/** The spec's error body: exactly { error: { code, message } } with strings. */
export function isErrorShape(json: unknown): boolean {
  const e = (json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return !!e && typeof e.code === 'string' && typeof e.message === 'string' && Object.keys(json as object).length === 1;
}
