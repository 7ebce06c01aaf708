import { errorBody } from '../../router/error-table.ts';
import { failureHeaders, type AnswerContext, type Failure } from './failure.ts';

/** REST, the file routes and anything the HTTP layer answers itself: `{"error":{"code","message"}}`. */
export function restErrorResponse(f: Failure, a: AnswerContext, extra: Record<string, string> = {}): Response {
  const headers = failureHeaders(f, a);
  headers.set('content-type', 'application/json');
  for (const [k, v] of Object.entries(extra)) headers.set(k, v);
  return new Response(JSON.stringify(errorBody(f.code, f.message)), { status: f.status, headers });
}
