// The VideoSource for YouTube, built on youtubei.js.
//
// Each purpose has its own client chain (client-chains.ts: captions, metadata, streams), each replaceable from the
// environment. Web clients (WEB, MWEB) are asked with a PO token minted for the video through the egress identity
// that asks (po-token/: the token is bound to that identity's page session and visitor data), and the caption and
// stream URLs they answer carry it and are fetched from that identity too. With egress pacing
// (src/domain/youtube/egress.ts) every player request leaves from an identity with budget left, caption downloads
// from an identity's caption budget (its own, with its own 429 backoff), and every attempt is counted per client and
// identity. What each client says it is (version, user agent, OS) is client-identities.ts's table.
// Kids and age-gated videos fall back to WEB_EMBEDDED and TV_DOWNGRADED, and past the age gate to the operator's
// signed-in identity when one is set (fetch-player.ts); the signed-in requests carry no minted token.
// Live videos: getVideo answers (isLive true) so metadata works during a stream; the transcript path refuses them
// with chooseTranscriptTrack (src/domain/video/choose-track.ts), which throws VIDEO_LIVE.
import { ServiceError } from '../../domain/errors.ts';
import type { FrameSource, SourceTrack, SourceVideo, VideoSource } from '../../domain/ports.ts';
import type { AudioSource } from '../../domain/speech/ports.ts';
import {
  captionBudgetStore,
  createEgressPacer,
  type EgressPacer,
  type EgressStore,
  type Outcome,
  type OutcomeKind,
  type Purpose,
} from '../../domain/youtube/egress.ts';
import type { MintedToken, PoTokenProvider } from '../../domain/youtube/po-token.ts';
import type { PlayerScriptUse, PlayerVariant } from '../../domain/youtube/player-scripts.ts';
import type { ResidentialBudget } from '../../domain/youtube/residential-budget.ts';
import type { YT } from 'youtubei.js';
import { chooseFrameFormat, chooseSpeechFormat, noFrameSource, storyboardSource } from './choose-frame-source.ts';
import {
  SIGNED_IN,
  sourceChains,
  takesWebToken,
  WATCH_PAGE,
  type ChainPurpose,
  type ClientChains,
} from './client-chains.ts';
import { clientIdentities } from './client-identities.ts';
import { downloadCaptions, RetryableCaptionError } from './download-captions.ts';
import { fetchPlayer, type ChainContext, type Ladder, type PlayerResult, type Refusal } from './fetch-player.ts';
import { createSessions } from './innertube-session.ts';
import { mapTracks, mapVideo } from './map-video.ts';
import { addCaptionToken, addStreamToken, needsCaptionToken } from './po-token/add-po-token.ts';
import { PlayerScripts } from './player-scripts.ts';
import { createStaticTokenProvider } from './po-token/static-provider.ts';
import { createTokenCache } from './po-token/token-cache.ts';
import { type ByteMeter, createProxyPool, DIRECT, type MeterScope, meterScope } from './proxy-pool.ts';
import { createRetiredClients } from './retired-clients.ts';
import { createYoutubeFetch, egressScope, rewriteOrigin, YOUTUBE_ORIGIN } from './youtube-fetch.ts';

export interface EgressOptions {
  store: EgressStore;
  budgetPerHour: number;
  cooldownBaseSeconds: number;
  cooldownMaxSeconds: number;
  /** Caption downloads (timedtext) per identity and hour: a budget and cool-down of their own (default: budgetPerHour). */
  captionBudgetPerHour?: number;
  /** Requests as the signed-in identity (ageGateCookie) per hour, across the cluster (default 20). */
  signedInPerHour?: number;
  /** Called for every attempt, before it is stored (this process's /metrics counters). */
  onOutcome?: (o: Outcome) => void;
}

/** Residential identities' byte budget, and where each byte counted is reported (this process's /metrics). */
export interface ResidentialOptions {
  budget: ResidentialBudget;
  onBytes?: (identity: string, purpose: string, direction: 'request' | 'response', bytes: number) => void;
}

export interface YoutubeSourceOptions {
  /** Origin all YouTube traffic goes to (InnerTube, captions, watch pages, stream URLs); default youtube.com. */
  baseUrl?: string;
  proxyUrls?: string[];
  /** Residential proxies: the ladder's last rung (fetch-player.ts), metered and budgeted by `residential`. */
  residentialProxyUrls?: string[];
  residential?: ResidentialOptions;
  cookie?: string;
  /** A static PO token (YOUTUBE_PO_TOKEN): used when no provider is given; the last resort. */
  poToken?: string;
  /** Mints a PO token per video for the web clients. */
  poTokens?: PoTokenProvider;
  /** The operator's signed-in identity (a Cookie header's value), asked for age-gated videos only. */
  ageGateCookie?: string;
  visitorData?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Per-purpose client chains (InnerTube names, plus "WATCH_PAGE"); unset ones take the defaults. */
  chains?: Partial<ClientChains>;
  /** One chain for every purpose (tests, the canary). */
  clients?: string[];
  /** Follow a kids or age-gate refusal with WEB_EMBEDDED and TV_DOWNGRADED (fetch-player.ts); default true. */
  gateFallbacks?: boolean;
  /** Budgets, cool-downs and outcome counts in PostgreSQL; without it requests are neither paced nor counted. */
  egress?: EgressOptions;
  log?: { warn: (...a: unknown[]) => void; info: (...a: unknown[]) => void; debug: (...a: unknown[]) => void };
  /** Client versions over the table's (YOUTUBE_CLIENT_VERSIONS; client-identities.ts). */
  clientVersions?: Record<string, string>;
  /** Each token minted: which provider, and which challenge path served it (/metrics). */
  onTokenMinted?: (provider: string, path: string) => void;
  /** A client version YouTube refused as retired (/metrics). */
  onClientRetired?: (client: string, version: string) => void;
  /** Player script builds to decipher with, in order (default web, then tv; the canary checks one alone). */
  playerVariants?: readonly PlayerVariant[];
  /** Each decipher attempt with a player script build (/metrics, `youtube status`). */
  onPlayerScript?: (use: PlayerScriptUse) => void;
}

export interface YoutubeSource extends VideoSource {
  readonly chains: ClientChains;
  readonly identities: string[];
  readonly tokenProvider: string | null;
  getAudioSource: NonNullable<VideoSource['getAudioSource']>;
  /** The canary's check of one player script build (player-scripts.ts). */
  probePlayerScript(variant: PlayerVariant): Promise<{ playerId: string; url: string }>;
}

type Format = NonNullable<YT.VideoInfo['streaming_data']>['adaptive_formats'][number];

export function createYoutubeSource(opts: YoutubeSourceOptions = {}): YoutubeSource {
  const ctx = sourceContext(opts);
  return {
    chains: ctx.chains,
    identities: ctx.identities,
    tokenProvider: ctx.provider?.kind ?? null,
    getAudioSource: (videoId, signal) => audioSource(ctx, videoId, signal),
    probePlayerScript: (variant) => ctx.playerScripts.probe(variant),
    async getVideo(
      videoId: string,
      signal?: AbortSignal,
      purpose: 'captions' | 'metadata' = 'captions',
    ): Promise<SourceVideo> {
      const result = await fetchPlayer(ctx.chain(purpose), videoId, signal, (r) => captionsUsable(ctx, r));
      const video = mapVideo(videoId, result.info, result.raw, result.chapters);
      return { ...video, tracks: await usableTracks(ctx, result, videoId, signal) };
    },
    fetchTranscript: (track, signal) => transcriptOf(ctx, track, signal),
    getFrameSource: (videoId, width, signal) => frameSource(ctx, videoId, width, signal),
  };
}

type SourceContext = ReturnType<typeof sourceContext>;

/** What every request of one source shares: the fetch through the proxies, sessions, PO tokens, chains and pacing. */
function sourceContext(opts: YoutubeSourceOptions) {
  const baseUrl = opts.baseUrl && opts.baseUrl !== YOUTUBE_ORIGIN ? opts.baseUrl : undefined;
  const proxies = createProxyPool(opts.proxyUrls, opts.residentialProxyUrls, residentialMeter(opts));
  const ytFetch = createYoutubeFetch({
    baseUrl,
    fetch: opts.fetch,
    timeoutMs: opts.timeoutMs,
    proxies,
    clients: clientIdentities(opts.clientVersions),
  });
  const sessions = createSessions({
    fetch: ytFetch,
    cookie: opts.cookie,
    poToken: opts.poToken,
    visitorData: opts.visitorData,
    signedInCookie: opts.ageGateCookie,
  });
  const playerScripts = new PlayerScripts({
    fetch: ytFetch,
    poToken: opts.poToken,
    variants: opts.playerVariants,
    onUse: opts.onPlayerScript,
    log: opts.log,
  });
  const { provider, tokens } = poTokens(opts);
  const chains = sourceChains(opts, !!tokens);
  const pacer = egressPacer(opts, proxies.identities);
  const captionPacer = egressPacer(opts, proxies.identities, 'captions');
  const retired = createRetiredClients({ log: opts.log, onRetired: opts.onClientRetired });
  const ladder = egressLadder(opts, proxies);
  const chain = chainContexts(opts, { sessions, ytFetch, chains, tokens, retired, pacer, ladder });
  const rewrite = (url: string) => (baseUrl ? rewriteOrigin(url, baseUrl).toString() : url);
  const report = async (client: string, purpose: Purpose, identity: string, kind: OutcomeKind, reason?: string) => {
    await (purpose === 'captions' ? captionPacer : pacer)
      ?.report({ client, purpose, identity, kind }, reason)
      .catch((e: unknown) => opts.log?.warn({ err: String(e) }, 'youtube outcome not recorded'));
  };
  const identities = proxies.identities;
  return {
    ytFetch,
    sessions,
    playerScripts,
    provider,
    tokens,
    chains,
    pacer,
    captionPacer,
    chain,
    rewrite,
    report,
    identities,
    cheap: proxies.cheap,
    log: opts.log,
  };
}

/**
 * Bytes through a residential identity: on /metrics always; inside a reservation they are summed for its settling,
 * else (a caption or stream URL bound to the identity) added to the cluster's count as they come.
 */
function residentialMeter(opts: YoutubeSourceOptions): ByteMeter | undefined {
  const res = opts.residential;
  if (!res) return undefined;
  return (identity, scope, direction, bytes) => {
    const purpose = scope?.purpose ?? 'other';
    res.onBytes?.(identity, purpose, direction, bytes);
    if (scope?.reserved) scope.bytes += bytes;
    else
      res.budget
        .add(identity, purpose, bytes)
        .catch((e: unknown) => opts.log?.warn({ err: String(e) }, 'youtube residential bytes not recorded'));
  };
}

/** The ladder's rungs; a residential step reserves its bytes first and settles them with what was counted. */
function egressLadder(opts: YoutubeSourceOptions, proxies: ReturnType<typeof createProxyPool>): Ladder | undefined {
  const res = opts.residential;
  const cheap = proxies.cheap;
  if (!res || proxies.residential.length === 0)
    return { cheap, residential: [], spend: (_, fn) => fn(), cheapBotChecked: async () => false };
  const store = opts.egress?.store;
  return {
    cheap,
    residential: proxies.residential,
    cheapBotChecked: async () =>
      !!store &&
      (await store.states(cheap)).some(
        (s) => !!s.coolingUntil && s.coolingUntil.getTime() > Date.now() && /not a bot/i.test(s.lastReason ?? ''),
      ),
    async spend(identity, fn) {
      const purpose = meterScope.getStore()?.purpose ?? 'other';
      const reserved = await res.budget.reserve(identity, purpose);
      const scope: MeterScope = { purpose, bytes: 0, reserved: true, cap: reserved };
      try {
        return await meterScope.run(scope, fn);
      } finally {
        scope.reserved = false;
        await res.budget
          .settle(identity, purpose, reserved, scope.bytes)
          .catch((e: unknown) => opts.log?.warn({ err: String(e) }, 'youtube residential bytes not settled'));
      }
    },
  };
}

/** The operator's token provider (or a static token), behind a cache that notes each mint. */
function poTokens(opts: YoutubeSourceOptions) {
  const provider = opts.poTokens ?? (opts.poToken ? createStaticTokenProvider(opts.poToken) : undefined);
  const tokens = provider
    ? createTokenCache(provider, {
        onMint: (m: MintedToken) => opts.onTokenMinted?.(provider.kind, m.path ?? 'provider'),
      })
    : undefined;
  return { provider, tokens };
}

/** The client chain of each purpose, with what its requests go through. */
function chainContexts(
  opts: YoutubeSourceOptions,
  s: {
    sessions: ReturnType<typeof createSessions>;
    ytFetch: typeof fetch;
    chains: Record<ChainPurpose, string[]>;
    tokens: ReturnType<typeof poTokens>['tokens'];
    retired: ChainContext['retired'];
    pacer: EgressPacer | undefined;
    ladder: Ladder | undefined;
  },
): (purpose: ChainPurpose) => ChainContext {
  const { sessions, ytFetch, chains, tokens, retired, pacer, ladder } = s;
  const egress = opts.egress;
  return (purpose) => ({
    innertube: sessions.plain,
    signedIn: sessions.signedIn,
    gateFallbacks: opts.gateFallbacks ?? true,
    fetch: ytFetch,
    clients: chains[purpose],
    purpose,
    log: opts.log,
    webToken: tokens ? (videoId, identity, signal) => tokens.forVideo(videoId, identity, signal) : undefined,
    retired,
    pacer,
    signedInAllowed: egress ? () => takeSignedIn(egress) : undefined,
    through: (identity, fn) => egressScope.run(identity, fn),
    ladder: ladder && { ...ladder, spend: (identity, fn) => inScope(purpose, () => ladder.spend(identity, fn)) },
  });
}

/** Requests made inside `fn` are metered under `purpose`. */
const inScope = <T>(purpose: string, fn: () => Promise<T>) =>
  meterScope.run({ purpose, bytes: 0, reserved: false }, fn);

/** The signed-in account's budget: a key of its own in the egress store, taken before each request made as it. */
async function takeSignedIn(egress: EgressOptions): Promise<boolean> {
  return (await egress.store.take(['signed-in'], egress.signedInPerHour ?? 20)) !== null;
}

/** Player requests' budget, or (captions) the caption downloads' own, per identity. */
function egressPacer(opts: YoutubeSourceOptions, identities: string[], budget?: 'captions'): EgressPacer | undefined {
  if (!opts.egress) return undefined;
  const captions = budget === 'captions';
  return createEgressPacer(
    captions ? captionBudgetStore(opts.egress.store) : opts.egress.store,
    {
      identities,
      noun: captions ? 'caption budget' : undefined,
      budgetPerHour: captions
        ? (opts.egress.captionBudgetPerHour ?? opts.egress.budgetPerHour)
        : opts.egress.budgetPerHour,
      cooldownBaseSeconds: opts.egress.cooldownBaseSeconds,
      cooldownMaxSeconds: opts.egress.cooldownMaxSeconds,
    },
    { onOutcome: opts.egress.onOutcome },
  );
}

/** Caption URLs that need a PO token download empty without one: prefer a client whose URLs work. */
function captionsUsable({ tokens }: SourceContext, r: PlayerResult): Refusal {
  const tracks = mapTracks(r.info, r.raw);
  const canMint = r.poToken || (r.client === WATCH_PAGE && tokens);
  return !canMint && tracks.length > 0 && tracks.every((t) => needsCaptionToken(t.ref))
    ? { reason: `${r.client}: caption URLs need a PO token`, kind: 'no_token' }
    : undefined;
}

/**
 * A stream URL YouTube refuses (403: android_vr's fate in August 2026, or a missing PO token) is no use to ffmpeg:
 * one small ranged request through the identity that got it tells, and the chain asks the next client.
 */
async function streamRefused(
  { ytFetch }: SourceContext,
  url: string,
  identity: string,
  signal?: AbortSignal,
): Promise<boolean> {
  try {
    const res = await egressScope.run(identity, () =>
      ytFetch(url, { headers: { Range: 'bytes=0-0' }, redirect: 'manual', signal }),
    );
    await res.body?.cancel();
    return res.status === 403;
  } catch {
    return false; // unreachable or slow: ffmpeg will say so with its own error
  }
}

/** The chosen format's URL per answer, or null when YouTube refused it; filled in by the streams chain's accept. */
function streamAcceptance(ctx: SourceContext, choose: (r: PlayerResult) => Format | undefined, signal?: AbortSignal) {
  const urls = new WeakMap<PlayerResult, string | null>();
  // Why an answer's URL could not be deciphered (both player script builds failed): the caller's error when no
  // storyboard stands in.
  const failures = new WeakMap<PlayerResult, ServiceError>();
  const accept = async (r: PlayerResult): Promise<Refusal> => {
    const format = choose(r);
    // Storyboards, or the caller's own error, when no later client gives a stream (the first answer is kept).
    if (!format) return { reason: `${r.client}: no usable stream URL in its answer`, kind: 'no_stream' };
    let url: string | undefined;
    try {
      url = await streamUrl(ctx, r, format);
    } catch (e) {
      ctx.log?.warn(
        { client: r.client, err: e instanceof Error ? e.message : String(e) },
        'youtube stream URL unavailable',
      );
      if (e instanceof ServiceError) failures.set(r, e);
      return undefined;
    }
    if (url && (await streamRefused(ctx, url, r.identity, signal))) {
      urls.set(r, null);
      return { reason: `${r.client}: YouTube refused its stream URL (HTTP 403)`, kind: 'stream_403' };
    }
    urls.set(r, url ?? null);
    return undefined;
  };
  return { accept, urlOf: (r: PlayerResult) => urls.get(r) ?? null, failure: (r: PlayerResult) => failures.get(r) };
}

/** Tracks as the result's client answered them, with the PO token added where their URLs need one. */
async function usableTracks(
  { tokens }: SourceContext,
  r: PlayerResult,
  videoId: string,
  signal?: AbortSignal,
): Promise<SourceTrack[]> {
  const tracks = mapTracks(r.info, r.raw);
  const base = r.client.replace(SIGNED_IN, '');
  const web = takesWebToken(base) || r.client === WATCH_PAGE;
  let token = r.poToken;
  if (web && !token && tokens && tracks.some((t) => needsCaptionToken(t.ref))) {
    token = (await tokens.forVideo(videoId, r.identity, signal).catch(() => undefined))?.token;
  }
  // The watch page is the WEB client's page: its URLs take c=WEB; c= is the client's InnerTube name.
  const clientName = r.client === WATCH_PAGE ? 'WEB' : base === 'WEB_EMBEDDED' ? 'WEB_EMBEDDED_PLAYER' : base;
  return tracks.map((t) => {
    const bound = web && token && needsCaptionToken(t.ref);
    const ref = bound ? addCaptionToken(t.ref, token!, clientName) : t.ref;
    const mark = new URLSearchParams({ client: r.client, ...(bound ? { identity: r.identity } : {}) });
    return { ...t, ref: `${ref}#${mark}` };
  });
}

/**
 * The client a track's URL came from, and for a URL carrying a PO token the identity it is bound to, kept in the
 * URL's fragment (never sent): counted when it is downloaded, and downloaded through that identity.
 */
function markOf(ref: string): { client: string; identity?: string } {
  const mark = new URLSearchParams(ref.split('#')[1] ?? '');
  return { client: mark.get('client') ?? 'stored', identity: mark.get('identity') ?? undefined };
}

/** One caption download, from the caption budget of an identity (the one its token is bound to, when it is). */
async function download({ captionPacer, ytFetch, report, cheap }: SourceContext, ref: string, signal?: AbortSignal) {
  const { client, identity: bound } = markOf(ref);
  // Caption bodies stay on the cheapest rung, unless the URL's PO token binds them to the cheap identity that got it
  // (a residential identity's token was minted off its proxy, and its proxy carries only reserved player requests).
  const among = bound && cheap.includes(bound) ? [bound] : cheap;
  const identity = captionPacer ? await captionPacer.take(among) : (among[0] ?? DIRECT);
  try {
    const segments = await egressScope.run(identity, () =>
      inScope('captions', () => downloadCaptions(ytFetch, ref, signal)),
    );
    await report(client, 'captions', identity, 'served');
    return segments;
  } catch (e) {
    if (!signal?.aborted)
      await report(
        client,
        'captions',
        identity,
        e instanceof RetryableCaptionError ? e.kind : 'error',
        e instanceof Error ? e.message : undefined,
      );
    throw e;
  }
}

async function transcriptOf(ctx: SourceContext, track: SourceTrack, signal?: AbortSignal) {
  const bare = (ref: string) => ref.split('#')[0]!;
  const tried = new Set([bare(track.ref)]);
  let lastError: RetryableCaptionError;
  try {
    return await download(ctx, track.ref, signal);
  } catch (e) {
    if (!(e instanceof RetryableCaptionError)) throw e;
    lastError = e;
  }
  // A 429 is about the identity's caption budget, not the URL: another client's URL would meet the same limit. The
  // same URL again takes another identity's caption budget, or says SERVICE_BUSY until one rests enough.
  if (lastError.kind === 'rate_limited') {
    if (!ctx.captionPacer) throw lastError;
    for (let left = ctx.identities.length; ; left--) {
      try {
        return await download(ctx, track.ref, signal);
      } catch (e) {
        if (!(e instanceof RetryableCaptionError && e.kind === 'rate_limited') || left <= 1) throw e;
      }
    }
  }
  // The URL we were given failed in a way another client's URL for the same track may not: ask each client again.
  const videoId = new URL(track.ref, YOUTUBE_ORIGIN).searchParams.get('v');
  for (const client of videoId ? ctx.chains.captions : []) {
    let result: PlayerResult;
    let same: SourceTrack | undefined;
    try {
      result = await fetchPlayer({ ...ctx.chain('captions'), clients: [client] }, videoId as string, signal);
      same = (await usableTracks(ctx, result, videoId as string, signal)).find(
        (t) => t.lang === track.lang && t.autoGenerated === track.autoGenerated && !tried.has(bare(t.ref)),
      );
    } catch (e) {
      if (e instanceof ServiceError && e.code === 'SERVICE_BUSY') throw e;
      continue;
    }
    if (!same) continue;
    tried.add(bare(same.ref));
    try {
      return await download(ctx, same.ref, signal);
    } catch (e) {
      if (!(e instanceof RetryableCaptionError)) throw e;
      lastError = e;
    }
  }
  throw new ServiceError('EXTRACTION_FAILED', `Could not download the "${track.lang}" subtitles: ${lastError.message}`);
}

/** A format's URL, deciphered when ciphered (player-scripts.ts), with the PO token a web client's streams need. */
async function streamUrl({ playerScripts, rewrite }: SourceContext, result: PlayerResult, format: Format) {
  const url = format.url ? format.url : await playerScripts.decipher(format);
  if (!url) return undefined;
  return rewrite(result.poToken ? addStreamToken(url, result.poToken) : url);
}

async function frameSource(
  ctx: SourceContext,
  videoId: string,
  width: number,
  signal?: AbortSignal,
): Promise<FrameSource> {
  const choose = (r: PlayerResult) => chooseFrameFormat(r.info.streaming_data, width);
  const streams = streamAcceptance(ctx, choose, signal);
  const result = await fetchPlayer(ctx.chain('streams'), videoId, signal, streams.accept);
  const format = choose(result);
  const url = streams.urlOf(result);
  // A plain URL is used as is; a ciphered one needed YouTube's player script (run in node:vm).
  if (format && url)
    return { kind: 'stream', url, width: format.width ?? width, height: format.height ?? 0, egress: result.identity };
  const storyboard = storyboardSource(result.raw, result.info.basic_info.duration ?? 0, ctx.rewrite);
  return storyboard
    ? { ...storyboard, egress: result.identity }
    : Promise.reject(streams.failure(result) ?? noFrameSource(videoId));
}

async function audioSource(ctx: SourceContext, videoId: string, signal?: AbortSignal): Promise<AudioSource> {
  const choose = (r: PlayerResult) => chooseSpeechFormat(r.info.streaming_data);
  const streams = streamAcceptance(ctx, choose, signal);
  const result = await fetchPlayer(ctx.chain('streams'), videoId, signal, streams.accept);
  const format = choose(result);
  if (!format) throw new ServiceError('EXTRACTION_FAILED', `No audio stream is available for ${videoId}`);
  const url = streams.urlOf(result);
  const failure = streams.failure(result);
  if (!url && failure) throw failure;
  if (!url)
    throw new ServiceError(
      'EXTRACTION_FAILED',
      `No usable audio stream URL for ${videoId} (it could not be deciphered, or YouTube refused it)`,
    );
  const seconds = format.approx_duration_ms
    ? format.approx_duration_ms / 1000
    : (result.info.basic_info.duration ?? null);
  return { url, bytes: format.content_length ?? null, seconds, kind: 'file', egress: result.identity };
}
