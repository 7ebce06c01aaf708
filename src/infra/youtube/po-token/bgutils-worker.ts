// Runs in a worker thread (see bgutils-provider.ts): BotGuard needs a DOM on globalThis and runs YouTube's
// interpreter script, and neither belongs in the service's own realm. The steps are BgUtils' documented ones
// (github.com/LuanRT/BgUtils, examples/node): fetch a challenge (/api/jnn/v1/Create), run its interpreter, take a
// BotGuard snapshot, trade it for an integrity token (/api/jnn/v1/GenerateIT), and build a WebPoMinter, which
// mints one token per video id until the integrity token's lifetime runs out.
import { parentPort, workerData } from 'node:worker_threads';
import { BotGuardClient, getChallenge } from 'bgutils-js/botguard';
import { buildURL, GOOG_API_KEY, USER_AGENT } from 'bgutils-js/utils';
import type { WebPoSignalOutput } from 'bgutils-js/shared-types';
import { WebPoMinter } from 'bgutils-js/webpo';
import { JSDOM } from 'jsdom';
import { ProxyAgent } from 'undici';

export interface WorkerSettings {
  /** Where www.youtube.com is (a relay or a test server); its path prefix is kept. */
  baseUrl?: string;
  proxyUrl?: string;
  timeoutMs: number;
}

export type WorkerRequest = { id: number; videoId: string };
export type WorkerAnswer = { id: number; token: string; expiresAt: number } | { id: number; error: string };

// The request key YouTube's web player sends with the challenge (BgUtils' examples use the same).
const REQUEST_KEY = 'O43z0dpjhgX20SCx4KAo';

const settings = workerData as WorkerSettings;
const dispatcher = settings.proxyUrl ? new ProxyAgent(settings.proxyUrl) : undefined;

const send: typeof fetch = (input, init = {}) => {
  const url = new URL(input instanceof Request ? input.url : input.toString());
  if (settings.baseUrl && url.hostname === 'www.youtube.com') {
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

async function createMinter(): Promise<{ minter: WebPoMinter; expiresAt: number }> {
  const challenge = await getChallenge({ requestKey: REQUEST_KEY, fetchFunction: send, useYouTubeAPI: true });
  let interpreter = challenge.interpreterJavascript?.privateDoNotAccessOrElseSafeScriptWrappedValue;
  const interpreterUrl = challenge.interpreterUrl?.privateDoNotAccessOrElseTrustedResourceUrlWrappedValue;
  if (!interpreter && interpreterUrl)
    interpreter = await (await send(new URL(interpreterUrl, 'https://www.youtube.com/'))).text();
  if (!interpreter || !challenge.program || !challenge.globalName)
    throw new Error('the BotGuard challenge came without its interpreter or program');
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
  return { minter, expiresAt: Date.now() + Math.max(60, lifetime) * 1000 };
}

let current: Promise<{ minter: WebPoMinter; expiresAt: number }> | undefined;
let currentExpiry = 0;

async function mint(videoId: string): Promise<{ token: string; expiresAt: number }> {
  if (!current || currentExpiry <= Date.now()) {
    current = createMinter();
    current.then(
      (m) => (currentExpiry = m.expiresAt),
      () => (current = undefined),
    );
  }
  const { minter, expiresAt } = await current;
  return { token: await minter.mintAsWebsafeString(videoId), expiresAt };
}

installDom();
parentPort!.on('message', (req: WorkerRequest) => {
  mint(req.videoId).then(
    (t) => parentPort!.postMessage({ id: req.id, ...t } satisfies WorkerAnswer),
    (e: unknown) =>
      parentPort!.postMessage({ id: req.id, error: e instanceof Error ? e.message : String(e) } satisfies WorkerAnswer),
  );
});
