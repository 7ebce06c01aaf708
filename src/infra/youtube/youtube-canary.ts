// The canary: says when YouTube changed, before users do. For each video it asks every client of every chain alone
// (a source whose chain is that one client) what the service would ask it for:
//
// - captions: the info, the track list and one caption file;
// - metadata: the info and the track list;
// - streams: a stream URL for frames (the watch page counts when it gives storyboards, which is its job);
// - decipher, once per run and player script build (web, tv: player-scripts.ts): the current player's build deciphers
//   a signature and an `n`, so a build YouTube broke shows before the fallback to the other one is all that is left.
//
// Silent breakage is the failure peers are blamed for (an empty result and no error), so it is a failure here: an
// empty caption file where the track list promised one, and an empty track list for a video the operator chose
// because it has captions (YOUTUBE_CANARY_VIDEOS and `youtube check` take videos with captions).
// Every request goes through the egress pacer like any other: the canary spends budget and is counted per client.
import { isServiceError } from '../../domain/errors.ts';
import type { Outcome } from '../../domain/youtube/egress.ts';
import { PLAYER_VARIANTS, type PlayerVariant } from '../../domain/youtube/player-scripts.ts';
import type { MintedToken, PoTokenProvider } from '../../domain/youtube/po-token.ts';
import { sourceChains, type ChainPurpose } from './client-chains.ts';
import { createYoutubeSource, type YoutubeSourceOptions } from './create-youtube-source.ts';
import { createStaticTokenProvider } from './po-token/static-provider.ts';

/** What a canary row checks: a chain's purpose through one client, or deciphering with one player script build. */
type CanaryPurpose = ChainPurpose | 'decipher';

export interface CanaryCheck {
  /** The video asked for; "-" for a decipher row (it needs none). */
  videoId: string;
  /** The client, or for a decipher row the player script build ("player:web", "player:tv"). */
  client: string;
  purpose: CanaryPurpose;
  ok: boolean;
  /** "ok", or the classified failure: an attempt kind (bot_check, empty_captions, ...), no_tracks, no_stream, busy, video, error. */
  outcome: string;
  latencyMs: number;
  /** Which PO token path served this check's requests ("http", "bgutils", "static", or a provider's own path); null: none. */
  tokenPath: string | null;
  /** What was fetched, or why it failed. */
  detail: string;
}

export interface CanaryRun {
  /** When the run started (ISO). */
  at: string;
  checks: CanaryCheck[];
}

/** One client and purpose over every video of a run: ok only when every video was. */
export interface CanarySummary {
  client: string;
  purpose: CanaryPurpose;
  ok: boolean;
}

const PURPOSES: ChainPurpose[] = ['captions', 'metadata', 'streams'];

/** Frames are taken at this width; the canary only asks for the URL. */
const FRAME_WIDTH = 1280;

export async function runYoutubeCanary(
  base: YoutubeSourceOptions,
  videoIds: string[],
  opts: { signal?: AbortSignal; now?: () => number } = {},
): Promise<CanaryRun> {
  const now = opts.now ?? Date.now;
  const at = new Date(now()).toISOString();
  const chains = sourceChains(base, !!(base.poTokens ?? base.poToken));
  const checks: CanaryCheck[] = [];
  for (const videoId of videoIds) {
    for (const purpose of PURPOSES) {
      for (const client of chains[purpose]) {
        opts.signal?.throwIfAborted();
        checks.push(await checkOne(base, videoId, client, purpose, opts.signal, now));
      }
    }
  }
  if (videoIds.length > 0) {
    const source = createYoutubeSource(base);
    for (const variant of PLAYER_VARIANTS) {
      opts.signal?.throwIfAborted();
      checks.push(await checkPlayerScript(source, variant, now));
    }
  }
  return { at, checks };
}

/** One player script build, alone (no fallback to the other): ok when it deciphers a signature and an `n`. */
async function checkPlayerScript(
  source: CanarySource,
  variant: PlayerVariant,
  now: () => number,
): Promise<CanaryCheck> {
  const began = now();
  const row = { videoId: '-', client: `player:${variant}`, purpose: 'decipher' as const, tokenPath: null };
  try {
    const { url } = await source.probePlayerScript(variant);
    return { ...row, ok: true, outcome: 'ok', latencyMs: Math.round(now() - began), detail: url };
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    return { ...row, ok: false, outcome: 'decipher_failed', latencyMs: Math.round(now() - began), detail };
  }
}

export function summarizeCanary(run: CanaryRun): CanarySummary[] {
  const rows = new Map<string, CanarySummary>();
  for (const c of run.checks) {
    const key = `${c.client}\u0000${c.purpose}`;
    const row = rows.get(key) ?? { client: c.client, purpose: c.purpose, ok: true };
    row.ok &&= c.ok;
    rows.set(key, row);
  }
  return [...rows.values()];
}

async function checkOne(
  base: YoutubeSourceOptions,
  videoId: string,
  client: string,
  purpose: ChainPurpose,
  signal: AbortSignal | undefined,
  now: () => number,
): Promise<CanaryCheck> {
  // What the pacer heard of each attempt (its classification is the outcome), and which token path minted.
  const refusals: Outcome[] = [];
  const paths = new Set<string>();
  const source = canarySource(base, client, refusals, paths);
  const began = now();
  const done: Done = (ok, outcome, detail) => ({
    videoId,
    client,
    purpose,
    ok,
    outcome,
    latencyMs: Math.round(now() - began),
    tokenPath: paths.size ? [...paths].join(',') : null,
    detail,
  });
  const refused = (fallback: string) => refusals.at(-1)?.kind ?? fallback;
  try {
    if (purpose === 'streams') return await checkStreams(source, videoId, client, signal, done, refused);
    return await checkCaptions(source, videoId, purpose, signal, done);
  } catch (e) {
    signal?.throwIfAborted();
    const message = e instanceof Error ? e.message : String(e);
    if (!isServiceError(e)) return done(false, 'error', message);
    if (e.code === 'SERVICE_BUSY') return done(false, 'busy', message);
    if (e.code.startsWith('VIDEO_')) return done(false, refused('video'), `${e.code}: ${message}`);
    return done(false, refused(/empty caption file/.test(message) ? 'empty_captions' : 'error'), message);
  }
}

type Done = (ok: boolean, outcome: string, detail: string) => CanaryCheck;
type CanarySource = ReturnType<typeof createYoutubeSource>;

/** A source whose chain is `client` alone, noting refusals and token paths. */
function canarySource(
  base: YoutubeSourceOptions,
  client: string,
  refusals: Outcome[],
  paths: Set<string>,
): CanarySource {
  const provider = base.poTokens ?? (base.poToken ? createStaticTokenProvider(base.poToken) : undefined);
  return createYoutubeSource({
    ...base,
    chains: undefined,
    clients: [client],
    // The client alone: a kids or age-gate fallback serving in its place would hide that it broke.
    gateFallbacks: false,
    poTokens: provider ? recordingProvider(provider, paths) : undefined,
    egress: base.egress && {
      ...base.egress,
      onOutcome: (o) => {
        base.egress?.onOutcome?.(o);
        if (o.kind !== 'served') refusals.push(o);
      },
    },
  });
}

async function checkStreams(
  source: CanarySource,
  videoId: string,
  client: string,
  signal: AbortSignal | undefined,
  done: Done,
  refused: (fallback: string) => string,
): Promise<CanaryCheck> {
  const frames = await source.getFrameSource(videoId, FRAME_WIDTH, signal);
  if (frames.kind === 'stream') return done(true, 'ok', `stream ${frames.width}x${frames.height}`);
  // Storyboards are what the watch page is for; from an InnerTube client they mean it gave no usable stream.
  return client === 'WATCH_PAGE'
    ? done(true, 'ok', `storyboards (${frames.count} thumbnails)`)
    : done(false, refused('no_stream'), 'no usable stream URL (storyboards only)');
}

async function checkCaptions(
  source: CanarySource,
  videoId: string,
  purpose: Exclude<ChainPurpose, 'streams'>,
  signal: AbortSignal | undefined,
  done: Done,
): Promise<CanaryCheck> {
  const video = await source.getVideo(videoId, signal, purpose);
  if (video.tracks.length === 0)
    return done(false, 'no_tracks', `"${video.info.title}" came back with no caption tracks and no error`);
  if (purpose === 'metadata') return done(true, 'ok', `${video.tracks.length} tracks`);
  const track = video.tracks.find((t) => !t.autoGenerated) ?? video.tracks[0]!;
  const segments = await source.fetchTranscript(track, signal);
  if (segments.length === 0) return done(false, 'empty_captions', `the "${track.lang}" caption file had no lines`);
  return done(true, 'ok', `${video.tracks.length} tracks, "${track.lang}" ${segments.length} lines`);
}

/** The provider as is, noting the path each mint took (a provider may say which: `path` on its token). */
function recordingProvider(provider: PoTokenProvider, paths: Set<string>): PoTokenProvider {
  return {
    kind: provider.kind,
    async mint(videoId, signal, identity) {
      const minted: MintedToken = await provider.mint(videoId, signal, identity);
      paths.add(minted.path ? `${provider.kind}:${minted.path}` : provider.kind);
      return minted;
    },
  };
}
