import { generateOpenApiDocument } from 'trpc-to-openapi';
import { ERROR_CODES, type ErrorCode } from '../domain/errors.ts';
import { appRouter } from '../router/index.ts';
import { ERROR_TABLE } from '../router/error-table.ts';
import { REST_PREFIX } from './rest.ts';
import { extraPaths } from './openapi-extra-paths.ts';
import { listProcedures } from './procedures.ts';

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
**Errors.** Every failure is \`{"error":{"code","message"}}\`; codes and statuses are listed under each operation and in README.md.
**Rate limit.** Per key, ${'`RATE_LIMIT_PER_MINUTE`'} (default 60) requests per minute; every keyed response carries \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\`; a 429 carries \`Retry-After\`.
**Credits.** Subtitles on a cache miss: 2. Frame: 1 per frame newly captured. Translation and summary: 1 per started hour of the video (minimum 1). Metadata, tracks, search, credits: free. Cached results are free; failures are never charged; an unaffordable request fails with 402 before any work.
**MCP.** The same operations are tools at \`/mcp\` (streamable HTTP, stateless).`;

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
    paths: extraPaths() as never,
  }) as any;
  doc.components ??= {};
  doc.components.schemas ??= {};
  doc.components.schemas.Error = ERROR_SCHEMA;
  // trpc-to-openapi describes its own error body; replace it with ours on every operation.
  for (const { meta } of listProcedures(appRouter)) {
    if (!meta.openapi) continue;
    const op = doc.paths?.[meta.openapi.path]?.[meta.openapi.method.toLowerCase()];
    if (!op) continue;
    describeErrors(op, meta.errors ?? []);
    if (meta.acceptedAsJob && op.responses?.['200']) {
      op.responses['202'] = {
        ...op.responses['200'],
        description:
          'Accepted: the work goes on in the background. `status` is queued or running and `job.id` is the job to poll with GET /api/v1/jobs/{id} (MCP: get_job) until it succeeds; the `Location` header points at it.',
        headers: { Location: { schema: { type: 'string' }, description: 'URL of the job resource' } },
      };
    }
  }
  for (const [path, item] of Object.entries<any>(extraPaths())) {
    for (const [method, op] of Object.entries<any>(item)) {
      const target = doc.paths[path][method];
      describeErrors(target, op['x-error-codes'] ?? []);
      delete target['x-error-codes'];
    }
  }
  return doc;
}

function describeErrors(op: any, own: ErrorCode[]) {
  op.security = [{ bearer: [] }, { apiKey: [] }];
  for (const status of Object.keys(op.responses ?? {})) {
    if (Number(status) >= 400 || status === 'default') delete op.responses[status];
  }
  for (const [status, codes] of errorStatuses(own)) {
    op.responses[status] = {
      description: codes.map((c) => `\`${c}\`: ${ERROR_TABLE[c].description}`).join('\n\n'),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
}

/** Errors every keyed operation can answer, plus the operation's own. */
function errorStatuses(own: ErrorCode[]): [string, ErrorCode[]][] {
  const codes = new Set<ErrorCode>(['INVALID_REQUEST', 'INVALID_API_KEY', 'RATE_LIMITED', 'SERVICE_BUSY', 'INTERNAL_ERROR']);
  for (const c of own) codes.add(c);
  const byStatus = new Map<string, ErrorCode[]>();
  for (const c of codes) {
    const s = String(ERROR_TABLE[c].status);
    byStatus.set(s, [...(byStatus.get(s) ?? []), c]);
  }
  return [...byStatus.entries()].sort();
}
