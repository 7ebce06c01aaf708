// Innertube instances, created once per source and reused. The plain one makes no request at creation
// (session generated locally, no player, no remote config). Stream URLs are deciphered apart, with the player script
// builds of player-scripts.ts.
import { Innertube, Log, Parser } from 'youtubei.js';

export interface SessionOptions {
  fetch: typeof fetch;
  cookie?: string;
  poToken?: string;
  visitorData?: string;
  /** The operator's signed-in identity for age-gated videos (YOUTUBE_AGE_GATE_COOKIES_FILE); no session without it. */
  signedInCookie?: string;
}

// youtubei.js prints to stderr, with a stack trace or a generated class, every renderer it does not know or that
// changed shape (YouTube changes them monthly). We read what we need from the raw JSON (player-response.ts), so
// these are noise in the service's JSON logs and in test output: its parser hook turns them off.
Parser.setParserErrorHandler(() => {});
// Its player warnings ("Decipher script returned an error") go to console.warn too; player-scripts.ts logs each
// failure itself, as a JSON line with the player id and build.
Log.setLevel(Log.Level.NONE);

export function createSessions(opts: SessionOptions) {
  const make = (cookie = opts.cookie) =>
    Innertube.create({
      fetch: opts.fetch,
      retrieve_player: false,
      generate_session_locally: true,
      retrieve_innertube_config: false,
      enable_session_cache: false,
      // English reasons: classify-playability matches some of YouTube's English phrases.
      lang: 'en',
      location: 'US',
      cookie,
      po_token: opts.poToken,
      visitor_data: opts.visitorData,
    });
  let plain: Promise<Innertube> | undefined;
  let signedIn: Promise<Innertube> | undefined;
  return {
    // A failed creation is not cached, so the next call tries again.
    plain: () => {
      plain ??= make();
      plain.catch(() => (plain = undefined));
      return plain;
    },
    // youtubei.js sends a cookie session's Cookie and SAPISIDHASH authorization on its InnerTube requests.
    signedIn: opts.signedInCookie
      ? () => {
          signedIn ??= make(opts.signedInCookie);
          signedIn.catch(() => (signedIn = undefined));
          return signedIn;
        }
      : undefined,
  };
}
