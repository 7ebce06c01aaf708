// One video's player response through a chain of InnerTube clients. Each client is one POST /youtubei/v1/player;
// an answer about this client or this IP (bot check, HTTP 429/5xx, network error, "not available" for this client,
// captions that need a PO token) moves on to the next, YouTube's final word on the video (not found, private,
// age-restricted, members-only, paid, region-blocked, upcoming) stops the chain at once.
//
// With a pacer, every attempt first takes a request from an egress identity's hourly budget and reports what came
// of it (counted per client and identity); a refusal about the identity (bot check, 429, sign-in wall) cools it and
// asks the same client again from another identity, and when no identity is usable the chain stops with
// SERVICE_BUSY and the time until one is.
//
// Kids and age-gated videos (yt-dlp/yt-dlp#17462): a client that answers "not available" for this client (VISIONOS
// cannot play videos made for kids) or the age gate is followed at once by WEB_EMBEDDED, then TV_DOWNGRADED. After
// the age gate the rest of the chain would only meet it again, so those two (and, when the operator set one, the
// signed-in identity) are all that is left; when they too meet it, the answer is VIDEO_AGE_RESTRICTED as before.

import { YT, type Innertube } from 'youtubei.js';
import { isServiceError, ServiceError } from '../../domain/errors.ts';
import type { Chapter } from '../../domain/video/schemas.ts';
import type { EgressPacer, OutcomeKind, Purpose } from '../../domain/youtube/egress.ts';
import type { MintedToken } from '../../domain/youtube/po-token.ts';
import { classifyPlayability } from './classify-playability.ts';
import { unwrapPlayerResponse, type RawPlayerResponse } from './player-response.ts';
import { findChapters } from './map-video.ts';
import { classifyHtmlPage, extractInitialData, extractPlayerResponse, looksLikeHtml } from './watch-page.ts';
import { GATE_FALLBACKS, SIGNED_IN, takesWebToken, WATCH_PAGE, WEB_CLIENTS } from './client-chains.ts';
import { youtubeiClient } from './client-identities.ts';
import { YoutubeNetworkError } from './network-error.ts';
import { DIRECT } from './proxy-pool.ts';
import type { RetiredClients } from './retired-clients.ts';
import { playerCapture, type PlayerCapture } from './youtube-fetch.ts';

/** Who answered, and how to use what it answered. */
export interface PlayerResult {
  client: string;
  info: YT.VideoInfo;
  raw: RawPlayerResponse;
  /** Chapters found beside the player response (the watch page's ytInitialData). */
  chapters?: Chapter[];
  /** The video-bound PO token the request carried (web clients): its caption and stream URLs need it too. */
  poToken?: string;
  /** The visitor data the token was minted with, sent on the player request in place of the session's. */
  visitorData?: string;
  /** The egress identity the answer came through. */
  identity: string;
}

type Failure = { ok: false; error: ServiceError; kind: OutcomeKind; unreachable?: boolean; final?: boolean };
type Attempt = { ok: true; result: Omit<PlayerResult, 'identity'> } | Failure;

export interface ChainContext {
  innertube: () => Promise<Innertube>;
  /** The operator's signed-in session (YOUTUBE_AGE_GATE_COOKIES_FILE), asked for age-gated videos only. */
  signedIn?: () => Promise<Innertube>;
  /** Takes one request from the signed-in identity's hourly budget; false when it is spent (the client is skipped). */
  signedInAllowed?: () => Promise<boolean>;
  /** Whether a kids or age-gate refusal is followed by WEB_EMBEDDED and TV_DOWNGRADED (not for the canary). */
  gateFallbacks?: boolean;
  fetch: typeof fetch;
  clients: string[];
  purpose: Purpose;
  log?: { warn: (...a: unknown[]) => void; debug: (...a: unknown[]) => void };
  /**
   * A web PO token bound to this video and minted through `identity` (with the visitor data it is bound to), or
   * undefined when none can be minted (web clients are then skipped).
   */
  webToken?: (videoId: string, identity: string, signal?: AbortSignal) => Promise<MintedToken | undefined>;
  /** Client versions YouTube refused as retired: skipped for a while. */
  retired?: RetiredClients;
  pacer?: EgressPacer;
  /** Runs `fn` with every request leaving from `identity` (see youtube-fetch.ts). */
  through?: <T>(identity: string, fn: () => Promise<T>) => Promise<T>;
  /** The egress ladder: cheap identities first, residential ones only once YouTube asked a cheap one for proof. */
  ladder?: Ladder;
}

export interface Ladder {
  cheap: string[];
  residential: string[];
  /** Runs `fn` through a residential identity within the byte budget (SERVICE_BUSY when it is spent). */
  spend: <T>(identity: string, fn: () => Promise<T>) => Promise<T>;
  /** Whether a cheap identity is cooling down after a bot check (not a 429 or a spent budget: those wait). */
  cheapBotChecked: () => Promise<boolean>;
}

/**
 * Player and caption-list requests climb to a residential identity after a bot check; streams never do (their media
 * would have to follow through the same paid exit), and caption bodies are fetched from a cheap one.
 */
const climbs = (ctx: ChainContext) =>
  (ctx.purpose === 'captions' || ctx.purpose === 'metadata') && (ctx.ladder?.residential.length ?? 0) > 0;

/** Reported for attempts no identity was taken for (a web client skipped for want of a token). */
const NO_IDENTITY = 'none';

/** Why an OK answer is no use for the purpose (captions that would download empty, streams that answer 403). */
export type Refusal = { reason: string; kind: OutcomeKind } | undefined;

/**
 * Tries each client in turn; `accept` may turn an OK answer down. When every answer is turned down, the first one
 * is returned anyway (usable metadata beats an error; the caller knows what it refused).
 */
export async function fetchPlayer(
  ctx: ChainContext,
  videoId: string,
  signal?: AbortSignal,
  accept: (r: PlayerResult) => Refusal | Promise<Refusal> = () => undefined,
): Promise<PlayerResult> {
  const chain: ChainRun = {
    clients: [...ctx.clients],
    failures: [],
    gate: { kidsFallbacks: false, ageFallbacks: false },
    retriesLeft: Math.max(0, (ctx.pacer?.identities.length ?? 1) - 1),
    report: outcomeReporter(ctx, videoId),
    climbed: false,
  };
  const { clients, failures } = chain;
  for (let i = 0; i < clients.length; i++) {
    const client = clients[i]!;
    signal?.throwIfAborted();
    const ready = await readyToAsk(ctx, chain, videoId, client, signal);
    if (!ready) continue;
    const { identity, minted } = ready;
    const run = () =>
      client === WATCH_PAGE ? tryWatchPage(ctx, videoId, signal) : tryClient(ctx, videoId, client, minted, signal);
    const routed = () => (ctx.through ? ctx.through(identity, run) : run());
    const attempt = ctx.ladder?.residential.includes(identity)
      ? await ctx.ladder.spend(identity, routed)
      : await routed();
    if (attempt.ok) {
      const result = { ...attempt.result, identity };
      const refusal = await accept(result);
      await chain.report(client, identity, refusal?.kind ?? 'served', refusal?.reason);
      if (!refusal) return result;
      chain.fallback ??= result;
      failures.push(new ServiceError('EXTRACTION_FAILED', refusal.reason));
    } else {
      const next = await afterFailure(ctx, chain, i, identity, attempt);
      if (next === 'gate') continue;
      if (next === 'again') i--;
    }
    ctx.log?.debug({ videoId, client, identity, reason: failures.at(-1)?.message }, 'youtube client fell through');
  }
  // Usable metadata beats an error: the caller learns about the captions when it downloads them.
  if (chain.fallback) return chain.fallback;
  if (chain.gate.ageGate) throw chain.gate.ageGate;
  throw chainError(failures);
}

type Report = (client: string, identity: string, kind: OutcomeKind, reason?: string) => Promise<void>;

/** One walk down the client chain: the clients still to ask (fallbacks join it), and what was met so far. */
interface ChainRun {
  clients: string[];
  failures: ServiceError[];
  /** The first OK answer `accept` turned down. */
  fallback?: PlayerResult;
  gate: Gate;
  /** Asks of the same client again from another identity, after a refusal about the identity. */
  retriesLeft: number;
  report: Report;
  /** A cheap identity met the bot check: the rest of the walk goes through residential identities. */
  climbed: boolean;
}

function outcomeReporter(ctx: ChainContext, videoId: string): Report {
  return async (client, identity, kind, reason) => {
    try {
      await ctx.pacer?.report({ client, purpose: ctx.purpose, identity, kind }, reason);
    } catch (e) {
      ctx.log?.warn({ videoId, client, err: messageOf(e) }, 'youtube outcome not recorded');
    }
  };
}

/** The identity to ask `client` from and the token it carries; undefined (the reason noted) when it is skipped. */
async function readyToAsk(
  ctx: ChainContext,
  chain: ChainRun,
  videoId: string,
  client: string,
  signal?: AbortSignal,
): Promise<{ identity: string; minted: MintedToken | undefined } | undefined> {
  const { failures, report } = chain;
  if (ctx.retired?.has(baseName(client))) {
    failures.push(new ServiceError('EXTRACTION_FAILED', `${client}: skipped, YouTube retired its version`));
    return undefined;
  }
  // WEB, MWEB need a token; WEB_EMBEDDED takes one when it can be had. The signed-in clients are asked without one:
  // a minted token is bound to an anonymous page session, not to the account's.
  const needsToken = WEB_CLIENTS.has(client);
  if (needsToken && !ctx.webToken) {
    failures.push(new ServiceError('EXTRACTION_FAILED', `${client}: skipped, no PO token could be minted for it`));
    await report(client, NO_IDENTITY, 'no_token');
    return undefined;
  }
  // The operator's account is asked only within its own hourly budget, whoever asks and however often.
  if (client.endsWith(SIGNED_IN) && ctx.signedInAllowed && !(await ctx.signedInAllowed())) {
    failures.push(
      new ServiceError('EXTRACTION_FAILED', `${client}: skipped, the signed-in identity's budget is spent`),
    );
    return undefined;
  }
  const identity = await takeIdentity(ctx, chain, client);
  // The token is minted through the identity the player request leaves from: it is bound to that session.
  const minted = takesWebToken(client) ? await mintFor(ctx, videoId, client, identity, signal) : undefined;
  if (needsToken && !minted) {
    failures.push(new ServiceError('EXTRACTION_FAILED', `${client}: skipped, no PO token could be minted for it`));
    await report(client, identity, 'no_token');
    return undefined;
  }
  return { identity, minted };
}

/**
 * Reports a failed attempt and throws when it ends the chain. Else 'gate' (the gate fallbacks go on from here),
 * 'again' (the same client from another identity) or 'on' (the next client).
 */
async function afterFailure(
  ctx: ChainContext,
  chain: ChainRun,
  i: number,
  identity: string,
  attempt: Failure,
): Promise<'gate' | 'again' | 'on'> {
  await chain.report(chain.clients[i]!, identity, attempt.kind, attempt.error.message);
  if (ctx.gateFallbacks && followGate(ctx, chain.gate, chain.clients, i, attempt)) return 'gate';
  // YouTube wants proof from this address: the same client again, from the next rung of the ladder.
  if (attempt.kind === 'bot_check' && climbs(ctx) && !chain.climbed && chain.clients[i] !== WATCH_PAGE) {
    chain.climbed = true;
    chain.failures.push(attempt.error);
    return 'again';
  }
  if (attempt.final) throw attempt.error;
  chain.failures.push(attempt.error);
  // The host does not resolve: every other client (and a retry a second later) would fail the same way.
  if (attempt.unreachable)
    throw new ServiceError('EXTRACTION_FAILED', chainError(chain.failures).message, undefined, { final: true });
  // The identity was refused, not the client: ask the same client again from another identity.
  if (ctx.pacer?.movesOn(attempt.kind) && chain.retriesLeft > 0) {
    chain.retriesLeft--;
    return 'again';
  }
  return 'on';
}

interface Gate {
  kidsFallbacks: boolean;
  ageFallbacks: boolean;
  /** The first age-gate answer: what the caller is told when no fallback gets past it. */
  ageGate?: ServiceError;
}

/**
 * Puts the kids and age-gate fallbacks after `clients[i]` when its answer calls for them; true when the chain goes on
 * past an answer that would otherwise have stopped it (the age gate).
 */
function followGate(ctx: ChainContext, gate: Gate, clients: string[], i: number, attempt: Failure): boolean {
  const client = clients[i]!;
  const asked = new Set(clients.slice(0, i + 1));
  if (attempt.error.code === 'VIDEO_AGE_RESTRICTED') {
    gate.ageGate ??= attempt.error;
    if (!gate.ageFallbacks) {
      gate.ageFallbacks = true;
      const signedIn = ctx.signedIn ? GATE_FALLBACKS.map((c) => `${c}${SIGNED_IN}`) : [];
      // Nothing else in the chain would get past the age gate: the fallbacks are all that is left.
      clients.splice(i + 1, clients.length, ...GATE_FALLBACKS.filter((c) => !asked.has(c)), ...signedIn);
      ctx.log?.debug({ client }, 'youtube: age gate, trying the fallbacks');
    }
    return true;
  }
  // "This video is not available" for this client, not a verdict on the video (classify-playability.ts).
  const notForThisClient = attempt.kind === 'unplayable' && attempt.error.code === 'VIDEO_UNPLAYABLE' && !attempt.final;
  if (notForThisClient && !gate.kidsFallbacks && !(GATE_FALLBACKS as readonly string[]).includes(client)) {
    gate.kidsFallbacks = true;
    const later = new Set(clients.slice(i + 1));
    clients.splice(i + 1, 0, ...GATE_FALLBACKS.filter((c) => !asked.has(c) && !later.has(c)));
    ctx.log?.debug({ client }, 'youtube: not available for this client (made for kids?), trying the fallbacks');
  }
  return false;
}

/** "TV_DOWNGRADED@signed-in" is TV_DOWNGRADED asked through the signed-in session. */
const baseName = (client: string) => (client.endsWith(SIGNED_IN) ? client.slice(0, -SIGNED_IN.length) : client);

/**
 * An identity with budget left on the chain's rung of the ladder (DIRECT without pacing); when every cheap one is
 * resting, a chain that may climb does. SERVICE_BUSY says what the chain met before.
 */
async function takeIdentity(ctx: ChainContext, chain: ChainRun, client: string): Promise<string> {
  const ladder = ctx.ladder;
  // The watch page is ~1 MB of HTML: never worth residential bytes.
  const rung = ladder && chain.climbed && climbs(ctx) && client !== WATCH_PAGE ? ladder.residential : ladder?.cheap;
  if (!ctx.pacer) return rung?.[0] ?? DIRECT;
  try {
    return await ctx.pacer.take(rung);
  } catch (e) {
    const resting = ladder && isServiceError(e) && e.code === 'SERVICE_BUSY' && climbs(ctx) && !chain.climbed;
    if (resting && client !== WATCH_PAGE && (await ladder.cheapBotChecked())) {
      chain.climbed = true;
      return takeIdentity(ctx, chain, client);
    }
    if (isServiceError(e) && e.code === 'SERVICE_BUSY' && chain.failures.length > 0) {
      throw new ServiceError('SERVICE_BUSY', `${e.message} (${reasonsOf(chain.failures)})`, e.retryAfter);
    }
    throw e;
  }
}

/** A web client's token for this video through this identity, or undefined (logged) when none can be minted. */
function mintFor(ctx: ChainContext, videoId: string, client: string, identity: string, signal?: AbortSignal) {
  return ctx.webToken?.(videoId, identity, signal).catch((e: unknown) => {
    ctx.log?.warn({ videoId, client, identity, err: messageOf(e) }, 'no PO token could be minted');
    return undefined;
  });
}

const reasonsOf = (failures: ServiceError[]) => [...new Set(failures.map((f) => f.message))].join('; ');

function chainError(failures: ServiceError[]): ServiceError {
  // Every client said "this video cannot be played" (none blocked us): that is about the video.
  const unplayable = failures.find((f) => f.code === 'VIDEO_UNPLAYABLE');
  if (unplayable && failures.every((f) => f.code === 'VIDEO_UNPLAYABLE')) return unplayable;
  return new ServiceError(
    'EXTRACTION_FAILED',
    `Could not get this video from YouTube: ${reasonsOf(failures) || 'no client configured'}`,
  );
}

async function tryClient(
  ctx: ChainContext,
  videoId: string,
  client: string,
  minted: MintedToken | undefined,
  signal?: AbortSignal,
): Promise<Attempt> {
  const signedIn = client.endsWith(SIGNED_IN);
  const yt = await (signedIn && ctx.signedIn ? ctx.signedIn() : ctx.innertube());
  const { name, variant } = youtubeiClient(baseName(client));
  const capture: PlayerCapture = { signal, variant, visitorData: minted?.visitorData };
  const poToken = minted?.token;
  let info: YT.VideoInfo | undefined;
  let parseError: unknown;
  try {
    info = await playerCapture.run(capture, () =>
      yt.getBasicInfo(videoId, { client: name, ...(poToken ? { po_token: poToken } : {}) }),
    );
  } catch (e) {
    parseError = e;
  }
  signal?.throwIfAborted();
  const answer = judgeBody(capture.status, capture.body, capture.error ?? parseError);
  if (!answer.ok) {
    if (answer.kind !== 'client_retired') return answer;
    ctx.retired?.mark(baseName(client), capture.clientVersion);
    return retry(
      `${client} ${capture.clientVersion ?? ''}: YouTube retired this client version (HTTP 400 FAILED_PRECONDITION)`,
      'client_retired',
    );
  }
  if (!info) return retry(`${client}: could not read YouTube's answer (${messageOf(parseError)})`, 'error');
  return { ok: true, result: { client, info, raw: answer.raw, poToken, visitorData: minted?.visitorData } };
}

async function tryWatchPage(ctx: ChainContext, videoId: string, signal?: AbortSignal): Promise<Attempt> {
  let status: number | undefined;
  let body: string | undefined;
  try {
    const url = `https://www.youtube.com/watch?v=${videoId}&hl=en&gl=US&has_verified=1&bpctr=9999999999`;
    // SOCS=CAI: the "reject all" consent choice, so EU requests get the page rather than the consent interstitial.
    const res = await ctx.fetch(url, { headers: { 'Accept-Language': 'en-US,en;q=0.9', Cookie: 'SOCS=CAI' }, signal });
    status = res.status;
    body = await res.text();
  } catch (e) {
    signal?.throwIfAborted();
    return { ...retry(`watch page: network error: ${messageOf(e)}`, 'network'), unreachable: isUnreachable(e) };
  }
  const raw = extractPlayerResponse(body);
  if (!raw) return htmlFailure(body, status);
  const verdict = classifyPlayability(raw);
  if (!verdict.ok) return { ok: false, error: verdict.error, kind: verdict.kind, final: !verdict.retryable };
  const yt = await ctx.innertube();
  try {
    // Our RawPlayerResponse leaves optional what youtubei.js's IRawResponse requires (YouTube omits them at times, and
    // its parser copes): hence the cast.
    const info = new YT.VideoInfo([{ success: true, status_code: 200, data: raw as never }], yt.actions, '');
    return { ok: true, result: { client: WATCH_PAGE, info, raw, chapters: findChapters(extractInitialData(body)) } };
  } catch (e) {
    return retry(`watch page: could not read the embedded player response (${messageOf(e)})`, 'error');
  }
}

/** Judges the raw /player answer: usable, a refusal the next client may not meet, or YouTube's final word. */
function judgeBody(
  status: number | undefined,
  body: string | undefined,
  error: unknown,
): { ok: true; raw: RawPlayerResponse } | Failure {
  if (body === undefined) {
    const message =
      error instanceof YoutubeNetworkError ? `network error: ${error.message}` : `network error (${messageOf(error)})`;
    return { ...retry(message, 'network'), unreachable: isUnreachable(error) };
  }
  if (status === 429) return retry('YouTube is rate-limiting this server (HTTP 429)', 'rate_limited');
  if (looksLikeHtml(body)) return htmlFailure(body, status);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return retry(`YouTube answered HTTP ${status} with a body that is not JSON`, 'error');
  }
  if (status === 400 && errorStatusOf(json) === 'FAILED_PRECONDITION')
    return retry('YouTube answered HTTP 400 FAILED_PRECONDITION', 'client_retired');
  if (status !== undefined && status >= 400) return retry(`YouTube answered HTTP ${status}`, 'error');
  const raw = unwrapPlayerResponse(json);
  const verdict = classifyPlayability(raw);
  if (verdict.ok) return { ok: true, raw };
  return { ok: false, error: verdict.error, kind: verdict.kind, final: !verdict.retryable };
}

/** A captcha (HTTP 429 or "unusual traffic") is the identity being rate-limited; a consent page is not. */
function htmlFailure(body: string, status: number | undefined): Failure {
  const error = classifyHtmlPage(body, status);
  return { ok: false, error, kind: /rate-limiting/.test(error.message) ? 'rate_limited' : 'error' };
}

const retry = (message: string, kind: OutcomeKind): Failure => ({
  ok: false,
  error: new ServiceError('EXTRACTION_FAILED', message),
  kind,
});
/** `{"error": {"code": 400, "status": "FAILED_PRECONDITION", ...}}`: Google's API error shape. */
const errorStatusOf = (json: unknown) =>
  (json as { error?: { status?: unknown } } | null)?.error?.status as string | undefined;
const isUnreachable = (e: unknown) => e instanceof YoutubeNetworkError && e.hostUnreachable;
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
