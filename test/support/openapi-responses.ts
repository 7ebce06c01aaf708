// Checks REST answers against the OpenAPI document the server serves: the status is documented for the operation,
// required headers are present and valid, and a JSON body validates against the documented schema.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const DOC_ID = 'https://subtext.test/openapi.json';

interface Checker {
  check(method: string, url: string, status: number, headers: Headers, body: string): string[];
}

function makeChecker(doc: any): Checker {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: doc.components }, DOC_ID);
  const rebase = (v: any): any =>
    Array.isArray(v)
      ? v.map(rebase)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v).map(([k, x]) => [
              k,
              k === '$ref' && typeof x === 'string' && x.startsWith('#/') ? DOC_ID + x : rebase(x),
            ]),
          )
        : v;
  const resolve = (v: any): any =>
    v?.$ref
      ? v.$ref
          .split('/')
          .slice(1)
          .reduce((o: any, k: string) => o?.[k], doc)
      : v;
  const compiled = new Map<unknown, ReturnType<Ajv2020['compile']>>();
  const validate = (schema: unknown) => {
    if (!compiled.has(schema)) compiled.set(schema, ajv.compile(rebase(schema)));
    return compiled.get(schema)!;
  };
  const prefix = new URL(doc.servers[0].url).pathname.replace(/\/$/, '');
  // Paths with a server of their own (OAuth, /healthz...) are not under the REST prefix.
  const templates = Object.keys(doc.paths)
    .filter((t) => !doc.paths[t].servers)
    .map((t) => ({ t, re: new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));

  return {
    check(method, url, status, headers, body) {
      const path = new URL(url).pathname;
      if (!path.startsWith(prefix)) return [];
      const template = templates.find((x) => x.re.test(path.slice(prefix.length)))?.t;
      const op = template && doc.paths[template][method === 'HEAD' ? 'get' : method.toLowerCase()];
      if (!op) return []; // no such operation: 404/405, answered for paths and methods the document does not have
      const where = `${method} ${template} ${status}`;
      const response = resolve(op.responses[String(status)] ?? op.responses.default);
      if (!response) return [`${where}: status not documented`];
      const problems: string[] = [];
      for (const [name, h] of Object.entries<any>(response.headers ?? {})) {
        const def = resolve(h);
        const value = headers.get(name);
        if (value === null) {
          if (def.required) problems.push(`${where}: required header ${name} missing`);
          continue;
        }
        const typed = def.schema?.type === 'integer' || def.schema?.type === 'number' ? Number(value) : value;
        if (!validate(def.schema)(typed))
          problems.push(`${where}: header ${name}=${value}: ${ajv.errorsText(validate(def.schema).errors)}`);
      }
      if (method === 'HEAD' || !response.content) return problems;
      const type = (headers.get('content-type') ?? '').split(';')[0]!.trim();
      const media = Object.entries<any>(response.content).find(([k]) => k.split(';')[0]!.trim() === type)?.[1];
      if (!media) return [...problems, `${where}: content-type ${type} not documented`];
      if (type === 'application/json') {
        const v = validate(media.schema);
        if (!v(JSON.parse(body))) problems.push(`${where}: body ${ajv.errorsText(v.errors)}: ${body.slice(0, 300)}`);
      }
      return problems;
    },
  };
}

const checkers = new Map<string, Promise<Checker>>();

/** Loads the document served at `base` once (the test server does it at start, so requests are not slowed). */
export function openApiChecker(base: string): Promise<Checker> {
  let checker = checkers.get(base);
  if (!checker) {
    checker = fetch(`${base}/api/v1/openapi.json`).then(async (r) => makeChecker(await r.json()));
    checkers.set(base, checker);
  }
  return checker;
}

/** The answer matches the OpenAPI document served at `base`. */
export async function expectMatchesOpenApi(base: string, method: string, res: Response, body: string): Promise<void> {
  expect((await openApiChecker(base)).check(method, res.url, res.status, res.headers, body)).toEqual([]);
}
