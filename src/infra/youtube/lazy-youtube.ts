// youtubei.js is about 670 modules and 50 MiB resident once imported: the video source and the lister load it (with
// the adapters built on it) on their first call, so start does not wait for it and an instance that only serves
// stored transcripts never holds it. What the service reads before any call (chains, identities) needs no import.
import type { VideoLister } from '../../domain/listing/ports.ts';
import { sourceChains } from './client-chains.ts';
import type { YoutubeSource, YoutubeSourceOptions } from './create-youtube-source.ts';
import type { YoutubeListerOptions } from './youtube-lister.ts';
import { proxyIdentities } from './proxy-pool.ts';

/** Loads once; a failed load (it should not fail) is tried again by the next call rather than kept. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
}

export function lazyYoutubeSource(opts: YoutubeSourceOptions): YoutubeSource {
  const source = once(async () => (await import('./create-youtube-source.ts')).createYoutubeSource(opts));
  return {
    chains: sourceChains(opts, !!(opts.poTokens ?? opts.poToken)),
    identities: proxyIdentities(opts.proxyUrls, opts.residentialProxyUrls),
    tokenProvider: opts.poTokens?.kind ?? (opts.poToken ? 'static' : null),
    getVideo: async (...a) => (await source()).getVideo(...a),
    fetchTranscript: async (...a) => (await source()).fetchTranscript(...a),
    getFrameSource: async (...a) => (await source()).getFrameSource(...a),
    getAudioSource: async (...a) => (await source()).getAudioSource(...a),
    probePlayerScript: async (...a) => (await source()).probePlayerScript(...a),
  };
}

export function lazyYoutubeLister(opts: YoutubeListerOptions): VideoLister {
  const lister = once(async () => (await import('./youtube-lister.ts')).createYoutubeLister(opts));
  return {
    playlist: async (...a) => (await lister()).playlist(...a),
    resolveChannel: async (...a) => (await lister()).resolveChannel(...a),
    channel: async (...a) => (await lister()).channel(...a),
    search: async (...a) => (await lister()).search(...a),
  };
}
