import { MCP_REVISIONS } from './mcp/versions.ts';
import { generateOpenApiDocument } from 'trpc-to-openapi';
import { ERROR_CODES, type ErrorCode } from '../domain/errors.ts';
import { appRouter } from '../router/index.ts';
import { ERROR_TABLE } from '../router/error-table.ts';
import { getJobMeta } from '../router/jobs/get.meta.ts';
import { REST_PREFIX } from './rest.ts';
import { extraPaths } from './openapi-extra-paths.ts';
import { METRICS_SECURITY, OAUTH_ERROR_SCHEMA, servicePaths } from './openapi-service-paths.ts';
import { listProcedures } from './procedures.ts';
import {
  FRAME_PRICE,
  hourlyPrice,
  LISTING_PAGE_PRICE,
  PER_STARTED_HOUR,
  TRANSCRIPT_PRICE,
} from '../domain/pricing/prices.ts';

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: [...ERROR_CODES], description: 'Stable, machine-readable' },
        message: { type: 'string', description: 'For people; may change' },
      },
    },
  },
};

const DESCRIPTION = `Timed transcripts, subtitle tracks, metadata, still frames, translations and generated articles for YouTube videos.

**Authentication.** Every request needs an API key, as \`Authorization: Bearer <key>\` or \`x-api-key: <key>\`.
**Errors.** Every failure is \`{"error":{"code","message"}}\`; codes and statuses are listed under each operation and in docs/api.md.
**Rate limit.** Per key, ${'`RATE_LIMIT_PER_MINUTE`'} (default 60) requests per minute; every keyed response carries \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\`; a 429 carries \`Retry-After\`. One account may have at most \`QUEUE_MAX_WAITING_PER_ACCOUNT\` (default 10) transcript, metadata, frame or speech-to-text jobs queued or running at once, and at most half of a queue's waiting places; the next is 429 \`RATE_LIMITED\`.
**Credits.** Subtitles on a cache miss: ${TRANSCRIPT_PRICE}. Frame: ${FRAME_PRICE} per frame newly captured. Translation and summary: ${PER_STARTED_HOUR} per started hour of the video (minimum ${hourlyPrice(1)}). Listing pages (playlists, channels, YouTube search): ${LISTING_PAGE_PRICE} per page fetched from YouTube. Batches: each video as its single-video operation. Metadata, tracks, article search, jobs, credits: free. Cached results are free; failures are never charged; an unaffordable request fails with 402 before any work.
**Limits.** A URL over 16 KiB is 414, a body over \`MAX_BODY_BYTES\` (64 KiB by default) 413, a POST body that is not \`application/json\` 415, and a method a path does not accept 405 with \`Allow\`; all in the same error body. Query strings take plain decimal numbers and \`true\`/\`false\` only (no \`1e1\`, \`0x10\`).
**Headers.** Every answer carries \`x-request-id\` (quote it when reporting a problem); 429 and 503 carry \`Retry-After\` (seconds); 401 carries \`WWW-Authenticate: Bearer realm="subtext"\`.
**MCP.** The same operations are tools at \`/mcp\` (streamable HTTP, stateless; protocol revisions ${MCP_REVISIONS.join(', ')}), with an API key or an OAuth access token; stored transcripts, articles and frames are also resources (\`subtext://\`), and three prompts use them.
**Outside /api/v1.** OAuth for MCP clients (\`/.well-known/oauth-protected-resource\`, \`/.well-known/oauth-authorization-server\`, \`/oauth/*\`; errors in OAuth's own shape) and the operations endpoints (\`/healthz\`, \`/readyz\`, \`/metrics\`) live at the service's origin; each of these paths names that server.`;

/** Response headers the service sends, declared once and referenced from the responses that carry them. */
const HEADERS = {
  'RateLimit-Limit': {
    description: 'Requests allowed per minute for this key',
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current one-minute window',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window resets',
    schema: { type: 'integer', minimum: 0, maximum: 60 },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  'x-request-id': {
    description: 'The request id (also in logs and in INTERNAL_ERROR messages)',
    required: true,
    schema: { type: 'string', pattern: '^req_[0-9a-z]{26}$' },
  },
  'WWW-Authenticate': {
    description:
      'The Bearer challenge (RFC 6750): `Bearer realm="subtext"`, with `error="invalid_token"` when a key was sent',
    required: true,
    schema: { type: 'string' },
  },
} as const;
const header = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': header('RateLimit-Limit'),
  'RateLimit-Remaining': header('RateLimit-Remaining'),
  'RateLimit-Reset': header('RateLimit-Reset'),
};
/** Refused before the key is counted: no rate-limit fields. */
const BEFORE_AUTH = new Set(['401', '413', '414', '415']);

/** The license the package declares (package.json `license`). */
const LICENSE = { name: 'UNLICENSED: proprietary, all rights reserved (package.json "license")' };

/** The OpenAPI 3.1 document: generated from the router, with our error body and auth schemes. */
export function buildOpenApiDocument(baseUrl: string) {
  const doc = generateOpenApiDocument(appRouter, {
    title: 'Subtext API',
    version: '1.0.0',
    description: DESCRIPTION,
    baseUrl: baseUrl + REST_PREFIX,
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' },
      apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'The same key, for command-line use' },
    },
    paths: extraPaths(),
  }) as any;
  doc.info.license = LICENSE;
  doc.components ??= {};
  doc.components.schemas ??= {};
  doc.components.schemas.Error = ERROR_SCHEMA;
  doc.components.headers = HEADERS;
  // trpc-to-openapi describes its own error body; replace it with ours on every operation.
  for (const { meta } of listProcedures(appRouter)) {
    if (!meta.openapi) continue;
    const op = doc.paths?.[meta.openapi.path]?.[meta.openapi.method.toLowerCase()];
    if (!op) continue;
    describeErrors(op, meta.errors ?? []);
    if (meta.acceptedAsJob && op.responses?.['200']) {
      op.responses['202'] = {
        ...op.responses['200'],
        description: `Accepted: the work goes on in the background. \`status\` is queued or running and \`job.id\` is the job to poll with GET /api/v1/jobs/{id} (MCP: ${getJobMeta.mcp!.name}) until it succeeds; the \`Location\` header points at it.`,
        headers: { Location: { schema: { type: 'string' }, description: 'URL of the job resource' } },
      };
    }
    if (meta.accepted && op.responses?.['200']) {
      op.responses['202'] = {
        ...op.responses['200'],
        description:
          'Accepted: the work was created and goes on in the background; the `Location` header points at the resource to follow.',
        headers: { Location: { schema: { type: 'string' }, description: 'URL of the created resource' } },
      };
      delete op.responses['200'];
    }
  }
  for (const [path, item] of Object.entries<any>(extraPaths())) {
    for (const [method, op] of Object.entries<any>(item)) {
      const target = doc.paths[path][method];
      describeErrors(target, op['x-error-codes'] ?? []);
      delete target['x-error-codes'];
    }
  }
  for (const item of Object.values<any>(doc.paths)) for (const op of Object.values<any>(item)) describeHeaders(op);
  // OAuth and the operations endpoints: at the origin, not under /api/v1, with their own security and error shapes.
  Object.assign(doc.paths, servicePaths(baseUrl));
  doc.components.schemas.OAuthError = OAUTH_ERROR_SCHEMA;
  doc.components.securitySchemes.metricsToken = METRICS_SECURITY;
  dropUnusedComponents(doc);
  return doc;
}

function describeErrors(op: any, own: ErrorCode[]) {
  op.security = [{ bearer: [] }, { apiKey: [] }];
  for (const status of Object.keys(op.responses ?? {})) {
    if (Number(status) >= 400 || status === 'default') delete op.responses[status];
  }
  const withBody = op.requestBody !== undefined;
  for (const [status, codes] of errorStatuses(own, withBody)) {
    op.responses[status] = {
      description: codes.map((c) => `\`${c}\`: ${ERROR_TABLE[c].description}`).join('\n\n'),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
}

/** The headers each response carries. */
function describeHeaders(op: any) {
  for (const [status, response] of Object.entries<any>(op.responses ?? {})) {
    const headers: Record<string, unknown> = {
      ...(BEFORE_AUTH.has(status) ? {} : RATE_LIMIT_HEADERS),
      'x-request-id': header('x-request-id'),
    };
    if (status === '429' || status === '503') headers['Retry-After'] = header('Retry-After');
    if (status === '401') headers['WWW-Authenticate'] = header('WWW-Authenticate');
    response.headers = { ...headers, ...response.headers };
  }
}

/** trpc-to-openapi adds schemas for its own error bodies, which ours replace: keep only what is referenced. */
function dropUnusedComponents(doc: any) {
  const refs = new Set<string>();
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === '$ref' && typeof x === 'string' && !refs.has(x)) {
          refs.add(x);
          const [, , kind, name] = x.split('/');
          walk(doc.components?.[kind!]?.[name!]);
        } else walk(x);
      }
    }
  };
  walk(doc.paths);
  for (const kind of ['schemas', 'headers', 'responses', 'parameters']) {
    for (const name of Object.keys(doc.components?.[kind] ?? {})) {
      if (!refs.has(`#/components/${kind}/${name}`)) delete doc.components[kind][name];
    }
  }
}

/** Errors every keyed operation can answer, plus the operation's own. */
function errorStatuses(own: ErrorCode[], withBody: boolean): [string, ErrorCode[]][] {
  const codes = new Set<ErrorCode>([
    'INVALID_REQUEST',
    'INVALID_API_KEY',
    // An OAuth access token without the "api" scope.
    'FORBIDDEN',
    'RATE_LIMITED',
    'SERVICE_BUSY',
    'INTERNAL_ERROR',
    'URI_TOO_LONG',
  ]);
  if (withBody) {
    codes.add('PAYLOAD_TOO_LARGE');
    codes.add('UNSUPPORTED_MEDIA_TYPE');
  }
  for (const c of own) codes.add(c);
  const byStatus = new Map<string, ErrorCode[]>();
  for (const c of codes) {
    const s = String(ERROR_TABLE[c].status);
    byStatus.set(s, [...(byStatus.get(s) ?? []), c]);
  }
  return [...byStatus.entries()].sort();
}
