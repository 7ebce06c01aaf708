// A real HTTP server on 127.0.0.1 standing in for youtube.com in end-to-end tests: start the service with
// YOUTUBE_BASE_URL = loopback.origin and every YouTube request (InnerTube /player, timedtext, watch pages) lands here.
// Routing is fake-youtube.ts's (the same FakeRoutes the adapter tests use); this adds a socket, counters, and holds
// so a test can keep an answer open (to fill the extraction queue) and release it when it chooses.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { fakeYoutube, type FakeAnswer, type FakeRoutes } from './fake-youtube.ts';

/** One request as it arrived (before any hold). */
interface SeenRequest {
  method: string;
  path: string;
  /** `player` for POST /youtubei/v1/player, `timedtext` for caption downloads, `watch` for watch pages. */
  kind: 'player' | 'timedtext' | 'watch' | 'other';
  /** From the /player body, or the `v` query parameter. */
  videoId: string | undefined;
  /** InnerTube client name, for /player. */
  client: string | undefined;
  url: URL;
  /** The address the request came from, as YouTube would see it (127.0.0.1 direct, a proxy's own otherwise). */
  remoteAddress?: string;
}

export type RequestMatch = (r: SeenRequest) => boolean;

/** Requests matching a hold wait (unanswered) until `release()`. */
interface Hold {
  /** How many requests this hold has caught so far. */
  readonly caught: number;
  /** Resolves once the hold has caught `n` requests. */
  caughtAtLeast(n?: number): Promise<void>;
  release(): void;
}

export interface LoopbackYoutube {
  origin: string;
  requests: SeenRequest[];
  count(match: RequestMatch): number;
  /** Resolves when at least `n` requests matching have arrived (no fixed sleeps in tests). */
  waitFor(match: RequestMatch, n?: number): Promise<void>;
  hold(match: RequestMatch): Hold;
  /** Answers matching requests `ms` later (a slow upstream). */
  delay(match: RequestMatch, ms: number): void;
  setRoutes(routes: FakeRoutes): void;
  /** Answers a request itself when `gate` returns an answer (YouTube judging the address it sees). */
  setGate(gate: (r: SeenRequest) => FakeAnswer | undefined): void;
  close(): Promise<void>;
}

export interface LoopbackOptions {
  /** Gzip answers to requests that accept it, as youtube.com does (what a proxy carries is then the gzip'd size). */
  gzip?: boolean;
}

export const isPlayer =
  (videoId?: string): RequestMatch =>
  (r) =>
    r.kind === 'player' && (!videoId || r.videoId === videoId);
export const isCaptions =
  (videoId?: string): RequestMatch =>
  (r) =>
    r.kind === 'timedtext' && (!videoId || r.videoId === videoId);

export async function startLoopbackYoutube(
  initial: FakeRoutes = {},
  options: LoopbackOptions = {},
): Promise<LoopbackYoutube> {
  let routes = initial;
  let gate: ((r: SeenRequest) => FakeAnswer | undefined) | undefined;
  // The fake reads the routes at call time, so setRoutes takes effect for the next request.
  const fake = fakeYoutube({
    player: (client, id) => routes.player?.(client, id) ?? { status: 404, body: 'no route' },
    timedtext: (url) => routes.timedtext?.(url) ?? { status: 404, body: 'no route' },
    watch: (url) => routes.watch?.(url) ?? { status: 404, body: 'no route' },
    other: (url, body) => routes.other?.(url, body) ?? { status: 404, body: 'no route' },
  });
  const requests: SeenRequest[] = [];
  const holds: Array<{ match: RequestMatch; gate: Promise<void>; caught: number; open: () => void }> = [];
  const delays: Array<{ match: RequestMatch; ms: number }> = [];
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const l of listeners) l();
  };
  const until = (ready: () => boolean) =>
    new Promise<void>((resolve) => {
      if (ready()) return resolve();
      const check = () => {
        if (!ready()) return;
        listeners.delete(check);
        resolve();
      };
      listeners.add(check);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const seen = { ...describe(req, body), remoteAddress: req.socket.remoteAddress };
    requests.push(seen);
    changed();
    for (const h of [...holds]) {
      if (!h.match(seen)) continue;
      h.caught++;
      changed();
      await h.gate;
    }
    for (const d of delays) if (d.match(seen)) await new Promise((r) => setTimeout(r, d.ms));
    if (res.destroyed) return; // the service gave up on this request meanwhile
    let answer: Response;
    try {
      const own = gate?.(seen);
      if (own instanceof Error) throw own;
      answer = own
        ? new Response(own.body, {
            status: own.status ?? 200,
            headers: { 'content-type': own.contentType ?? 'application/json' },
          })
        : await fake.fetch(seen.url, { method: seen.method, body: body || undefined });
    } catch {
      res.destroy(); // a route answered with an Error: the service sees a network failure
      return;
    }
    let bytes = Buffer.from(await answer.arrayBuffer());
    const gzip = options.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (gzip) bytes = gzipSync(bytes);
    res.writeHead(answer.status, {
      'content-type': answer.headers.get('content-type') ?? 'application/octet-stream',
      'content-length': bytes.length,
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    res.end(bytes);
  };

  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  // The service's fetch keeps connections alive; they must not hold close() up.
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    requests,
    count: (match) => requests.filter(match).length,
    waitFor: (match, n = 1) => until(() => requests.filter(match).length >= n),
    hold(match) {
      let open!: () => void;
      const entry = { match, gate: new Promise<void>((r) => (open = r)), caught: 0, open: () => open() };
      holds.push(entry);
      return {
        get caught() {
          return entry.caught;
        },
        caughtAtLeast: (n = 1) => until(() => entry.caught >= n),
        release() {
          if (holds.includes(entry)) holds.splice(holds.indexOf(entry), 1);
          entry.open();
        },
      };
    },
    delay: (match, ms) => void delays.push({ match, ms }),
    setRoutes: (r) => void (routes = r),
    setGate: (g) => void (gate = g),
    close: () =>
      new Promise<void>((resolve) => {
        for (const h of holds.splice(0)) h.open(); // held handlers finish (their sockets are gone)
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function describe(req: IncomingMessage, body: string): SeenRequest {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
  const method = req.method ?? 'GET';
  if (url.pathname.endsWith('/youtubei/v1/player')) {
    let parsed: { videoId?: string; context?: { client?: { clientName?: string } } } = {};
    try {
      parsed = JSON.parse(body || '{}');
    } catch {
      /* not JSON: the fake answers it anyway */
    }
    return {
      method,
      path: url.pathname,
      kind: 'player',
      videoId: parsed.videoId,
      client: parsed.context?.client?.clientName,
      url,
    };
  }
  const kind = url.pathname.endsWith('/api/timedtext')
    ? 'timedtext'
    : url.pathname.endsWith('/watch')
      ? 'watch'
      : 'other';
  return { method, path: url.pathname, kind, videoId: url.searchParams.get('v') ?? undefined, client: undefined, url };
}
