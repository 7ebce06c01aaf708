import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readShared } from './fixture-files.ts';
import { cachedTestVideo } from './make-video.ts';
import { serveFile, startVideoServer, type Route, type VideoServer } from './video-server.ts';
import { needsSystemTool } from './system-needs.ts';

needsSystemTool('ffmpeg');

/** Recorded player responses by video id, for frame tests. */
export const FRAME_FIXTURES: Record<string, string> = {
  Fjg5lYqvzUs: 'player.no-captions.live-replay.Fjg5lYqvzUs.json', // plain stream URLs, 6.4 h long
  iuevw6218F0: 'player.web.no-captions.iuevw6218F0.json', // ciphered streams only: storyboards
};

/** A storyboard sprite sheet the size YouTube's level-3 sheets have (3x3 thumbnails of 234x180). */
export function storyboardSheet(): string {
  const file = path.join(os.tmpdir(), 'subtext-test-videos', 'storyboard-702x540.jpg');
  if (!existsSync(file)) {
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=702x540',
      '-frames:v',
      '1',
      file,
    ]);
  }
  return file;
}

/** The player endpoint answering, for each video id, the recorded player response named in `fixtures` (else 404). */
export function recordedPlayerRoute(fixtures: Record<string, string>): Route {
  return {
    handle: (req, res, served) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const videoId = (JSON.parse(body || '{}') as { videoId?: string }).videoId ?? '';
        const fixture = fixtures[videoId];
        served.status = fixture ? 200 : 404;
        res.writeHead(served.status, { 'content-type': 'application/json' });
        res.end(fixture ? readShared(fixture) : '{}');
      });
    },
  };
}

/**
 * A loopback youtube.com and googlevideo.com for frames: the player endpoint answers recorded
 * responses, /videoplayback serves a generated three-hour video with range requests, and
 * storyboard sheets are a generated sprite.
 */
export async function startMediaYoutube(): Promise<VideoServer & { videoFile: string }> {
  const videoFile = await cachedTestVideo({ seconds: 3 * 3600 });
  const sheet = storyboardSheet();
  const server = await startVideoServer(
    {
      '/youtubei/v1/player': recordedPlayerRoute(FRAME_FIXTURES),
      '/videoplayback': { file: videoFile },
    },
    (p) =>
      p.startsWith('/sb/')
        ? { handle: (req, res, served) => serveFile(req, res, served, sheet, 'image/jpeg') }
        : undefined,
  );
  return Object.assign(server, { videoFile });
}
