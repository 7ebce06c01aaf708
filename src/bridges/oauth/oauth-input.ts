// Strict readers of what the OAuth endpoints receive: a form body, a query string, a JSON body. Each parameter once
// (RFC 6749 3.1, 3.2), valid UTF-8 and no NUL (no OAuth parameter holds one, and PostgreSQL cannot store it), JSON
// strings well-formed Unicode (a lone surrogate cannot be stored either). A refusal is an OAuthProblem naming the
// parameter, so each endpoint answers it in OAuth's shape.
import { OAuthProblem } from '../../domain/oauth/oauth-error.ts';
import { decodeUtf8, escapesLoneSurrogate } from '../unicode-text.ts';

/** A refused parameter: `param` is its name when that could be read. */
export class InputProblem extends OAuthProblem {
  readonly param: string | undefined;
  constructor(description: string, param?: string) {
    super('invalid_request', description);
    this.param = param;
  }
}

const hex = (b: number | undefined) =>
  b === undefined
    ? -1
    : b >= 0x30 && b <= 0x39
      ? b - 0x30
      : (b | 0x20) >= 0x61 && (b | 0x20) <= 0x66
        ? (b | 0x20) - 0x57
        : -1;

/** application/x-www-form-urlencoded decoding of one name or value, refusing what URLSearchParams would repair. */
function decodeComponent(raw: string, param?: string): string {
  const bytes = Buffer.from(raw.replaceAll('+', ' '), 'utf8');
  const out = Buffer.allocUnsafe(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b !== 0x25) {
      out[n++] = b;
      continue;
    }
    const hi = hex(bytes[i + 1]);
    const lo = hex(bytes[i + 2]);
    if (hi < 0 || lo < 0) throw new InputProblem('A parameter has a malformed percent-encoding', param);
    out[n++] = hi * 16 + lo;
    i += 2;
  }
  const text = decodeUtf8(out.subarray(0, n));
  if (text === undefined) throw new InputProblem(`${param ?? 'A parameter name'} is not valid UTF-8`, param);
  if (text.includes('\u0000')) throw new InputProblem(`${param ?? 'A parameter name'} contains a NUL character`, param);
  return text;
}

export interface ReadParams {
  /** The parameters that could be read, each given once. */
  params: Record<string, string>;
  /** The first refusal; its parameter (when its name could be read) is left out of `params`. */
  problem?: InputProblem;
}

/** The parameters of a query string or form body; what cannot be read, or comes twice, is left out and named. */
export function readParamsLeniently(encoded: string): ReadParams {
  const params: Record<string, string> = Object.create(null);
  const refused = new Set<string>();
  let problem: InputProblem | undefined;
  for (const pair of encoded.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    try {
      const name = decodeComponent(eq < 0 ? pair : pair.slice(0, eq));
      if (refused.has(name)) continue;
      const value = decodeComponent(eq < 0 ? '' : pair.slice(eq + 1), name.slice(0, 100));
      // RFC 6749 3.1: a parameter without a value is treated as omitted.
      if (value === '') continue;
      if (name in params) {
        delete params[name];
        throw new InputProblem(`${name.slice(0, 100)} is given more than once`, name);
      }
      params[name] = value;
    } catch (err) {
      if (!(err instanceof InputProblem)) throw err;
      if (err.param !== undefined) refused.add(err.param);
      problem ??= err;
    }
  }
  // A name seen after its refusal was skipped above; one refused after being read is dropped here.
  for (const name of refused) delete params[name];
  return problem ? { params, problem } : { params };
}

/** The request target's query, as sent (still percent-encoded). */
export const rawQuery = (url: string) => {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
};

function bodyText(bytes: ArrayBuffer): string {
  const text = decodeUtf8(bytes);
  if (text === undefined) throw new InputProblem('The request body is not valid UTF-8');
  return text;
}

/**
 * A form body (the only kind RFC 6749 endpoints take), read leniently: a body that is not a form, or not UTF-8, is
 * thrown; a refused parameter is returned as the problem.
 */
export async function readFormLeniently(req: Request): Promise<ReadParams> {
  const type = (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded')
    throw new InputProblem('The request body must be application/x-www-form-urlencoded');
  return readParamsLeniently(bodyText(await req.arrayBuffer()));
}

/** A form body, each parameter at most once, all of it readable. */
export async function readForm(req: Request): Promise<Record<string, string>> {
  const { params, problem } = await readFormLeniently(req);
  if (problem) throw problem;
  return params;
}

/** A JSON body: null when it is not JSON at all (the caller says what it expected). */
export async function readJson(req: Request): Promise<unknown> {
  const text = bodyText(await req.arrayBuffer());
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (escapesLoneSurrogate(text))
    throw new InputProblem('The request body has text that is not valid Unicode (a lone surrogate)');
  return body;
}
