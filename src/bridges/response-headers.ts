import type { RateLimitState } from '../domain/rate-limit/rate-limit.ts';

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers), on every keyed response. */
export function rateLimitHeaders(state: RateLimitState | undefined): [string, string][] {
  if (!state) return [];
  return [
    ['RateLimit-Limit', String(state.limit)],
    ['RateLimit-Remaining', String(state.remaining)],
    ['RateLimit-Reset', String(state.reset)],
  ];
}
