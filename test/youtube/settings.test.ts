// The YouTube settings as the environment gives them: chains, proxies, providers and pacing, refused when wrong.
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.ts';

describe('YouTube settings', () => {
  it('chains are comma lists of client names, any case; unset keeps the defaults', () => {
    const c = parseConfig({
      YOUTUBE_CAPTION_CLIENTS: 'visionos, Android ,watch_page',
      YOUTUBE_STREAM_CLIENTS: 'VISIONOS',
    });
    expect(c.YOUTUBE_CAPTION_CLIENTS).toEqual(['VISIONOS', 'ANDROID', 'WATCH_PAGE']);
    expect(c.YOUTUBE_STREAM_CLIENTS).toEqual(['VISIONOS']);
    expect(c.YOUTUBE_METADATA_CLIENTS).toBeUndefined();
    expect(() => parseConfig({ YOUTUBE_CAPTION_CLIENTS: 'ANDROID,NOKIA_3310' })).toThrow(ConfigError);
    expect(() => parseConfig({ YOUTUBE_CAPTION_CLIENTS: ' , ' })).toThrow(/YOUTUBE_CAPTION_CLIENTS/);
  });

  it('proxies are http, https or socks5 URLs, and a refusal never echoes their credentials', () => {
    const ok = parseConfig({ YOUTUBE_PROXY_URLS: 'http://u:p@a:8080, socks5://b:1080,https://c' });
    expect(ok.YOUTUBE_PROXY_URLS).toEqual(['http://u:p@a:8080', 'socks5://b:1080', 'https://c']);
    let message = '';
    try {
      parseConfig({ YOUTUBE_PROXY_URLS: 'ftp://user:secret-pass@host:21' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/YOUTUBE_PROXY_URLS/);
    expect(message).not.toContain('secret-pass');
  });

  it('pacing defaults: 1000 requests an hour per identity, 300 s first cool-down, 6 h at most', () => {
    const c = parseConfig({});
    expect([
      c.YOUTUBE_REQUESTS_PER_HOUR,
      c.YOUTUBE_COOLDOWN_SECONDS,
      c.YOUTUBE_COOLDOWN_MAX_SECONDS,
      c.YOUTUBE_POT_IN_PROCESS,
    ]).toEqual([1000, 300, 21600, false]);
    expect(() => parseConfig({ YOUTUBE_REQUESTS_PER_HOUR: '0' })).toThrow(ConfigError);
    expect(() => parseConfig({ YOUTUBE_POT_PROVIDER_URL: 'file:///etc/passwd' })).toThrow(ConfigError);
  });
});
