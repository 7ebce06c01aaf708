// One video's player response through a chain of InnerTube clients. Each client is one POST /youtubei/v1/player;
// an answer about this client or this IP (bot check, HTTP 429/5xx, network error, "not available" for this client,
// captions that need a PO token) moves on to the next, YouTube's final word on the video (not found, private,
// age-restricted, members-only, paid, region-blocked, upcoming) stops the chain at once.
import { YT, type Innertube, type Types } from 'youtubei.js';
import { ServiceError } from '../../domain/errors.ts';
import type { Chapter } from '../../domain/video/schemas.ts';
import { classifyPlayability } from './classify-playability.ts';
import { unwrapPlayerResponse, type RawPlayerResponse } from './player-response.ts';
import { findChapters } from './map-video.ts';
import { classifyHtmlPage, extractInitialData, extractPlayerResponse, looksLikeHtml } from './watch-page.ts';
import { YoutubeNetworkError } from './network-error.ts';
import { playerCapture, type PlayerCapture } from './youtube-fetch.ts';

/** The desktop watch page, tried after every InnerTube client (see watch-page.ts). */
export const WATCH_PAGE = 'WATCH_PAGE';

export interface PlayerResult {
  client: string;
  info: YT.VideoInfo;
  raw: RawPlayerResponse;
  /** Chapters found beside the player response (the watch page's ytInitialData). */
  chapters?: Chapter[];
}

type Attempt = { ok: true; result: PlayerResult } | { ok: false; error: ServiceError; unreachable?: boolean };

export interface ChainContext {
  innertube: () => Promise<Innertube>;
  fetch: typeof fetch;
  clients: string[];
  log?: { warn: (...a: unknown[]) => void; debug: (...a: unknown[]) => void };
}

/** Tries each client in turn; `accept` may turn an OK answer down (e.g. captions that cannot be downloaded). */
export async function fetchPlayer(
  ctx: ChainContext,
  videoId: string,
  signal?: AbortSignal,
  accept: (r: PlayerResult) => string | undefined = () => undefined,
): Promise<PlayerResult> {
  const failures: ServiceError[] = [];
  let fallback: PlayerResult | undefined;
  for (const client of ctx.clients) {
    signal?.throwIfAborted();
    const attempt = client === WATCH_PAGE ? await tryWatchPage(ctx, videoId, signal) : await tryClient(ctx, videoId, client, signal);
    if (attempt.ok) {
      const refusal = accept(attempt.result);
      if (!refusal) return attempt.result;
      fallback ??= attempt.result;
      failures.push(new ServiceError('EXTRACTION_FAILED', refusal));
    } else {
      failures.push(attempt.error);
      // The host does not resolve: every other client (and a retry a second later) would fail the same way.
      if (attempt.unreachable) throw new ServiceError('EXTRACTION_FAILED', chainError(failures).message, undefined, { final: true });
    }
    ctx.log?.debug({ videoId, client, reason: failures.at(-1)?.message }, 'youtube client fell through');
  }
  // Usable metadata beats an error: the caller learns about the captions when it downloads them.
  if (fallback) return fallback;
  throw chainError(failures);
}

function chainError(failures: ServiceError[]): ServiceError {
  // Every client said "this video cannot be played" (none blocked us): that is about the video.
  const unplayable = failures.find((f) => f.code === 'VIDEO_UNPLAYABLE');
  if (unplayable && failures.every((f) => f.code === 'VIDEO_UNPLAYABLE')) return unplayable;
  const reasons = [...new Set(failures.map((f) => f.message))].join('; ');
  return new ServiceError('EXTRACTION_FAILED', `Could not get this video from YouTube: ${reasons || 'no client configured'}`);
}

async function tryClient(ctx: ChainContext, videoId: string, client: string, signal?: AbortSignal): Promise<Attempt> {
  const yt = await ctx.innertube();
  const capture: PlayerCapture = { signal };
  let info: YT.VideoInfo | undefined;
  let parseError: unknown;
  try {
    info = await playerCapture.run(capture, () => yt.getBasicInfo(videoId, { client: client as Types.InnerTubeClient }));
  } catch (e) {
    parseError = e;
  }
  signal?.throwIfAborted();
  const answer = judgeBody(capture.status, capture.body, capture.error ?? parseError);
  if (!answer.ok) return answer;
  if (!info) return retry(`${client}: could not read YouTube's answer (${messageOf(parseError)})`);
  return { ok: true, result: { client, info, raw: answer.raw } };
}

async function tryWatchPage(ctx: ChainContext, videoId: string, signal?: AbortSignal): Promise<Attempt> {
  let status: number | undefined;
  let body: string | undefined;
  try {
    const url = `https://www.youtube.com/watch?v=${videoId}&hl=en&gl=US&has_verified=1&bpctr=9999999999`;
    // SOCS=CAI: the "reject all" consent choice, so EU requests get the page rather than the consent interstitial.
    const res = await ctx.fetch(url, { headers: { 'Accept-Language': 'en-US,en;q=0.9', Cookie: 'SOCS=CAI' }, signal });
    status = res.status;
    body = await res.text();
  } catch (e) {
    signal?.throwIfAborted();
    return { ...retry(`watch page: network error: ${messageOf(e)}`), unreachable: isUnreachable(e) };
  }
  const raw = extractPlayerResponse(body);
  if (!raw) return { ok: false, error: classifyHtmlPage(body, status) };
  const verdict = classifyPlayability(raw);
  if (!verdict.ok) {
    if (verdict.retryable) return { ok: false, error: verdict.error };
    throw verdict.error;
  }
  const yt = await ctx.innertube();
  try {
    const info = new YT.VideoInfo([{ success: true, status_code: 200, data: raw as never }], yt.actions, '');
    return { ok: true, result: { client: WATCH_PAGE, info, raw, chapters: findChapters(extractInitialData(body)) } };
  } catch (e) {
    return retry(`watch page: could not read the embedded player response (${messageOf(e)})`);
  }
}

/** Judges the raw /player answer; throws for YouTube's final word, returns a retry for anything else. */
function judgeBody(status: number | undefined, body: string | undefined, error: unknown): { ok: true; raw: RawPlayerResponse } | { ok: false; error: ServiceError; unreachable?: boolean } {
  if (body === undefined) return { ...retry(error instanceof YoutubeNetworkError ? `network error: ${error.message}` : `network error (${messageOf(error)})`), unreachable: isUnreachable(error) };
  if (status === 429) return retry('YouTube is rate-limiting this server (HTTP 429)');
  if (looksLikeHtml(body)) return { ok: false, error: classifyHtmlPage(body, status) };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return retry(`YouTube answered HTTP ${status} with a body that is not JSON`);
  }
  if (status !== undefined && status >= 400) return retry(`YouTube answered HTTP ${status}`);
  const raw = unwrapPlayerResponse(json);
  const verdict = classifyPlayability(raw);
  if (verdict.ok) return { ok: true, raw };
  if (verdict.retryable) return { ok: false, error: verdict.error };
  throw verdict.error;
}

const retry = (message: string) => ({ ok: false as const, error: new ServiceError('EXTRACTION_FAILED', message) });
const isUnreachable = (e: unknown) => e instanceof YoutubeNetworkError && e.hostUnreachable;
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
