// Webhook POSTs under the same rules as every URL a caller makes us fetch: the host must resolve to allowed (public)
// addresses, checked before each attempt and again at connect time (guarded-agent.ts); redirects are never followed;
// bounded time; the answer's body is not read.
import type { Agent } from 'undici';
import { ServiceError } from '../../domain/errors.ts';
import type { WebhookTransport } from '../../domain/webhooks/ports.ts';
import { createGuardedAgent } from '../net/guarded-agent.ts';
import { isPublicAddress, REFUSED_HOST, resolveAllowed, type AddressPolicy } from '../net/public-address.ts';
import { signedHeaders } from './signing.ts';

/** `policy`: production passes operatorPolicy(WEBHOOK_ALLOWED_NETWORKS); public addresses only by default. */
export function createWebhookTransport(opts: { policy?: AddressPolicy; timeoutMs?: number } = {}): WebhookTransport {
  const policy = opts.policy ?? isPublicAddress;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  let agent: Agent | undefined;
  return {
    async assertAllowed(url) {
      // One sentence for every refusal: what a name resolves to, or why it does not, stays inside.
      await resolveAllowed(new URL(url).hostname, policy).catch(() => {
        throw new ServiceError('INVALID_REQUEST', `callbackUrl is not allowed: ${REFUSED_HOST}`);
      });
    },
    async send(url, secret, msgId, body) {
      // IP literals never reach the connect-time lookup, so check here as well.
      await resolveAllowed(new URL(url).hostname, policy);
      agent ??= createGuardedAgent(policy);
      const res = await fetch(url, {
        method: 'POST',
        headers: signedHeaders(secret, msgId, body, new Date()),
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        dispatcher: agent,
      } as RequestInit);
      await res.body?.cancel().catch(() => {});
      return { status: res.status };
    },
  };
}
