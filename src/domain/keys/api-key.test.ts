import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, readApiKey, redactKeys } from './api-key.ts';

describe('api keys', () => {
  it('are sk_ and 32 letters or digits, stored as a SHA-256 hash and an 11-character prefix', () => {
    const keys = Array.from({ length: 200 }, () => generateApiKey());
    for (const { key, prefix, hash } of keys) {
      expect(key).toMatch(/^sk_[A-Za-z0-9]{32}$/);
      expect(prefix).toBe(key.slice(0, 11));
      expect(hash).toBe(hashApiKey(key));
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(new Set(keys.map((k) => k.key)).size).toBe(200);
  });

  it('are read from either header, the Authorization one first', () => {
    const h = (init: Record<string, string>) => new Headers(init);
    expect(readApiKey(h({ authorization: 'Bearer sk_a' }))).toBe('sk_a');
    expect(readApiKey(h({ authorization: 'bearer   sk_a  ' }))).toBe('sk_a');
    expect(readApiKey(h({ 'x-api-key': ' sk_b ' }))).toBe('sk_b');
    expect(readApiKey(h({}))).toBeNull();
    for (const authorization of ['Basic abc', 'Bearer', 'Bearer a b', 'sk_a', 'Token sk_a']) {
      expect(readApiKey(h({ authorization })), authorization).toBeNull();
    }
    // A malformed Authorization is not rescued by x-api-key: an ambiguous request is refused.
    expect(readApiKey(h({ authorization: 'Basic abc', 'x-api-key': 'sk_b' }))).toBeNull();
  });

  it('are masked in logged text, keeping the display prefix', () => {
    const { key } = generateApiKey();
    const text = redactKeys(`/api/v1/videos/${key}?x=1 and ${key}`);
    expect(text).not.toContain(key.slice(11));
    expect(text).toContain(`${key.slice(0, 11)}…[redacted]`);
    expect(redactKeys('/api/v1/videos/dQw4w9WgXcQ')).toBe('/api/v1/videos/dQw4w9WgXcQ');
  });
});
