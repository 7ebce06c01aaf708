/** The realm every challenge names: one protection space for REST, tRPC, MCP and the file routes. */
const AUTH_REALM = 'subtext';

export interface ChallengeOptions {
  /** A credential was sent and refused (RFC 6750 3.1 `invalid_token`); absent credentials get the bare challenge. */
  keySent: boolean;
  /** Extra auth-params (for example `resource_metadata` on /mcp, RFC 9728 5.1), appended in order. */
  params?: Record<string, string>;
}

const quote = (v: string) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/** The `WWW-Authenticate` value of every 401 (RFC 6750 3): MCP clients start their auth flow from it. */
export function wwwAuthenticate({ keySent, params = {} }: ChallengeOptions): string {
  const all: Record<string, string> = { realm: AUTH_REALM };
  if (keySent) {
    all.error = 'invalid_token';
    all.error_description = 'The API key is invalid, revoked or expired';
  }
  Object.assign(all, params);
  return `Bearer ${Object.entries(all)
    .map(([k, v]) => `${k}=${quote(v)}`)
    .join(', ')}`;
}
