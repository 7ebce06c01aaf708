/** What every Hono app of ours carries per request: the id set first by the request-id middleware. */
export type HttpEnv = { Variables: { requestId: string } };
