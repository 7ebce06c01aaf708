import { decodeJwt, jwtVerify, SignJWT } from 'jose';
import type { AccessTokens } from '../../domain/oauth/ports.ts';

/**
 * Access tokens are JWTs (HS256, jose) naming the grant, the account and the resource they are for (`aud`, RFC 8707).
 * The signature and audience are checked here; that the grant is still live is checked in the database on every use,
 * so revocation takes effect on the next request.
 */
export function createAccessTokens(opts: {
  secret: string;
  issuer: string | (() => string);
  ttlSeconds: number;
}): AccessTokens {
  const key = new TextEncoder().encode(opts.secret);
  const issuer = () => (typeof opts.issuer === 'function' ? opts.issuer() : opts.issuer);
  return {
    ttlSeconds: opts.ttlSeconds,
    issue(c) {
      return new SignJWT({ gid: c.grantId, client_id: c.clientId, scope: c.scope })
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
        .setIssuer(issuer())
        .setSubject(c.accountId)
        .setAudience(c.audience)
        .setIssuedAt()
        .setExpirationTime(`${opts.ttlSeconds}s`)
        .sign(key);
    },
    async verify(token, resource) {
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: issuer(),
          audience: resource,
          algorithms: ['HS256'],
          typ: 'at+jwt',
        });
        if (typeof payload.gid !== 'string' || typeof payload.sub !== 'string') return null;
        return {
          grantId: payload.gid,
          accountId: payload.sub,
          clientId: String(payload.client_id ?? ''),
          scope: String(payload.scope ?? ''),
        };
      } catch {
        return null;
      }
    },
    async grantOf(token) {
      try {
        // Signature checked, expiry not: revoking with an expired access token still revokes its grant.
        const { payload } = await jwtVerify(token, key, {
          issuer: issuer(),
          algorithms: ['HS256'],
          currentDate: new Date(decodeJwt(token).iat! * 1000),
        });
        return typeof payload.gid === 'string' ? payload.gid : null;
      } catch {
        return null;
      }
    },
  };
}
