// A readable API reference rendered on the server from the OpenAPI document: no script, no CDN.
const esc = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const para = (s: string) =>
  esc(s)
    .split(/\n{2,}/)
    .map((p) => `<p>${p.replace(/`([^`]+)`/g, '<code>$1</code>').replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')}</p>`)
    .join('');

function schemaBlock(schema: unknown): string {
  return schema ? `<pre>${esc(JSON.stringify(schema, null, 2))}</pre>` : '';
}

export function renderDocsPage(doc: any): string {
  const ops: string[] = [];
  const toc: string[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<any>(item)) {
      const id = `${method}-${path}`.replace(/[^a-z0-9]+/gi, '-');
      toc.push(`<li><a href="#${id}"><span class="m ${method}">${method.toUpperCase()}</span> /api/v1${esc(path)}</a></li>`);
      const params = (op.parameters ?? [])
        .map((p: any) => `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${esc(p.description ?? '')} <code>${esc(JSON.stringify(p.schema))}</code></td></tr>`)
        .join('');
      const body = op.requestBody?.content?.['application/json']?.schema;
      const responses = Object.entries<any>(op.responses ?? {})
        .map(([status, r]) => `<h4>${esc(status)}</h4>${para(r.description ?? '')}${schemaBlock(r.content?.['application/json']?.schema)}`)
        .join('');
      ops.push(`<section id="${id}"><h2><span class="m ${method}">${method.toUpperCase()}</span> <code>/api/v1${esc(path)}</code></h2>
        <p><strong>${esc(op.summary ?? '')}</strong></p>${para(op.description ?? '')}
        ${params ? `<h3>Parameters</h3><table><tr><th>Name</th><th>In</th><th>Required</th><th>Description</th></tr>${params}</table>` : ''}
        ${body ? `<h3>Request body (JSON)</h3>${schemaBlock(body)}` : ''}
        <h3>Responses</h3>${responses}</section>`);
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(doc.info?.title)} reference</title><style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fff}main{max-width:960px;margin:0 auto;padding:1rem}
pre{background:#f4f4f5;padding:.75rem;overflow:auto;font-size:13px;border-radius:6px}code{font-size:.92em}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
.m{display:inline-block;min-width:3.5rem;font:700 12px monospace;padding:2px 6px;border-radius:4px;color:#fff;background:#444}
.get{background:#1d6f42}.post{background:#1f4e9a}section{border-top:1px solid #ddd;margin-top:2rem}a{color:#1f4e9a}
a:focus-visible{outline:3px solid #f5a623}</style></head><body><main>
<h1>${esc(doc.info?.title)} <small>${esc(doc.info?.version)}</small></h1>${para(doc.info?.description ?? '')}
<p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI ${esc(doc.openapi)}).</p>
<nav aria-label="Operations"><ul>${toc.join('')}</ul></nav>${ops.join('')}
<section><h2>Error body</h2>${schemaBlock(doc.components?.schemas?.Error)}</section></main></body></html>`;
}
