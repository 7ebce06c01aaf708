// Which InnerTube clients are asked, in which order, for each purpose. Data, not code: each chain can be replaced
// from the environment (YOUTUBE_CAPTION_CLIENTS, YOUTUBE_STREAM_CLIENTS, YOUTUBE_METADATA_CLIENTS) the day
// YouTube breaks a client, without a release. The evidence behind each default is in NOTES.md ("YouTube clients").
//
// - captions: ANDROID first (its caption URLs download without a PO token: what youtube-transcript-api uses),
//   VISIONOS (yt-dlp's default since July 2026; no PO token, no signature code), WEB only with a minted PO token
//   (its caption URLs carry exp=xpe and come back empty without one), then the watch page (metadata and
//   playability when every client is refused).
// - metadata: the same order, since the info answer also stores the track list transcripts are downloaded from.
// - streams (frames, audio): VISIONOS (plain URLs), then WEB with a minted PO token (GVS) and YouTube's player script
//   for the signature; then the watch page, whose storyboards stand in for frames when no stream can be had; MWEB last
//   (no longer a yt-dlp default, and some sessions get only SABR formats and itag 18 from it: yt-dlp/yt-dlp#17666).
// A client that answers "not available" (VISIONOS for a video made for kids) or the age gate is followed by
// WEB_EMBEDDED, then TV_DOWNGRADED, as yt-dlp does (yt-dlp/yt-dlp#17462; see fetch-player.ts).
// ANDROID_VR (all formats 403 since August 2026) and TV_EMBEDDED (removed by YouTube in January 2026) are gone
// from every default; they can still be named in a setting.
import type { Purpose } from '../../domain/youtube/egress.ts';

/** The desktop watch page, tried after every InnerTube client (see watch-page.ts). */
export const WATCH_PAGE = 'WATCH_PAGE';

/** Clients whose caption and stream URLs need a web PO token (BotGuard); skipped when no token can be had. */
export const WEB_CLIENTS: ReadonlySet<string> = new Set(['WEB', 'MWEB', 'WEB_CREATOR']);

/**
 * Web clients that take a PO token when one can be minted but are asked without one: yt-dlp's web_embedded has no
 * GVS token policy (its formats download without one), which is what makes it a fallback for kids and age-gated videos.
 */
const TOKEN_OPTIONAL: ReadonlySet<string> = new Set(['WEB_EMBEDDED']);

/** Clients that take a web PO token, needed or not: their caption and stream URLs carry it too. */
export const takesWebToken = (client: string) => WEB_CLIENTS.has(client) || TOKEN_OPTIONAL.has(client);

/**
 * Asked, in this order, after a client answers "not available" for a video it cannot play (VISIONOS and videos made
 * for kids: yt-dlp/yt-dlp#15780) or the age gate (yt-dlp appends web_embedded then tv_downgraded: yt-dlp/yt-dlp#17462).
 */
export const GATE_FALLBACKS = ['WEB_EMBEDDED', 'TV_DOWNGRADED'] as const;

/** A client asked through the operator's signed-in identity (age-gated videos only): "TV_DOWNGRADED@signed-in". */
export const SIGNED_IN = '@signed-in';

/** The purposes that have a client chain (listing pages always use the WEB client). */
export type ChainPurpose = Exclude<Purpose, 'listing'>;

export type ClientChains = Record<ChainPurpose, string[]>;

export const DEFAULT_CHAINS: ClientChains = {
  captions: ['ANDROID', 'VISIONOS', 'WEB', WATCH_PAGE],
  metadata: ['ANDROID', 'VISIONOS', 'WEB', WATCH_PAGE],
  streams: ['VISIONOS', 'WEB', WATCH_PAGE, 'MWEB'],
};

/**
 * The chains in force: a setting replaces its default whole. Without a way to mint PO tokens, web clients are left
 * out of the defaults (they would only waste a request per video); a chain an operator set is used as written.
 */
export function resolveChains(overrides: Partial<ClientChains>, canMintTokens: boolean): ClientChains {
  const pick = (purpose: ChainPurpose) => {
    const set = overrides[purpose];
    if (set && set.length > 0) return set.map((c) => c.toUpperCase());
    return canMintTokens ? DEFAULT_CHAINS[purpose] : DEFAULT_CHAINS[purpose].filter((c) => !WEB_CLIENTS.has(c));
  };
  return { captions: pick('captions'), metadata: pick('metadata'), streams: pick('streams') };
}

/** The chains a source built with these options asks: one list for every purpose (tests), else `resolveChains`. */
export function sourceChains(
  opts: { clients?: string[]; chains?: Partial<ClientChains> },
  canMintTokens: boolean,
): ClientChains {
  return opts.clients
    ? { captions: opts.clients, metadata: opts.clients, streams: opts.clients }
    : resolveChains(opts.chains ?? {}, canMintTokens);
}
