import type { Hono } from 'hono';
import type { Deps } from '../deps.ts';
import { loadWebsiteAssets, type WebsiteAssets } from './website-assets.ts';
import type { HttpEnv } from './http-env.ts';
import type { Context as HonoContext } from 'hono';

/** Client-side routes: each answers the same page shell, and the script draws the page. */
const WEB_PAGES = [
  '/',
  '/sign-in',
  '/sign-up',
  '/service',
  '/articles',
  '/articles/:id',
  '/keys',
  '/usage',
  '/connect',
  '/webhooks',
  '/watches',
];

type Assets = WebsiteAssets;

function shell(a: Assets): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Subtext</title>
<meta name="description" content="Transcripts, frames, translations and articles for YouTube videos">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/app.css?v=${a.version}">
<script type="module" src="/assets/app.js?v=${a.version}"></script>
</head>
<body>
<div id="app"><main id="main"><p>Loading Subtext…</p></main></div>
<noscript><p>The Subtext website needs JavaScript. The API works without it: its OpenAPI document is <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p></noscript>
</body>
</html>`;
}

export function mountWebsite(app: Hono<HttpEnv>, deps: Deps): void {
  let assets: Promise<Assets> | undefined;
  const load = () =>
    (assets ??= loadWebsiteAssets().catch((err) => {
      assets = undefined; // a failed build is retried on the next request
      throw err;
    }));
  load().catch((err) => deps.log.error({ err }, 'website build failed'));

  const imgOrigins = new Set(["'self'", 'data:', 'blob:', 'https:', new URL(deps.publicUrl).origin]);
  const securityHeaders = {
    'content-security-policy': `default-src 'self'; script-src 'self'; style-src 'self'; img-src ${[...imgOrigins].join(' ')}; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };

  for (const path of WEB_PAGES) {
    app.get(path, async (c) => {
      const a = await load();
      return c.html(shell(a), 200, { ...securityHeaders, 'cache-control': 'no-cache' });
    });
  }
  const asset = (type: string, pick: (a: Assets) => string) => async (c: HonoContext) => {
    const a = await load();
    // Versioned URLs change with the content, so they may be cached for good.
    const cache = c.req.query('v') === a.version ? 'public, max-age=31536000, immutable' : 'no-cache';
    return c.body(pick(a), 200, { 'content-type': type, 'cache-control': cache, 'x-content-type-options': 'nosniff' });
  };
  app.get(
    '/assets/app.js',
    asset('text/javascript; charset=utf-8', (a) => a.js),
  );
  app.get(
    '/assets/app.css',
    asset('text/css; charset=utf-8', (a) => a.css),
  );
}
