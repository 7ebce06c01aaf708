// Which PO token provider the configuration asks for: a bgutil-ytdlp-pot-provider server first, then in-process
// minting; null when neither (a static YOUTUBE_PO_TOKEN, if set, is the source's last resort). Either mints through
// the egress identity the token is for (its proxy of YOUTUBE_PROXY_URLS).
import type { Config } from '../../../config.ts';
import type { PoTokenProvider } from '../../../domain/youtube/po-token.ts';
import { identityName } from '../proxy-pool.ts';
import { createInProcessTokenProvider } from './bgutils-provider.ts';
import { createHttpTokenProvider, ProviderTooOld } from './http-provider.ts';

export type ConfiguredProvider = PoTokenProvider & {
  close?(): Promise<void>;
  checkVersion?(signal?: AbortSignal): Promise<string>;
};

export function createPoTokenProvider(
  config: Pick<
    Config,
    | 'YOUTUBE_POT_PROVIDER_URL'
    | 'YOUTUBE_POT_IN_PROCESS'
    | 'YOUTUBE_BASE_URL'
    | 'YOUTUBE_PROXY_URLS'
    | 'YOUTUBE_TIMEOUT_MS'
  >,
): ConfiguredProvider | null {
  // Residential proxies are left out on purpose: a provider minting through one would spend bytes no meter sees.
  const urls = new Map(config.YOUTUBE_PROXY_URLS.filter(Boolean).map((url, i) => [identityName(url, i), url]));
  const proxyFor = (identity: string) => urls.get(identity);
  if (config.YOUTUBE_POT_PROVIDER_URL)
    return createHttpTokenProvider({
      url: config.YOUTUBE_POT_PROVIDER_URL,
      timeoutMs: config.YOUTUBE_TIMEOUT_MS * 2,
      proxyFor,
    });
  if (config.YOUTUBE_POT_IN_PROCESS) {
    return createInProcessTokenProvider({
      baseUrl: config.YOUTUBE_BASE_URL === 'https://www.youtube.com' ? undefined : config.YOUTUBE_BASE_URL,
      proxyFor,
      timeoutMs: config.YOUTUBE_TIMEOUT_MS,
    });
  }
  return null;
}

/**
 * At start: a provider that says it is too old stops the start with its message (its tokens would be refused on
 * every stream); one that does not answer yet (starting beside us) is only logged, and asked again before its
 * first mint.
 */
export async function checkPoTokenProvider(
  provider: ConfiguredProvider | null,
  log: { info: (...a: unknown[]) => void; warn: (...a: unknown[]) => void },
): Promise<void> {
  if (!provider?.checkVersion) return;
  try {
    const version = await provider.checkVersion();
    log.info({ version }, 'PO token provider is bgutil-ytdlp-pot-provider %s', version);
  } catch (e) {
    if (e instanceof ProviderTooOld) throw e;
    log.warn({ err: e instanceof Error ? e.message : String(e) }, 'PO token provider not reachable yet');
  }
}
