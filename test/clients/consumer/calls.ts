// What a TypeScript frontend writes against the packed client: typed calls over tRPC and REST, run against a live
// service. Prints what it saw as one JSON line for the test to check.
import { createSubtextClient, createSubtextRestClient, isSubtextError, type RouterOutputs } from '@subtext/client';

const [url, key, videoId] = process.argv.slice(2) as [string, string, string];
const api = createSubtextClient({ url, key });
const rest = createSubtextRestClient({ url, key });

const credits: RouterOutputs['credits']['get'] = await api.credits.get.query({});

// The first call extracts the captions (charged); the REST call after it is answered from the stored transcript.
const viaTrpc = await api.subtitles.get.mutate({ videoId, format: 'text' });
if (viaTrpc.status !== 'succeeded') throw new Error(`expected a transcript, got ${viaTrpc.status}`);
const viaRest = await rest.POST('/subtitles', { body: { videoId, format: 'vtt', limit: 2 } });
if (viaRest.data?.status !== 'succeeded') throw new Error(`REST: ${JSON.stringify(viaRest.error)}`);

const info = await rest.GET('/videos/{videoId}', { params: { path: { videoId } } });

let trpcError: string | undefined;
try {
  await api.jobs.get.query({ id: 'job_00000000000000000000000000' });
} catch (error) {
  if (!isSubtextError(error)) throw error;
  trpcError = error.data?.code;
}
const restError = await rest.GET('/jobs/{id}', { params: { path: { id: 'job_00000000000000000000000000' } } });
const after = await rest.GET('/credits');

console.log(
  JSON.stringify({
    balanceBefore: credits.balance,
    trpc: {
      source: viaTrpc.source,
      segmentCount: viaTrpc.segmentCount,
      first: viaTrpc.segments[0],
      cached: viaTrpc.cached,
      charged: viaTrpc.creditsCharged,
      content: viaTrpc.content?.slice(0, 200),
    },
    rest: {
      status: viaRest.response.status,
      segmentCount: viaRest.data.segmentCount,
      segments: viaRest.data.segments.length,
      nextOffset: viaRest.data.nextOffset,
      cached: viaRest.data.cached,
      charged: viaRest.data.creditsCharged,
      vttStart: viaRest.data.content?.slice(0, 6),
    },
    title: info.data?.title,
    trpcError,
    restError: { status: restError.response.status, code: restError.error?.error.code },
    balanceAfter: after.data?.balance,
  }),
);
