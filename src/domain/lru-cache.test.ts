import { describe, expect, it } from 'vitest';
import { createLruCache } from './lru-cache.ts';

describe('createLruCache', () => {
  it('evicts the least recently used entry past its byte budget', () => {
    const c = createLruCache<string>({ maxBytes: 10 });
    c.set('a', 'A', 4, 1000);
    c.set('b', 'B', 4, 1000);
    expect(c.get('a')).toBe('A'); // a is now the most recent
    c.set('c', 'C', 4, 1000);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe('A');
    expect(c.get('c')).toBe('C');
  });

  it('expires entries after their TTL and refuses entries larger than the budget', () => {
    const c = createLruCache<string>({ maxBytes: 10 });
    c.set('a', 'A', 1, 100, 0);
    expect(c.get('a', 50)).toBe('A');
    expect(c.get('a', 100)).toBeUndefined();
    c.set('big', 'B', 11, 100);
    expect(c.get('big')).toBeUndefined();
    expect(c.size).toBe(0);
  });
});
