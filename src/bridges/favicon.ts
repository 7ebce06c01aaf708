import type { Hono } from 'hono';
import type { HttpEnv } from './http-env.ts';

// The site's mark: a caption bar under a play triangle, in the site's blue. One SVG serves every size.
const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#1f4e9a"/>
<path d="M12 7.5v11l9-5.5z" fill="#fff"/>
<rect x="7" y="22" width="18" height="3" rx="1.5" fill="#fff"/>
</svg>`;

export function mountFavicon(app: Hono<HttpEnv>): void {
  const answer = () =>
    new Response(FAVICON_SVG, {
      headers: {
        'content-type': 'image/svg+xml',
        'cache-control': 'public, max-age=86400',
        'x-content-type-options': 'nosniff',
      },
    });
  app.get('/favicon.svg', answer);
  // Browsers ask for /favicon.ico on pages that name no icon (the JSON API's, an error page): the same image.
  app.get('/favicon.ico', answer);
}
