// Standard Webhooks (https://www.standardwebhooks.com): webhook-id, webhook-timestamp (Unix seconds) and
// webhook-signature "v1,<base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`>" keyed with the base64 secret after
// "whsec_". The standardwebhooks package does the signing, so receivers can verify with any SDK of the scheme.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export function signedHeaders(secret: string, msgId: string, body: string, at: Date): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'Subtext-Webhooks/1',
    'webhook-id': msgId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': new Webhook(secret).sign(msgId, new Date(timestamp * 1000), body),
  };
}
