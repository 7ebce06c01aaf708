import type { AnswerContext } from './errors/failure.ts';

/** What an error answer needs from the request: its id and headers. */
export const answerOf = (c: { req: { raw: Request }; get(k: 'requestId'): string }): AnswerContext => ({
  requestId: c.get('requestId'),
  requestHeaders: c.req.raw.headers,
});
