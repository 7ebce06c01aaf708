// tRPC over plain HTTP with a cookie jar of one session, for security tests that need to see and forge headers.
export interface Call {
  status: number;
  json: any;
  setCookie: string[];
  code?: string;
}

export function sessionClient(base: string) {
  let cookie = '';
  let csrf = '';
  const call = async (
    type: 'query' | 'mutation',
    path: string,
    input: unknown = {},
    headers: Record<string, string> = {},
  ): Promise<Call> => {
    const h: Record<string, string> = { ...(cookie ? { cookie } : {}), ...headers };
    const res =
      type === 'query'
        ? await fetch(`${base}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: h })
        : await fetch(`${base}/trpc/${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...h },
            body: JSON.stringify(input),
          });
    const json = await res.json();
    const setCookie = res.headers.getSetCookie();
    for (const c of setCookie) cookie = c.split(';')[0]!.endsWith('=') ? '' : c.split(';')[0]!;
    if (json?.result?.data?.csrfToken) csrf = json.result.data.csrfToken;
    return { status: res.status, json, setCookie, code: json?.error?.data?.code };
  };
  return {
    call,
    get cookie() {
      return cookie;
    },
    set cookie(v: string) {
      cookie = v;
    },
    get csrf() {
      return csrf;
    },
    /** A mutation with the session's CSRF token, as the website sends it. */
    mutate: (path: string, input: unknown = {}, headers: Record<string, string> = {}) =>
      call('mutation', path, input, { 'x-csrf-token': csrf, ...headers }),
    query: (path: string, input: unknown = {}, headers: Record<string, string> = {}) =>
      call('query', path, input, { 'x-csrf-token': csrf, ...headers }),
    signUp: (email: string, password = 'a long enough password') =>
      call('mutation', 'account.signUp', { email, password }),
    signIn: (email: string, password = 'a long enough password', headers: Record<string, string> = {}) =>
      call('mutation', 'account.signIn', { email, password }, headers),
  };
}

let n = 0;
export const newEmail = () => `sec-${process.pid}-${++n}-${Date.now()}@example.com`;
