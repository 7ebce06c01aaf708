// The one fetch of all YouTube traffic: a redirect is followed hop by hop, and a hop off YouTube's hosts (a private
// address, plain http) is refused before it is asked, whichever egress identity carries it.
import { describe, expect, it } from 'vitest';
import { createProxyPool } from './proxy-pool.ts';
import { createYoutubeFetch } from './youtube-fetch.ts';

function redirecting(location: string) {
  const asked: string[] = [];
  const send = (async (url: URL | string) => {
    asked.push(String(url));
    return asked.length === 1
      ? new Response(null, { status: 302, headers: { location } })
      : new Response('ok', { status: 200 });
  }) as typeof fetch;
  return { asked, fetch: createYoutubeFetch({ fetch: send, proxies: createProxyPool() }) };
}

describe('redirects', () => {
  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'https://127.0.0.1/',
    'https://internal.example/',
    'http://www.youtube.com/',
  ])('a redirect to %s is refused and never asked', async (location) => {
    const { asked, fetch } = redirecting(location);
    await expect(fetch('https://www.youtube.com/watch?v=abc')).rejects.toThrow(/is not one of YouTube's hosts/);
    expect(asked).toEqual(['https://www.youtube.com/watch?v=abc']);
  });

  it("a redirect to YouTube's own host is followed", async () => {
    const { asked, fetch } = redirecting('https://consent.youtube.com/m?continue=x');
    expect(await (await fetch('https://www.youtube.com/watch?v=abc')).text()).toBe('ok');
    expect(asked).toEqual(['https://www.youtube.com/watch?v=abc', 'https://consent.youtube.com/m?continue=x']);
  });
});
