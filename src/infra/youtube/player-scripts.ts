// Deciphering stream URLs (the signature of a signatureCipher format, the `n` parameter of any) with YouTube's player
// script, in two builds. youtubei.js downloads the web build; when it fails (it throws, or leaves `n` as it was or
// turns it into its error marker), the same player id's TV build is tried once: yt-dlp's documented way through
// (`player_js_variant=tv`) when a player update breaks challenge solving, as in late November 2026. The build that
// worked is remembered per player id, so the next URL goes straight to it. Both failing is EXTRACTION_FAILED naming
// what each build did, and the player id is read again for the next request (a newer player may work).
import { Platform, Player, type YT } from 'youtubei.js';
import { ServiceError } from '../../domain/errors.ts';
import { PLAYER_VARIANTS, type PlayerScriptUse, type PlayerVariant } from '../../domain/youtube/player-scripts.ts';
import { createPlayerEvaluator } from './player-evaluator.ts';
import { playerScriptUrl, VARIANT_PATHS } from './player-script-urls.ts';
import { YOUTUBE_ORIGIN } from './youtube-fetch.ts';

// youtubei.js takes its JavaScript evaluator from a process-wide shim; ours runs player code in node:vm.
Platform.shim.eval = createPlayerEvaluator();

/** The player id is read again after this long, so a new player YouTube rolled out is picked up. */
const PLAYER_ID_TTL_MS = 60 * 60 * 1000;

/** youtubei.js writes this into `n` when the player's own function threw (Player.decipher). */
const N_ERROR_MARKER = 'enhanced_except_';

/** The canary's made-up challenge: a signature and an `n` of the lengths YouTube sends. */
const PROBE_SIGNATURE =
  'AOq0QJ8wRAIgXmPlOPSBkkUs1bYFYlJCfe29xx8j7v1pDL0QwbdV96sCIEzpWqMGkFR20CFOg51Tp-7vj_EMu-m37KtXJ2OySqa0q';
const PROBE_N = 'ZdZIqFPQK-Ty8wId';
const PROBE_URL = `https://rr1---sn-canary.googlevideo.com/videoplayback?expire=1&n=${PROBE_N}&c=WEB`;

type Format = NonNullable<YT.VideoInfo['streaming_data']>['adaptive_formats'][number];

export interface PlayerScriptsOptions {
  fetch: typeof fetch;
  poToken?: string;
  /** The builds to try, in order, when none is known to work for the player id (default: web, then tv). */
  variants?: readonly PlayerVariant[];
  /** Each decipher attempt with a build: /metrics, and the cluster's record for `youtube status`. */
  onUse?: (use: PlayerScriptUse) => void;
  log?: { warn: (...a: unknown[]) => void };
  now?: () => number;
}

export class PlayerScripts {
  readonly #opts: PlayerScriptsOptions;
  readonly #variants: readonly PlayerVariant[];
  #playerId: { id: Promise<string>; at: number } | undefined;
  /** One youtubei.js Player per player id and build; a failed download is not kept. */
  readonly #players = new Map<string, Promise<Player>>();
  /** The build that last deciphered a URL, per player id. */
  readonly #worked = new Map<string, PlayerVariant>();

  constructor(opts: PlayerScriptsOptions) {
    this.#opts = opts;
    this.#variants = opts.variants ?? PLAYER_VARIANTS;
  }

  /** The format's URL with its signature and `n` deciphered; EXTRACTION_FAILED when no build can. */
  async decipher(format: Format): Promise<string> {
    const playerId = await this.#currentPlayerId();
    const failures: string[] = [];
    for (const variant of this.#order(playerId)) {
      try {
        const url = checked(await format.decipher(await this.#player(playerId, variant)), format);
        this.#worked.set(playerId, variant);
        this.#opts.onUse?.({ variant, playerId, outcome: 'ok' });
        return url;
      } catch (e) {
        // The player's own exception text can be long: enough of it to tell one failure from another.
        const error = (e instanceof Error ? e.message : String(e)).slice(0, 200);
        failures.push(`${variant} script: ${error}`);
        this.#opts.onUse?.({ variant, playerId, outcome: 'failed', error });
        this.#opts.log?.warn({ playerId, variant, err: error }, 'youtube player script could not decipher');
      }
    }
    this.#playerId = undefined;
    throw new ServiceError(
      'EXTRACTION_FAILED',
      `Could not decipher the stream URL with player ${playerId} (${failures.join('; ')})`,
    );
  }

  /**
   * The canary's check of one build: it deciphers a made-up signature and `n` on a googlevideo URL (what youtubei.js
   * itself hands the player's function), so the build is checked whether or not a client answered ciphered formats.
   */
  async probe(variant: PlayerVariant): Promise<{ playerId: string; url: string }> {
    const playerId = await this.#currentPlayerId();
    const cipher = new URLSearchParams({ s: PROBE_SIGNATURE, sp: 'sig', url: PROBE_URL }).toString();
    const player = await this.#player(playerId, variant);
    const url = await player.decipher(undefined, cipher);
    const n = new URL(url).searchParams.get('n');
    if (!n || n === PROBE_N) throw new Error(`the ${variant} script left n unchanged`);
    if (n.startsWith(N_ERROR_MARKER)) throw new Error(`the ${variant} script's n function threw (${n.slice(0, 80)})`);
    return { playerId, url: playerScriptUrl(playerId, variant) };
  }

  /** The builds to try for this player id: the one that worked last first. */
  #order(playerId: string): PlayerVariant[] {
    const worked = this.#worked.get(playerId);
    return worked && this.#variants.includes(worked)
      ? [worked, ...this.#variants.filter((v) => v !== worked)]
      : [...this.#variants];
  }

  #player(playerId: string, variant: PlayerVariant): Promise<Player> {
    const key = `${playerId}/${variant}`;
    let player = this.#players.get(key);
    if (!player) {
      player = Player.create(undefined, variantFetch(this.#opts.fetch, variant), this.#opts.poToken, playerId);
      this.#players.set(key, player);
      player.catch(() => this.#players.delete(key));
    }
    return player;
  }

  /** The current player id, as youtubei.js reads it: from the iframe API's script URL. */
  #currentPlayerId(): Promise<string> {
    const now = (this.#opts.now ?? Date.now)();
    if (!this.#playerId || now - this.#playerId.at > PLAYER_ID_TTL_MS) {
      const id = readPlayerId(this.#opts.fetch).then((current) => {
        // Scripts of a player YouTube no longer serves are not needed again.
        for (const key of this.#players.keys()) if (!key.startsWith(`${current}/`)) this.#players.delete(key);
        return current;
      });
      const entry = { id, at: now };
      this.#playerId = entry;
      id.catch(() => {
        if (this.#playerId === entry) this.#playerId = undefined;
      });
    }
    return this.#playerId.id;
  }
}

/** YouTube's player id, from the iframe API script (`...\/s\/player\/<id>\/www-widgetapi.vflset...`). */
async function readPlayerId(fetchImpl: typeof fetch): Promise<string> {
  const res = await fetchImpl(new URL('/iframe_api', YOUTUBE_ORIGIN));
  if (!res.ok)
    throw new ServiceError('EXTRACTION_FAILED', `YouTube's player id could not be read (HTTP ${res.status})`);
  const id = /player\\?\/([\w-]+)\\?\//.exec(await res.text())?.[1];
  if (!id) throw new ServiceError('EXTRACTION_FAILED', "YouTube's player id could not be read from its iframe API");
  return id;
}

/** youtubei.js asks for the web build's path; this fetch asks for the variant's instead. */
function variantFetch(fetchImpl: typeof fetch, variant: PlayerVariant): typeof fetch {
  if (variant === 'web') return fetchImpl;
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const script = /^(\/s\/player\/[\w-]+\/)player_es6\.vflset\/en_US\/base\.js$/.exec(url.pathname);
    if (script) url.pathname = script[1] + VARIANT_PATHS[variant];
    return fetchImpl(url, init);
  };
}

/** The deciphered URL, unless its `n` is untouched or youtubei.js's error marker (googlevideo would throttle or 403). */
function checked(url: string, format: Format): string {
  const before = originalN(format);
  if (!before) return url;
  const after = new URL(url).searchParams.get('n');
  if (!after || after === before) throw new Error('the n function left n unchanged');
  if (after.startsWith(N_ERROR_MARKER)) throw new Error(`the n function threw (${after.slice(0, 80)})`);
  return url;
}

function originalN(format: Format): string | null {
  const raw = format.url ?? new URLSearchParams(format.signature_cipher ?? format.cipher ?? '').get('url');
  if (!raw) return null;
  try {
    return new URL(raw).searchParams.get('n');
  } catch {
    return null;
  }
}
