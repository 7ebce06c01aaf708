// Clients youtubei.js does not name, asked as one it does with another version: yt-dlp's "downgraded" TV client,
// whose older version YouTube still answers with plain formats where the current one gets SABR only
// (yt-dlp/yt-dlp#14887). The request youtubei.js builds for the base client is rewritten on its way out
// (youtube-fetch.ts), so its parser reads the answer as the base client's.
import type { Types } from 'youtubei.js';

export interface ClientVariant {
  base: Types.InnerTubeClient;
  clientVersion: string;
  userAgent?: string;
}

const CLIENT_VARIANTS: Readonly<Record<string, ClientVariant>> = {
  // yt-dlp's `tv_downgraded` (yt_dlp/extractor/youtube/_base.py): TVHTML5 5.20260114 in January 2026, 5.20260707
  // since July 2026 (the table pytubefix copied from yt-dlp in JuanBindez/pytubefix#677, September 2026).
  TV_DOWNGRADED: {
    base: 'TV',
    clientVersion: '5.20260707',
    userAgent: 'Mozilla/5.0 (ChromiumStylePlatform) Cobalt/Version',
  },
};

/** The client youtubei.js is asked to speak as, and the variant to rewrite its request into, if any. */
export function youtubeiClient(client: string): { name: Types.InnerTubeClient; variant?: ClientVariant } {
  const variant = CLIENT_VARIANTS[client];
  return variant ? { name: variant.base, variant } : { name: client as Types.InnerTubeClient };
}

/** A /player request body with the variant's version and user agent in its client context. */
export function rewriteClientContext(body: string, variant: ClientVariant): string {
  const json = JSON.parse(body) as { context?: { client?: Record<string, unknown> } };
  const client = json.context?.client;
  if (!client) return body;
  client.clientVersion = variant.clientVersion;
  if (variant.userAgent) client.userAgent = variant.userAgent;
  return JSON.stringify(json);
}
