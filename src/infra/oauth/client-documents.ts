// Client ID Metadata Documents fetched as every caller-chosen URL is: the host must resolve to public addresses
// (checked before the request and again at connect time), no redirects, bounded time and size. Kept in memory as
// long as the document's Cache-Control allows, within bounds, so a busy client is not fetched on every sign-in.
import type { Agent } from 'undici';
import { type ClientDocuments, clientFromDocument, MAX_DOCUMENT_BYTES } from '../../domain/oauth/client-documents.ts';
import { createLruCache } from '../../domain/lru-cache.ts';
import { UnredirectableProblem } from '../../domain/oauth/oauth-error.ts';
import type { OAuthClient } from '../../domain/oauth/ports.ts';
import { readCapped } from '../net/checked-fetch.ts';
import { createGuardedAgent } from '../net/guarded-agent.ts';
import { type AddressPolicy, isPublicAddress, resolveAllowed } from '../net/public-address.ts';

const MIN_TTL_S = 60;
const DEFAULT_TTL_S = 3600;
const MAX_TTL_S = 86_400;

export interface ClientDocumentOptions {
  /** Production: public addresses only. Tests allow their loopback server. */
  policy?: AddressPolicy;
  /** Tests: the dispatcher that trusts their certificate (it must check addresses with `policy` too). */
  agent?: Agent;
  timeoutMs?: number;
}

const unusable = (why: string) =>
  new UnredirectableProblem(`The client_id is a client metadata document URL that cannot be used: ${why}.`);

/** Seconds the answer may be kept: its max-age, bounded; no-store still keeps it a minute (sign-in takes two). */
function ttlOf(cacheControl: string | null): number {
  const maxAge = /max-age=(\d+)/i.exec(cacheControl ?? '');
  const s = maxAge ? Number(maxAge[1]) : DEFAULT_TTL_S;
  return Math.min(MAX_TTL_S, Math.max(MIN_TTL_S, s));
}

export function createClientDocuments(opts: ClientDocumentOptions = {}): ClientDocuments {
  const policy = opts.policy ?? isPublicAddress;
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const cache = createLruCache<OAuthClient>({ maxBytes: 4 * 1024 * 1024 });
  let agent = opts.agent;

  async function fetchDocument(url: string): Promise<{ doc: unknown; ttl: number }> {
    // IP literals never reach the connect-time lookup, so check here as well; the message names no address.
    await resolveAllowed(new URL(url).hostname, policy).catch(() => {
      throw unusable('its host is not a public address, or does not resolve');
    });
    agent ??= createGuardedAgent(policy, { connectTimeoutMs: timeoutMs });
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { accept: 'application/json' },
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        dispatcher: agent,
      } as RequestInit);
    } catch {
      throw unusable('it could not be fetched');
    }
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => {});
      throw unusable(
        `fetching it answered HTTP ${res.status}${res.status >= 300 && res.status < 400 ? ' (redirects are not followed)' : ''}`,
      );
    }
    // A body that stalls past the deadline or is cut off mid-way is as unusable as a failed request.
    const body = await readCapped(res.body as AsyncIterable<Uint8Array> | null, MAX_DOCUMENT_BYTES, () =>
      unusable(`its document is larger than ${MAX_DOCUMENT_BYTES} bytes`),
    ).catch((err: unknown) => {
      throw err instanceof UnredirectableProblem ? err : unusable('it could not be fetched');
    });
    try {
      return { doc: JSON.parse(body.toString('utf8')), ttl: ttlOf(res.headers.get('cache-control')) };
    } catch {
      throw unusable('its document is not JSON');
    }
  }

  return {
    async resolve(url, beforeFetch) {
      const cached = cache.get(url);
      if (cached) return cached;
      await beforeFetch?.();
      const { doc, ttl } = await fetchDocument(url);
      const client = clientFromDocument(url, doc);
      cache.set(url, client, url.length + JSON.stringify(client.metadata).length, ttl * 1000);
      return client;
    },
  };
}
