// A loopback server implementing the subset of Typesense's documented REST API
// (https://typesense.org/docs/latest/api/) that the official client calls for article search. It is a model of
// the documented API, not a real Typesense: matching is naive substring search, filter_by supports only
// `field:=`value`` clauses joined by &&.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

interface TsRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

type Doc = Record<string, unknown> & { id: string };

export async function startFakeTypesense(apiKey: string) {
  const requests: TsRequest[] = [];
  const collections = new Map<string, { schema: Record<string, unknown>; docs: Map<string, Doc> }>();
  /** Documents with these ids fail on import, as a document the schema refuses does. */
  const rejectIds = new Set<string>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
      });
      const reply = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(json));
      };
      if (req.headers['x-typesense-api-key'] !== apiKey)
        return reply(401, { message: 'Forbidden - a valid `x-typesense-api-key` header must be sent.' });

      const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      const [root, name, sub, op] = parts;
      if (root !== 'collections') return reply(404, { message: 'Not Found' });
      if (!name) {
        if (req.method === 'GET')
          return reply(
            200,
            [...collections.values()].map((c) => c.schema),
          );
        if (req.method === 'POST') {
          const schema = JSON.parse(body) as { name: string };
          if (collections.has(schema.name))
            return reply(409, { message: `A collection with name \`${schema.name}\` already exists.` });
          collections.set(schema.name, { schema: { ...schema, num_documents: 0, created_at: 1 }, docs: new Map() });
          return reply(201, collections.get(schema.name)!.schema);
        }
      }
      const col = name ? collections.get(name) : undefined;
      if (!col) return reply(404, { message: 'Not found.' });
      if (!sub && req.method === 'GET') return reply(200, { ...col.schema, num_documents: col.docs.size });
      if (sub !== 'documents') return reply(404, { message: 'Not Found' });
      if (!op && req.method === 'POST') {
        const doc = JSON.parse(body) as Doc;
        if (url.searchParams.get('action') !== 'upsert' && col.docs.has(doc.id))
          return reply(409, { message: 'A document with id already exists.' });
        col.docs.set(doc.id, doc);
        return reply(201, doc);
      }
      if (op === 'import' && req.method === 'POST') {
        // One result line per document, in order; a failed line carries `error` and `code` and the rest go on.
        const action = url.searchParams.get('action') ?? 'create';
        const results = body
          .split('\n')
          .filter(Boolean)
          .map((line) => {
            let d: Doc;
            try {
              d = JSON.parse(line) as Doc;
            } catch {
              return { success: false, error: 'Bad JSON.', code: 400, document: line };
            }
            if (rejectIds.has(d.id))
              return { success: false, error: `Field \`created_at\` must be an int64.`, code: 400, document: line };
            if (action === 'create' && col.docs.has(d.id))
              return { success: false, error: 'A document with id already exists.', code: 409, document: line };
            col.docs.set(d.id, d);
            return { success: true };
          });
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        return res.end(results.map((r) => JSON.stringify(r)).join('\n'));
      }
      if (op === 'search' && req.method === 'GET') return reply(200, search(col.docs, url.searchParams));
      return reply(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    collections,
    rejectIds,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function search(docs: Map<string, Doc>, p: URLSearchParams) {
  const q = p.get('q') ?? '*';
  const fields = (p.get('query_by') ?? '').split(',');
  const filters = (p.get('filter_by') ?? '')
    .split('&&')
    .map((c) => /^\s*(\w+):=`([^`]*)`\s*$/.exec(c))
    .filter((m): m is RegExpExecArray => m !== null);
  const exclude = new Set((p.get('exclude_fields') ?? '').split(','));
  const page = Number(p.get('page') ?? 1);
  const perPage = Number(p.get('limit') ?? p.get('per_page') ?? 10);
  // `offset` and `limit` are Typesense's alternative to page and per_page.
  const from = p.has('offset') ? Number(p.get('offset')) : (page - 1) * perPage;
  const words = q === '*' ? [] : q.toLowerCase().split(/\s+/);
  const matched = [...docs.values()]
    .filter((d) => filters.every((m) => String(d[m[1]!]) === m[2]))
    .filter((d) =>
      words.every((w) =>
        fields.some((f) =>
          JSON.stringify(d[f] ?? '')
            .toLowerCase()
            .includes(w),
        ),
      ),
    )
    .sort((a, b) => Number(b.created_at) - Number(a.created_at));
  const hits = matched.slice(from, from + perPage).map((d) => {
    const shown = Object.fromEntries(Object.entries(d).filter(([k]) => !exclude.has(k)));
    const field = fields.find(
      (f) =>
        words.length &&
        String(d[f] ?? '')
          .toLowerCase()
          .includes(words[0]!),
    );
    const highlights = field
      ? [
          {
            field,
            snippet: String(d[field]).replace(
              new RegExp(words[0]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i'),
              (m) => `<mark>${m}</mark>`,
            ),
            matched_tokens: [words[0]],
          },
        ]
      : [];
    return { document: shown, highlights, highlight: {}, text_match: 100 };
  });
  return {
    facet_counts: [],
    found: matched.length,
    out_of: docs.size,
    page,
    request_params: { collection_name: 'x', per_page: perPage, q },
    search_time_ms: 0,
    hits,
  };
}
