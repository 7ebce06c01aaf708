// What each InnerTube client says it is: name, version, user agent and OS, as data. YouTube retires old client
// versions (HTTP 400 FAILED_PRECONDITION from /player: lavalink-devs/youtube-source#231 for ANDROID, August 2026),
// and youtubei.js 18.1.0 (the newest on npm) still sends ANDROID 21.03.36, IOS 20.11.6, MWEB 2.20260205 and
// VISIONOS 1.02. These values replace its constants on every InnerTube request (youtube-fetch.ts rewrites the
// request's context and headers), so the day YouTube retires one, the change is this table or one setting
// (YOUTUBE_CLIENT_VERSIONS), not a library upgrade. Where each value comes from is in `source` and in NOTES.md
// ("YouTube client versions").
//
// A row with `base` is a client youtubei.js does not name (yt-dlp's TV_DOWNGRADED): youtubei.js builds the request
// as `base`, and it goes out as the row only when the chain asked for that client (PlayerCapture.variant), never
// because its clientName matches.
import type { Types } from 'youtubei.js';

export interface ClientIdentity {
  /** `context.client.clientName` as sent. */
  name: string;
  version: string;
  userAgent: string;
  osName?: string;
  osVersion?: string;
  deviceMake?: string;
  deviceModel?: string;
  /** Where the values were read (a yt-dlp or NewPipe change), for the next person who updates them. */
  source: string;
  /** The youtubei.js client the request is built as, for a client youtubei.js does not name. */
  base?: Types.InnerTubeClient;
}

/** Keyed by the chain's client name (what YOUTUBE_*_CLIENTS lists). */
export const CLIENT_IDENTITIES: Readonly<Record<string, ClientIdentity>> = {
  // yt-dlp/yt-dlp#17185 (July 2026) moved android to 21.26.364; user agent and OS in the shape of yt-dlp's android
  // client (yt_dlp/extractor/youtube/_base.py: "com.google.android.youtube/<version> (Linux; U; Android 11) gzip").
  ANDROID: {
    name: 'ANDROID',
    version: '21.26.364',
    userAgent: 'com.google.android.youtube/21.26.364 (Linux; U; Android 11) gzip',
    osName: 'Android',
    osVersion: '11',
    source: 'yt-dlp/yt-dlp#17185 (2026-07)',
  },
  // yt-dlp/yt-dlp#17185: ios 21.26.4; device and OS as yt-dlp's ios client (iPhone16,2, iOS 18.3.2).
  IOS: {
    name: 'IOS',
    version: '21.26.4',
    userAgent: 'com.google.ios.youtube/21.26.4 (iPhone16,2; U; CPU iOS 18_3_2 like Mac OS X;)',
    osName: 'iPhone',
    osVersion: '18.3.2.22D82',
    deviceMake: 'Apple',
    deviceModel: 'iPhone16,2',
    source: 'yt-dlp/yt-dlp#17185 (2026-07)',
  },
  // yt-dlp/yt-dlp#17185: mweb 2.20260708 (the web clients' versions end in a build suffix, ".01.00" here as in
  // yt-dlp's and youtubei.js's web versions); the iPad Safari user agent of yt-dlp's mweb client. No OS: a browser.
  MWEB: {
    name: 'MWEB',
    version: '2.20260708.01.00',
    userAgent:
      'Mozilla/5.0 (iPad; CPU OS 16_7_10 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1,gzip(gfe)',
    source: 'yt-dlp/yt-dlp#17185 (2026-07)',
  },
  // NewPipe's visionOS client (NewPipeExtractor ClientsConstants: VISIONOS_CLIENT_VERSION "1.04", VISIONOS_VERSION
  // "26.6.0.23O770", device RealityDevice17,1; the app's user agent as its getVisionOsUserAgent builds it).
  // youtubei.js 18.1.0 sends 1.02 on visionOS 26.5 with a desktop Safari user agent.
  VISIONOS: {
    name: 'VISIONOS',
    version: '1.04',
    userAgent: 'com.google.visionos.youtube/1.04(RealityDevice17,1; U; CPU visionOS 26_6_0 like Mac OS X; US)',
    osName: 'visionOS',
    osVersion: '26.6.0.23O770',
    deviceMake: 'Apple',
    deviceModel: 'RealityDevice17,1',
    source: 'NewPipe (NewPipeExtractor ClientsConstants, visionOS 26.6)',
  },
  // yt-dlp's `tv_downgraded` (yt_dlp/extractor/youtube/_base.py): TVHTML5 5.20260114 in January 2026, 5.20260707
  // since July 2026 (the table pytubefix copied from yt-dlp in JuanBindez/pytubefix#677, September 2026). The older
  // version is still answered with plain formats where the current one gets SABR only (yt-dlp/yt-dlp#14887).
  TV_DOWNGRADED: {
    name: 'TVHTML5',
    version: '5.20260707',
    userAgent: 'Mozilla/5.0 (ChromiumStylePlatform) Cobalt/Version',
    base: 'TV',
    source: "yt-dlp's tv_downgraded (JuanBindez/pytubefix#677, 2026-09)",
  },
};

/** youtubei.js's `context.client.clientName` for a chain client, where it differs from ours. */
const SENT_NAMES: Readonly<Record<string, string>> = { IOS: 'iOS' };

/**
 * The table with an operator's versions over it (YOUTUBE_CLIENT_VERSIONS, "ANDROID=21.30.1,IOS=21.30.2"): the
 * version is replaced in the user agent too, so one setting moves a client on.
 */
export function clientIdentities(versions: Record<string, string> = {}): Record<string, ClientIdentity> {
  const out: Record<string, ClientIdentity> = { ...CLIENT_IDENTITIES };
  for (const [client, version] of Object.entries(versions)) {
    const base = out[client];
    if (!base) continue;
    out[client] = {
      ...base,
      version,
      userAgent: base.userAgent.split(base.version).join(version),
      source: 'YOUTUBE_CLIENT_VERSIONS',
    };
  }
  return out;
}

/** The chain client a request's `context.client.clientName` belongs to (what youtubei.js sent); never a variant. */
function chainClientOf(sentName: string, table: Record<string, ClientIdentity>): string | undefined {
  for (const [client, id] of Object.entries(table)) {
    if (id.base) continue;
    if (sentName === client || sentName === SENT_NAMES[client] || sentName === id.name) return client;
  }
  return undefined;
}

/** The client youtubei.js is asked to speak as, and the variant row the request goes out as, if any. */
export function youtubeiClient(client: string): { name: Types.InnerTubeClient; variant?: string } {
  const base = CLIENT_IDENTITIES[client]?.base;
  return base ? { name: base, variant: client } : { name: client as Types.InnerTubeClient };
}

/**
 * Rewrites an InnerTube request's client context in place to the table's identity (the `variant` row when the chain
 * asked for one); the identity, whose version and user agent go in the headers.
 */
export function applyClientIdentity(
  context: { client?: Record<string, unknown> },
  table: Record<string, ClientIdentity>,
  variant?: string,
): ClientIdentity | undefined {
  const c = context.client;
  if (!c || typeof c.clientName !== 'string') return undefined;
  const client = variant && table[variant] ? variant : chainClientOf(c.clientName, table);
  const id = client ? table[client] : undefined;
  if (!id) return undefined;
  c.clientName = id.name;
  c.clientVersion = id.version;
  // Only clients that carry a userAgent in their context (the apps) get one there; browsers send it as a header.
  if ('userAgent' in c || id.osName) c.userAgent = id.userAgent;
  if (id.osName) c.osName = id.osName;
  if (id.osVersion) c.osVersion = id.osVersion;
  if (id.deviceMake) c.deviceMake = id.deviceMake;
  if (id.deviceModel) c.deviceModel = id.deviceModel;
  return id;
}
