/** Connection-level failures: the database is restarting or unreachable, so the answer is "retry shortly". */
export function isDatabaseDown(err: unknown): boolean {
  const code = (err as { code?: string } | undefined)?.code;
  return (
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    // A write on a socket the server has just closed (a terminated backend), before the close is seen.
    code === 'EPIPE' ||
    code === 'CONNECTION_CLOSED' ||
    code === 'CONNECTION_ENDED' ||
    code === 'CONNECTION_DESTROYED' ||
    code === 'CONNECT_TIMEOUT' ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    // too_many_connections: the server is full for a moment (other clients share it); busy, not broken.
    code === '53300'
  );
}

/**
 * Text PostgreSQL cannot store (a NUL character, bytes that are not UTF-8, a lone surrogate in JSON): the caller's
 * input, not our fault.
 */
export function isUnstorableText(err: unknown): boolean {
  const e = err as { code?: string; detail?: string } | undefined;
  // 22P02 is any malformed input; only a JSON string holding a lone surrogate is the caller's text.
  return e?.code === '22021' || e?.code === '22P05' || (e?.code === '22P02' && /surrogate/i.test(e.detail ?? ''));
}
