// Innertube instances, created once per source and reused. The plain one makes no request at creation
// (session generated locally, no player, no remote config). The deciphering one downloads YouTube's player script
// and is only built when a stream URL is signature-ciphered.
import { Innertube, Parser, Platform } from 'youtubei.js';
import { createPlayerEvaluator } from './player-evaluator.ts';

export interface SessionOptions {
  fetch: typeof fetch;
  cookie?: string;
  poToken?: string;
  visitorData?: string;
  /** The operator's signed-in identity for age-gated videos (YOUTUBE_AGE_GATE_COOKIES_FILE); no session without it. */
  signedInCookie?: string;
}

// youtubei.js takes its JavaScript evaluator from a process-wide shim; ours runs player code in node:vm.
Platform.shim.eval = createPlayerEvaluator();

// youtubei.js prints to stderr, with a stack trace or a generated class, every renderer it does not know or that
// changed shape (YouTube changes them monthly). We read what we need from the raw JSON (player-response.ts), so
// these are noise in the service's JSON logs and in test output: its parser hook turns them off.
Parser.setParserErrorHandler(() => {});

export function createSessions(opts: SessionOptions) {
  const make = (retrievePlayer: boolean, cookie = opts.cookie) =>
    Innertube.create({
      fetch: opts.fetch,
      retrieve_player: retrievePlayer,
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
  let deciphering: Promise<Innertube> | undefined;
  let signedIn: Promise<Innertube> | undefined;
  // A failed creation is not cached, so the next call tries again.
  const cached = (
    get: () => Promise<Innertube> | undefined,
    set: (p: Promise<Innertube> | undefined) => void,
    player: boolean,
  ) => {
    let p = get();
    if (!p) {
      p = make(player);
      set(p);
      p.catch(() => set(undefined));
    }
    return p;
  };
  return {
    plain: () =>
      cached(
        () => plain,
        (p) => (plain = p),
        false,
      ),
    deciphering: () =>
      cached(
        () => deciphering,
        (p) => (deciphering = p),
        true,
      ),
    // youtubei.js sends a cookie session's Cookie and SAPISIDHASH authorization on its InnerTube requests.
    signedIn: opts.signedInCookie
      ? () => {
          signedIn ??= make(false, opts.signedInCookie);
          signedIn.catch(() => (signedIn = undefined));
          return signedIn;
        }
      : undefined,
  };
}
