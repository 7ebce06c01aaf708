import createClient, {
  type Client,
  type ClientPathsWithMethod,
  type FetchResponse,
  type MaybeOptionalInit,
} from 'openapi-fetch';
import type { paths } from './generated/rest-api.js';
import { authorization, endpoint, type SubtextClientOptions } from './options.js';

export type { components, operations, paths } from './generated/rest-api.js';

type Prop<T, K extends PropertyKey> = T extends { [P in K]?: infer V } ? V : never;
/** The keys of `T` that `Allowed` lacks, each typed `never`. */
type Unknown<T, Allowed> = { [K in Exclude<keyof T, keyof Allowed>]: never };
/**
 * openapi-fetch infers the init argument, so a misspelt body or query field slips through
 * (openapi-ts/openapi-typescript#1769). Intersected with the argument, this makes each such field `never`.
 */
type NoUnknownFields<Init, Allowed> = {
  body?: Unknown<Prop<Init, 'body'>, Prop<Allowed, 'body'>>;
  params?: { query?: Unknown<Prop<Prop<Init, 'params'>, 'query'>, Prop<Prop<Allowed, 'params'>, 'query'>> };
};

type Method<M extends 'get' | 'post'> = <
  P extends ClientPathsWithMethod<Client<paths>, M>,
  Init extends MaybeOptionalInit<paths[P], M>,
>(
  url: P,
  ...init: undefined extends MaybeOptionalInit<paths[P], M>
    ? [(Init & NoUnknownFields<Init, NonNullable<MaybeOptionalInit<paths[P], M>>>)?]
    : [Init & NoUnknownFields<Init, MaybeOptionalInit<paths[P], M>>]
) => Promise<FetchResponse<NonNullable<paths[P][M]>, Init, `${string}/${string}`>>;

/** openapi-fetch's client for `/api/v1` (the service answers GET and POST only), with unknown fields refused. */
export type SubtextRestClient = Omit<Client<paths>, 'GET' | 'POST'> & { GET: Method<'get'>; POST: Method<'post'> };

/**
 * A typed REST client for `/api/v1` (openapi-fetch over the service's OpenAPI document):
 * `const { data, error } = await rest.POST('/subtitles', { body: { videoId } })`. `error` is the service's
 * `{ error: { code, message } }` body when the answer is not 2xx.
 */
export function createSubtextRestClient(options: SubtextClientOptions): SubtextRestClient {
  const { fetch } = options;
  const client = createClient<paths>({
    baseUrl: endpoint(options.url, '/api/v1'),
    fetch: fetch && ((request: Request) => fetch(request)),
  });
  const headers = authorization(options);
  client.use({
    async onRequest({ request }) {
      request.headers.set('authorization', (await headers()).authorization);
      return request;
    },
  });
  return client as SubtextRestClient;
}
