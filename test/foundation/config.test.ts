import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.ts';

describe('parseConfig', () => {
  it('gives every setting a default', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      MODE: 'all',
      LOG_LEVEL: 'info',
      DAILY_FREE_CREDITS: 10,
      RATE_LIMIT_PER_MINUTE: 60, // the spec's default
      MAX_BODY_BYTES: 65536,
      YOUTUBE_BASE_URL: 'https://www.youtube.com',
      YOUTUBE_PROXY_URLS: [],
      SEARCH_BACKEND: 'postgres',
    });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.SIGNING_SECRET).toBeUndefined();
  });

  it('coerces numbers and lists from strings', () => {
    const c = parseConfig({
      PORT: '8080',
      RATE_LIMIT_PER_MINUTE: '120',
      YOUTUBE_PROXY_URLS: ' http://a:1 , ,http://b:2 ',
    });
    expect(c.PORT).toBe(8080);
    expect(c.RATE_LIMIT_PER_MINUTE).toBe(120);
    expect(c.YOUTUBE_PROXY_URLS).toEqual(['http://a:1', 'http://b:2']);
  });

  it('treats empty strings as unset, as .env files write them', () => {
    const c = parseConfig({ PORT: '', DATABASE_URL: '', LOG_LEVEL: '' });
    expect(c).toMatchObject({ PORT: 3000, LOG_LEVEL: 'info' });
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('ignores variables it does not know', () => {
    expect(() => parseConfig({ HOME: '/root', SOMETHING_ELSE: 'x' })).not.toThrow();
  });

  const bad: [Record<string, string>, string][] = [
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '80.5' }, 'PORT'],
    [{ MODE: 'both' }, 'MODE'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL'],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ DAILY_FREE_CREDITS: '-1' }, 'DAILY_FREE_CREDITS'],
    [{ MAX_BODY_BYTES: '10' }, 'MAX_BODY_BYTES'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ SIGNING_SECRET: 'short' }, 'SIGNING_SECRET'],
    [{ SEARCH_BACKEND: 'typesense' }, 'SEARCH_BACKEND'],
    [{ SEARCH_BACKEND: 'elastic' }, 'SEARCH_BACKEND'],
  ];
  it.each(bad)('refuses %j with a ConfigError naming %s', (env, name) => {
    let error: unknown;
    try {
      parseConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^Invalid configuration:/);
    expect((error as Error).message).toMatch(new RegExp(`^  ${name}: .+`, 'm'));
  });

  it('lists every bad variable at once', () => {
    expect(() => parseConfig({ PORT: 'x', MODE: 'y' })).toThrow(/PORT:[\s\S]*MODE:|MODE:[\s\S]*PORT:/);
  });

  it('does not echo a secret it refuses', () => {
    expect(() => parseConfig({ SIGNING_SECRET: 'hunter2-secret' })).toThrow(ConfigError);
    try {
      parseConfig({ SIGNING_SECRET: 'hunter2-secret' });
    } catch (e) {
      expect((e as Error).message).not.toContain('hunter2');
    }
  });
});
