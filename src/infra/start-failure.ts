/**
 * A start that cannot go on, said in one sentence a user can act on (what went wrong, what to do). main.ts and the
 * CLI print its message alone, without a stack trace.
 */
export class StartFailure extends Error {
  override name = 'StartFailure';
}

type SystemError = Error & { code?: string; errno?: number; address?: string; port?: number; syscall?: string };

/** Where DATABASE_URL points, without its credentials. */
function databaseHost(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/**
 * Turns what went wrong before the service was up into one sentence. Unknown errors keep their message (they are
 * bugs; the stack is printed too, at LOG_LEVEL=debug).
 */
export function explainStartFailure(
  err: unknown,
  ctx: { databaseUrl?: string; port?: number },
): { message: string; known: boolean } {
  if (err instanceof StartFailure) return { message: err.message, known: true };
  const e = err as SystemError & { severity?: string };
  const db = ctx.databaseUrl ? databaseHost(ctx.databaseUrl) : undefined;
  if (e?.code === 'EADDRINUSE' && e.syscall === 'listen') {
    const port = e.port ?? ctx.port;
    return {
      message: `Port ${port} is already in use (another Subtext, or another program): stop it, or start on another port, e.g. PORT=${(port ?? 3000) + 1} npm start.`,
      known: true,
    };
  }
  if (e?.code === 'EACCES' && e.syscall === 'listen') {
    return {
      message: `Not allowed to listen on port ${e.port ?? ctx.port} (ports below 1024 need privileges): choose another with PORT.`,
      known: true,
    };
  }
  if (db) {
    if (e?.code === 'ECONNREFUSED')
      return {
        message: `Could not connect to PostgreSQL at ${db} (connection refused): start it, fix DATABASE_URL, or unset DATABASE_URL to use the embedded one.`,
        known: true,
      };
    if (e?.code === 'ENOTFOUND' || e?.code === 'EAI_AGAIN')
      return {
        message: `Could not connect to PostgreSQL at ${db}: the host name does not resolve; fix DATABASE_URL.`,
        known: true,
      };
    if (e?.code === 'CONNECT_TIMEOUT' || e?.code === 'ETIMEDOUT')
      return {
        message: `Could not connect to PostgreSQL at ${db} (timed out): check the host, port and firewall in DATABASE_URL.`,
        known: true,
      };
    // Errors the server itself sent (wrong password, missing database, ...) carry a PostgreSQL SQLSTATE code.
    if (typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && e.severity) {
      return { message: `PostgreSQL at ${db} refused the connection: ${e.message}; fix DATABASE_URL.`, known: true };
    }
  }
  const message = e instanceof Error ? e.message : String(err);
  return { message: `Subtext could not start: ${message || 'unknown error'}.`, known: false };
}
