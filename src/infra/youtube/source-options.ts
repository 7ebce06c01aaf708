// The YouTube source's options as the configuration sets them: one place for the service (build-deps.ts), the
// scheduled canary and `youtube check`, so the canary asks YouTube exactly as the service does.
import type { Config } from '../../config.ts';
import type { PoTokenProvider } from '../../domain/youtube/po-token.ts';
import { readYoutubeCookies } from './cookies-file.ts';
import type { EgressOptions, ResidentialOptions, YoutubeSourceOptions } from './create-youtube-source.ts';

export function youtubeSourceOptions(
  config: Config,
  extra: {
    poTokens?: PoTokenProvider | null;
    egress?: EgressOptions;
    residential?: ResidentialOptions;
    log?: YoutubeSourceOptions['log'];
    onTokenMinted?: YoutubeSourceOptions['onTokenMinted'];
    onClientRetired?: YoutubeSourceOptions['onClientRetired'];
    onPlayerScript?: YoutubeSourceOptions['onPlayerScript'];
  },
): YoutubeSourceOptions {
  return {
    baseUrl: config.YOUTUBE_BASE_URL,
    proxyUrls: config.YOUTUBE_PROXY_URLS,
    residentialProxyUrls: config.YOUTUBE_RESIDENTIAL_PROXY_URLS,
    residential: extra.residential,
    cookie: config.YOUTUBE_COOKIE,
    poToken: config.YOUTUBE_PO_TOKEN,
    poTokens: extra.poTokens ?? undefined,
    visitorData: config.YOUTUBE_VISITOR_DATA,
    ageGateCookie: config.YOUTUBE_AGE_GATE_COOKIES_FILE
      ? readYoutubeCookies(config.YOUTUBE_AGE_GATE_COOKIES_FILE)
      : undefined,
    timeoutMs: config.YOUTUBE_TIMEOUT_MS,
    chains: {
      captions: config.YOUTUBE_CAPTION_CLIENTS,
      metadata: config.YOUTUBE_METADATA_CLIENTS,
      streams: config.YOUTUBE_STREAM_CLIENTS,
    },
    egress: extra.egress && {
      captionBudgetPerHour: config.YOUTUBE_CAPTION_REQUESTS_PER_HOUR,
      ...extra.egress,
    },
    log: extra.log,
    clientVersions: config.YOUTUBE_CLIENT_VERSIONS,
    onTokenMinted: extra.onTokenMinted,
    onClientRetired: extra.onClientRetired,
    onPlayerScript: extra.onPlayerScript,
  };
}
