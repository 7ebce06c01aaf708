// /docs: the interactive API reference (Swagger UI, served from the swagger-ui-dist package: no CDN), drawn from
// /api/v1/openapi.json, with "Try it out" against this server and a way back to the site.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Hono } from 'hono';
import type { HttpEnv } from './http-env.ts';

const require = createRequire(import.meta.url);
const DIST = path.dirname(require.resolve('swagger-ui-dist/package.json'));
/** The package's real version, shown on the page and used to name its cached assets. */
const SWAGGER_UI_VERSION = (JSON.parse(readFileSync(path.join(DIST, 'package.json'), 'utf8')) as { version: string })
  .version;

// Our settings for the bundle, as a file: the page's CSP allows no inline script.
const INIT_JS = `window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  persistAuthorization: true,
  displayRequestDuration: true,
  filter: true,
  defaultModelsExpandDepth: 0,
  docExpansion: 'list',
  tryItOutEnabled: false,
});
`;

const DOCS_CSS = `body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff}
.docs-bar{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:center;padding:.75rem 1.25rem;border-bottom:1px solid #e4e4e7;background:#fafafa}
.docs-bar a{color:#1f4e9a;text-decoration:none;font-weight:600}.docs-bar a:hover{text-decoration:underline}
.docs-bar a:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
.docs-bar .title{font-weight:700}.docs-bar .version{margin-left:auto;color:#52525b;font-size:.875rem}
.docs-fallback{max-width:60rem;margin:2rem auto;padding:0 1.25rem}
`;

const ASSETS: Record<string, { type: string; body: () => string }> = {
  'swagger-ui.css': {
    type: 'text/css; charset=utf-8',
    body: lazy(() => readFileSync(path.join(DIST, 'swagger-ui.css'), 'utf8')),
  },
  'swagger-ui-bundle.js': {
    type: 'text/javascript; charset=utf-8',
    body: lazy(() => readFileSync(path.join(DIST, 'swagger-ui-bundle.js'), 'utf8')),
  },
  'docs.js': { type: 'text/javascript; charset=utf-8', body: () => INIT_JS },
  'docs.css': { type: 'text/css; charset=utf-8', body: () => DOCS_CSS },
};

function lazy(read: () => string): () => string {
  let text: string | undefined;
  return () => (text ??= read());
}

function page(): string {
  const v = encodeURIComponent(SWAGGER_UI_VERSION);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Subtext API reference</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css?v=${v}">
<link rel="stylesheet" href="/docs/assets/docs.css?v=${v}">
</head>
<body>
<header class="docs-bar">
<a href="/">&larr; Subtext</a>
<span class="title">API reference</span>
<a href="/keys">Get an API key</a>
<a href="/api/v1/openapi.json">openapi.json</a>
<span class="version">Swagger UI ${SWAGGER_UI_VERSION}</span>
</header>
<main id="reference"></main>
<noscript><p class="docs-fallback">This reference needs JavaScript. The OpenAPI document it is drawn from is
<a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p></noscript>
<script src="/docs/assets/swagger-ui-bundle.js?v=${v}"></script>
<script src="/docs/assets/docs.js?v=${v}"></script>
</body>
</html>`;
}

export function mountDocs(app: Hono<HttpEnv>, publicUrl: string): void {
  // Swagger UI sets style attributes (so 'unsafe-inline' for styles only) and shows data: images; "Try it out" calls
  // this server, whose public origin may differ from the one the page was loaded from behind a proxy.
  const connect = new Set(["'self'", new URL(publicUrl).origin]);
  const headers = {
    'content-security-policy': `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src ${[...connect].join(' ')}; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'cache-control': 'no-cache',
  };
  const html = page();
  app.get('/docs', (c) => c.html(html, 200, headers));
  app.get('/docs/assets/:file', (c) => {
    const asset = ASSETS[c.req.param('file')];
    if (!asset) return c.notFound();
    // Named by version: a new swagger-ui-dist is a new URL, so the old one can be cached for good.
    const cache = c.req.query('v') === SWAGGER_UI_VERSION ? 'public, max-age=31536000, immutable' : 'no-cache';
    return c.body(asset.body(), 200, {
      'content-type': asset.type,
      'cache-control': cache,
      'x-content-type-options': 'nosniff',
    });
  });
}
