import type { Deps } from '../../deps.ts';

const originOf = (url: string): string | null => {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? null : o;
  } catch {
    return null;
  }
};

/**
 * DNS-rebinding protection for /mcp (MCP transports spec, "Security Warning"): a request a browser sends from a
 * page on another origin is refused. Requests without Origin are not from a browser page and pass; `null` and
 * unparsable origins fail. Origins compare exactly (scheme, host and port).
 */
export function originAllowed(origin: string | null, deps: Pick<Deps, 'publicUrl' | 'config'>): boolean {
  if (origin === null || origin === '') return true;
  const wanted = originOf(origin);
  if (!wanted) return false;
  return wanted === originOf(deps.publicUrl) || deps.config.MCP_ALLOWED_ORIGINS.some((o) => originOf(o) === wanted);
}
