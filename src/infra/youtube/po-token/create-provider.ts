// Which PO token provider the configuration asks for: a bgutil-ytdlp-pot-provider server first, then in-process
// minting; null when neither (a static YOUTUBE_PO_TOKEN, if set, is the source's last resort).
import type { Config } from '../../../config.ts';
import type { PoTokenProvider } from '../../../domain/youtube/po-token.ts';
import { createInProcessTokenProvider } from './bgutils-provider.ts';
import { createHttpTokenProvider } from './http-provider.ts';

export function createPoTokenProvider(
  config: Pick<
    Config,
    | 'YOUTUBE_POT_PROVIDER_URL'
    | 'YOUTUBE_POT_IN_PROCESS'
    | 'YOUTUBE_BASE_URL'
    | 'YOUTUBE_PROXY_URLS'
    | 'YOUTUBE_TIMEOUT_MS'
  >,
): (PoTokenProvider & { close?(): Promise<void> }) | null {
  if (config.YOUTUBE_POT_PROVIDER_URL)
    return createHttpTokenProvider({ url: config.YOUTUBE_POT_PROVIDER_URL, timeoutMs: config.YOUTUBE_TIMEOUT_MS * 2 });
  if (config.YOUTUBE_POT_IN_PROCESS) {
    return createInProcessTokenProvider({
      baseUrl: config.YOUTUBE_BASE_URL === 'https://www.youtube.com' ? undefined : config.YOUTUBE_BASE_URL,
      proxyUrl: config.YOUTUBE_PROXY_URLS[0],
      timeoutMs: config.YOUTUBE_TIMEOUT_MS,
    });
  }
  return null;
}
