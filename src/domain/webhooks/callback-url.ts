import { ServiceError } from '../errors.ts';
import type { WebhookTransport } from './ports.ts';

/**
 * A caller's callbackUrl, checked when the job is asked for: https (http only when the operator allows it), no
 * credentials in it, and a host that resolves to public addresses only. Refused with 400 INVALID_REQUEST.
 */
export async function checkCallbackUrl(
  transport: WebhookTransport,
  raw: string | undefined,
  allowHttp: boolean,
): Promise<string | null> {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ServiceError('INVALID_REQUEST', 'callbackUrl is not a valid URL');
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) {
    throw new ServiceError('INVALID_REQUEST', `callbackUrl must use https${allowHttp ? ' or http' : ''}`);
  }
  if (url.username || url.password)
    throw new ServiceError('INVALID_REQUEST', 'callbackUrl must not contain a user name or password');
  await transport.assertAllowed(url.href);
  return url.href;
}
