// Node's fetch (undici) reports every network failure as `TypeError: fetch failed`; the reason is in `cause` (a
// getaddrinfo, socket or TLS error code). We say which, so an operator reading "502 EXTRACTION_FAILED" or the log
// knows whether the machine is offline, the host is blocked, or YouTube was slow.

export type NetworkFailure = 'host-not-found' | 'dns-unavailable' | 'refused' | 'reset' | 'timeout' | 'tls' | 'other';

export class YoutubeNetworkError extends Error {
  readonly kind: NetworkFailure;
  constructor(kind: NetworkFailure, message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'YoutubeNetworkError';
    this.kind = kind;
  }

  /** Every client and the watch page go to the same host: when it cannot be resolved, trying them all only waits. */
  get hostUnreachable(): boolean {
    return this.kind === 'host-not-found' || this.kind === 'dns-unavailable';
  }
}

type Coded = { code?: unknown; message?: unknown; name?: unknown; cause?: unknown };

/** The innermost error code (`ENOTFOUND`, `ECONNREFUSED`, `UND_ERR_CONNECT_TIMEOUT`, `CERT_HAS_EXPIRED`...). */
function codeOf(err: unknown): { code: string; message: string } | undefined {
  let e = err as Coded | undefined;
  let found: { code: string; message: string } | undefined;
  for (let depth = 0; e && depth < 5; depth++, e = e.cause as Coded | undefined) {
    if (typeof e.code === 'string') found = { code: e.code, message: String(e.message ?? '') };
    if (e.name === 'TimeoutError') found ??= { code: 'TIMEOUT', message: String(e.message ?? '') };
  }
  return found;
}

export function describeNetworkError(err: unknown, host: string, timeoutMs: number): YoutubeNetworkError {
  const c = codeOf(err);
  const code = c?.code ?? '';
  // "<what failed> (<code>): <detail>": the code is what an operator searches for.
  const say = (kind: NetworkFailure, what: string, detail = '') =>
    new YoutubeNetworkError(
      kind,
      `${what}${code && kind !== 'timeout' ? ` (${code})` : ''}${detail ? `: ${withoutCredentials(detail)}` : ''}`,
      err,
    );
  if (code === 'ENOTFOUND')
    return say(
      'host-not-found',
      'host not found',
      `${host} does not resolve (is this machine offline, or the name blocked?)`,
    );
  if (code === 'EAI_AGAIN' || code === 'ENODATA' || code === 'ESERVFAIL') {
    return say('dns-unavailable', `DNS lookup of ${host} failed`, 'no DNS server answered');
  }
  if (code === 'ECONNREFUSED') return say('refused', `connection to ${host} refused`);
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET')
    return say('reset', `connection to ${host} was reset`);
  if (
    code === 'TIMEOUT' ||
    code === 'ETIMEDOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    return say('timeout', `${host} did not answer within ${Math.round(timeoutMs / 1000)} s`);
  }
  if (/^(CERT_|ERR_TLS|ERR_SSL|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/.test(code))
    return say('tls', `TLS with ${host} failed`, c!.message);
  if (code === 'ENETUNREACH' || code === 'EHOSTUNREACH') return say('refused', `${host} is unreachable (no route)`);
  const message = withoutCredentials(c?.message || (err instanceof Error ? err.message : String(err)));
  return new YoutubeNetworkError('other', `${host}: ${message}`, err);
}

/** A proxy agent's message may quote its proxy URL: the user and password never reach a log or an answer. */
export function withoutCredentials(message: string): string {
  return message.replace(/\/\/[^\s/@]+@/g, '//***@');
}
