// A stand-in for youtube.com as an injected fetch: tests say what /youtubei/v1/player answers per client, what
// timedtext and the watch page answer, and read back which requests were made. No network.
export type FakeAnswer = { status?: number; body: string; contentType?: string } | Error;

export interface FakeYoutube {
  fetch: typeof fetch;
  /** "PLAYER <client> <videoId>", "GET <path>" — in request order. */
  calls: string[];
  /** Full URLs of every request, after the adapter's origin rewrite. */
  urls: string[];
  /** The JSON body of every /player request, in order. */
  bodies: string[];
  /** The headers of every /player request, in order. */
  headers: Headers[];
}

export interface FakeRoutes {
  player?: (client: string, videoId: string) => FakeAnswer;
  timedtext?: (url: URL) => FakeAnswer;
  watch?: (url: URL) => FakeAnswer;
  /** Anything else; `body` is the request body (InnerTube browse/search/resolve_url posts). */
  other?: (url: URL, body?: string) => FakeAnswer;
}

export function fakeYoutube(routes: FakeRoutes): FakeYoutube {
  const calls: string[] = [];
  const urls: string[] = [];
  const bodies: string[] = [];
  const headers: Headers[] = [];
  const answer = (a: FakeAnswer | undefined): Response => {
    if (!a) return new Response('not found', { status: 404 });
    if (a instanceof Error) throw a;
    return new Response(a.body, {
      status: a.status ?? 200,
      headers: { 'content-type': a.contentType ?? 'application/json' },
    });
  };
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    urls.push(url.toString());
    if (url.pathname.endsWith('/youtubei/v1/player')) {
      bodies.push(String(init?.body ?? '{}'));
      headers.push(new Headers(init?.headers));
      const body = JSON.parse(String(init?.body ?? '{}')) as {
        videoId?: string;
        context?: { client?: { clientName?: string } };
      };
      const client = body.context?.client?.clientName ?? '?';
      calls.push(`PLAYER ${client} ${body.videoId}`);
      return answer(routes.player?.(client, body.videoId ?? ''));
    }
    calls.push(`GET ${url.pathname}`);
    if (url.pathname.endsWith('/api/timedtext')) return answer(routes.timedtext?.(url));
    if (url.pathname.endsWith('/watch')) return answer(routes.watch?.(url));
    return answer(routes.other?.(url, typeof init?.body === 'string' ? init.body : undefined));
  };
  return { fetch: fetchImpl as typeof fetch, calls, urls, bodies, headers };
}

export const json = (body: unknown, status = 200): FakeAnswer => ({
  status,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
export const html = (body: string, status = 200): FakeAnswer => ({ status, body, contentType: 'text/html' });
