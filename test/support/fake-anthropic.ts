// A loopback server speaking the subset of the Anthropic Messages API that the SDK's `messages.create` uses:
// POST /v1/messages -> a Message ({ id, type: 'message', role, model, content, stop_reason, usage }) or an error
// body ({ type: 'error', error: { type, message } }). Structured output (output_config.format json_schema) comes
// back, as from the real API, as one text block holding the JSON.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeMessagesRequest {
  model: string;
  max_tokens: number;
  system?: string | Array<{ type: 'text'; text: string }>;
  messages: Array<{ role: 'user' | 'assistant'; content: string | Array<{ type: string; text?: string }> }>;
  output_config?: { format?: { type: string; schema?: unknown } };
  [key: string]: unknown;
}

export type FakeReply =
  /** A successful message whose single text block is `JSON.stringify(json)`. */
  | { json: unknown; stopReason?: string; usage?: { input_tokens: number; output_tokens: number } }
  /** A successful message with raw text (e.g. malformed JSON). */
  | { text: string; stopReason?: string; usage?: { input_tokens: number; output_tokens: number } }
  /** An API error: 429 rate_limit_error, 529 overloaded_error, 500 api_error... */
  | { status: number; retryAfter?: number; errorType?: string; message?: string }
  /** Answer `reply` after `delayMs` (slow upstream). */
  | { delayMs: number; reply: FakeReply };

interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: FakeMessagesRequest;
}

export type FakeHandler = (req: FakeMessagesRequest, n: number) => FakeReply | Promise<FakeReply>;

export interface FakeAnthropic {
  /** Pass as the SDK's baseURL. */
  url: string;
  requests: RecordedRequest[];
  /** Replies used, in order, before falling back to the handler. */
  enqueue(...replies: FakeReply[]): void;
  setHandler(handler: FakeHandler): void;
  close(): Promise<void>;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/** Text of the last user message, whatever form the SDK sent it in. */
export function userText(req: FakeMessagesRequest): string {
  const last = req.messages.at(-1);
  if (!last) return '';
  return typeof last.content === 'string' ? last.content : last.content.map((b) => b.text ?? '').join('');
}

export async function startFakeAnthropic(handler?: FakeHandler): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = [];
  const queued: FakeReply[] = [];
  let current: FakeHandler = handler ?? (() => ({ status: 500, message: 'no handler set' }));
  let seq = 0;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (res.destroyed) return; // the client gave up (timeout): nothing to answer
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_fake_${seq}`, ...headers });
    res.end(JSON.stringify(body));
  };

  const answer = async (res: ServerResponse, req: FakeMessagesRequest, reply: FakeReply): Promise<void> => {
    if ('delayMs' in reply) {
      await new Promise((r) => setTimeout(r, reply.delayMs));
      return answer(res, req, reply.reply);
    }
    if ('status' in reply) {
      const headers: Record<string, string> = {};
      if (reply.retryAfter !== undefined) headers['retry-after'] = String(reply.retryAfter);
      const type = reply.errorType ?? ERROR_TYPES[reply.status] ?? 'api_error';
      send(res, reply.status, { type: 'error', error: { type, message: reply.message ?? type } }, headers);
      return;
    }
    const text = 'json' in reply ? JSON.stringify(reply.json) : reply.text;
    send(res, 200, {
      id: `msg_fake_${seq}`,
      type: 'message',
      role: 'assistant',
      model: req.model,
      content: [{ type: 'text', text, citations: null }],
      stop_reason: reply.stopReason ?? 'end_turn',
      stop_sequence: null,
      usage: reply.usage ?? {
        input_tokens: Math.ceil(userText(req).length / 4),
        output_tokens: Math.ceil(text.length / 4),
      },
    });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (req.method !== 'POST' || path !== '/v1/messages') {
        send(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'Not found' } });
        return;
      }
      let body: FakeMessagesRequest;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeMessagesRequest;
      } catch {
        send(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'bad JSON' } });
        return;
      }
      const n = seq++;
      requests.push({ method: req.method, path, headers: req.headers, body });
      Promise.resolve(queued.shift() ?? current(body, n))
        .then((reply) => answer(res, body, reply))
        .catch((e: unknown) => send(res, 500, { type: 'error', error: { type: 'api_error', message: String(e) } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...replies) => void queued.push(...replies),
    setHandler: (h) => void (current = h),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
