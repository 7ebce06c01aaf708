// Runs in a worker thread (see bgutils-provider.ts): BotGuard needs a DOM on globalThis and runs YouTube's
// interpreter script, and neither belongs in the service's own realm.
//
// The steps are the web player's, as bgutils-js 4.0.3's examples/index-innertube.ts takes them: load the page
// (www.youtube.com) through the egress identity the token is for, put its ytcfg into `window.yt.config_` (BotGuard
// reads EVENT_ID from it: YouTube binds the challenge to that page session since July 2026), take the challenge the
// page hands to `window.ytAtN`, run its interpreter, take a BotGuard snapshot, trade it for an integrity token
// (/api/jnn/v1/GenerateIT) and build a WebPoMinter, which mints one token per video id until the integrity token's
// lifetime runs out. The token is bound to that page's visitor data, returned with it. Only a page without a
// challenge falls back to the standalone one (/api/jnn/v1/Create), which YouTube now accepts from some clients only.
import { parentPort, workerData } from 'node:worker_threads';
import { BotGuardClient, getChallenge } from 'bgutils-js/botguard';
import type { WebPoSignalOutput } from 'bgutils-js/shared-types';
import { buildURL, GOOG_API_KEY, USER_AGENT } from 'bgutils-js/utils';
import { WebPoMinter } from 'bgutils-js/webpo';
import { JSDOM } from 'jsdom';
import { ProxyAgent } from 'undici';
import { readPageChallenge, readYtcfg, visitorDataOf, type PageChallenge } from './page-challenge.ts';

export interface WorkerSettings {
  /** Where www.youtube.com (and the interpreter script's www.google.com) is: a relay or a test server. */
  baseUrl?: string;
  timeoutMs: number;
}

/** `proxyUrl`: the egress identity's proxy (none: the machine's own address). */
export type WorkerRequest = { id: number; videoId: string; proxyUrl?: string };
type MintAnswer = { token: string; expiresAt: number; visitorData?: string; path: 'page' | 'standalone' };
export type WorkerAnswer = ({ id: number } & MintAnswer) | { id: number; error: string };

// The request key YouTube's web player sends with the challenge (BgUtils' examples use the same).
const REQUEST_KEY = 'O43z0dpjhgX20SCx4KAo';
const REWRITTEN_HOSTS = new Set(['www.youtube.com', 'www.google.com']);

const settings = workerData as WorkerSettings;
const agents = new Map<string, ProxyAgent>();

const GOOGLE_HOSTS = ['youtube.com', 'google.com', 'googleapis.com', 'gstatic.com'];
function isGoogleHost(url: URL): boolean {
  if (url.protocol !== 'https:' || url.port !== '' || url.username || url.password) return false;
  return GOOGLE_HOSTS.some((h) => url.hostname === h || url.hostname.endsWith(`.${h}`));
}

/** A fetch through one identity's proxy, onto `baseUrl` when one is set. */
function sender(proxyUrl: string | undefined): typeof fetch {
  let dispatcher: ProxyAgent | undefined;
  if (proxyUrl) {
    dispatcher = agents.get(proxyUrl) ?? new ProxyAgent({ uri: proxyUrl, proxyTunnel: false });
    agents.set(proxyUrl, dispatcher);
  }
  return (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    // The page names the interpreter script's URL: only YouTube's and Google's hosts are asked (and run), never an
    // address the page chose.
    if (!isGoogleHost(url))
      return Promise.reject(new Error(`refused: ${url.protocol}//${url.host} is not a Google host`));
    if (settings.baseUrl && REWRITTEN_HOSTS.has(url.hostname)) {
      const base = new URL(settings.baseUrl);
      url.protocol = base.protocol;
      url.host = base.host;
      url.pathname = `${base.pathname.replace(/\/$/, '')}${url.pathname}`;
    }
    return fetch(url, {
      ...init,
      redirect: 'error',
      signal: AbortSignal.timeout(settings.timeoutMs),
      ...(dispatcher ? { dispatcher } : {}),
    } as RequestInit);
  };
}

function installDom() {
  const dom = new JSDOM('<!DOCTYPE html><html lang="en"><head><title></title></head><body></body></html>', {
    url: 'https://www.youtube.com/',
    referrer: 'https://www.youtube.com/',
    // The page has no subresources to load; this sets navigator.userAgent (jsdom 31 takes it here).
    resources: { userAgent: USER_AGENT },
  });
  Object.assign(globalThis, {
    window: dom.window,
    document: dom.window.document,
    location: dom.window.location,
    origin: dom.window.origin,
  });
  if (!Reflect.has(globalThis, 'navigator'))
    Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator });
}

/** The page as the web player loads it, its config and challenge. */
async function loadPage(send: typeof fetch) {
  const res = await send('https://www.youtube.com/', {
    headers: { 'accept-language': 'en-US,en;q=0.9', 'user-agent': USER_AGENT, cookie: 'SOCS=CAI' },
  });
  if (!res.ok) throw new Error(`the YouTube page answered HTTP ${res.status}`);
  const html = await res.text();
  return { ytcfg: readYtcfg(html), challenge: readPageChallenge(html) };
}

/** The page's challenge, else the standalone one. */
async function challengeFor(send: typeof fetch, page: PageChallenge | undefined) {
  if (page) return { ...page, path: 'page' as const };
  const c = await getChallenge({ requestKey: REQUEST_KEY, fetchFunction: send, useYouTubeAPI: true });
  if (!c.program || !c.globalName) throw new Error('the standalone BotGuard challenge came without its program');
  return {
    program: c.program,
    globalName: c.globalName,
    interpreterJavascript: c.interpreterJavascript?.privateDoNotAccessOrElseSafeScriptWrappedValue,
    interpreterUrl: c.interpreterUrl?.privateDoNotAccessOrElseTrustedResourceUrlWrappedValue,
    path: 'standalone' as const,
  };
}

interface Minter {
  minter: WebPoMinter;
  expiresAt: number;
  visitorData?: string;
  path: 'page' | 'standalone';
}

async function createMinter(proxyUrl: string | undefined): Promise<Minter> {
  const send = sender(proxyUrl);
  const { ytcfg, challenge: pageChallenge } = await loadPage(send);
  // BotGuard reads the page session (EVENT_ID) from yt.config_, as it does in the browser.
  const yt = { config_: ytcfg };
  Object.assign(window as object, { yt });
  Object.assign(globalThis, { yt });
  const challenge = await challengeFor(send, pageChallenge);
  let interpreter = challenge.interpreterJavascript;
  if (!interpreter && challenge.interpreterUrl) {
    const res = await send(new URL(challenge.interpreterUrl, 'https://www.youtube.com/'));
    if (!res.ok) throw new Error(`the BotGuard interpreter script answered HTTP ${res.status}`);
    interpreter = await res.text();
  }
  if (!interpreter) throw new Error('the BotGuard challenge came without its interpreter');
  // YouTube's interpreter script, run as the web player runs it; this worker holds nothing of the service's.
  new Function(interpreter)();
  const botguard = await BotGuardClient.create({
    program: challenge.program,
    globalName: challenge.globalName,
    globalObject: globalThis,
  });
  const webPoSignalOutput: WebPoSignalOutput = [];
  const snapshot = await botguard.snapshot({ webPoSignalOutput });
  const res = await send(buildURL('GenerateIT', true), {
    method: 'POST',
    headers: {
      'content-type': 'application/json+protobuf',
      'x-goog-api-key': GOOG_API_KEY,
      'x-user-agent': 'grpc-web-javascript/0.1',
      'user-agent': USER_AGENT,
    },
    body: JSON.stringify([REQUEST_KEY, snapshot]),
  });
  if (!res.ok) throw new Error(`GenerateIT answered HTTP ${res.status}`);
  const [integrityToken, ttlSeconds, refreshThreshold] = (await res.json()) as [unknown, unknown, unknown];
  if (typeof integrityToken !== 'string') throw new Error('GenerateIT answered without an integrity token');
  const minter = await WebPoMinter.create({ integrityToken }, webPoSignalOutput);
  const lifetime =
    (typeof ttlSeconds === 'number' ? ttlSeconds : 6 * 3600) -
    (typeof refreshThreshold === 'number' ? refreshThreshold : 0);
  return {
    minter,
    expiresAt: Date.now() + Math.max(60, lifetime) * 1000,
    visitorData: visitorDataOf(ytcfg),
    path: challenge.path,
  };
}

// One minter per identity (a token is bound to its identity's page session). They are made one at a time: each
// sets the page's config on this worker's one window.
const minters = new Map<string, { minter: Promise<Minter>; expiresAt: number }>();
let making: Promise<unknown> = Promise.resolve();

async function mint(videoId: string, proxyUrl: string | undefined): Promise<MintAnswer> {
  const key = proxyUrl ?? '';
  let held = minters.get(key);
  if (!held || held.expiresAt <= Date.now()) {
    const minter = making.then(() => createMinter(proxyUrl));
    making = minter.catch(() => {});
    held = { minter, expiresAt: Number.POSITIVE_INFINITY };
    const entry = held;
    minters.set(key, entry);
    minter.then(
      (m) => (entry.expiresAt = m.expiresAt),
      () => minters.get(key) === entry && minters.delete(key),
    );
  }
  const m = await held.minter;
  return {
    token: await m.minter.mintAsWebsafeString(videoId),
    expiresAt: m.expiresAt,
    visitorData: m.visitorData,
    path: m.path,
  };
}

installDom();
parentPort!.on('message', (req: WorkerRequest) => {
  mint(req.videoId, req.proxyUrl).then(
    (t) => parentPort!.postMessage({ id: req.id, ...t } satisfies WorkerAnswer),
    (e: unknown) =>
      parentPort!.postMessage({ id: req.id, error: e instanceof Error ? e.message : String(e) } satisfies WorkerAnswer),
  );
});
