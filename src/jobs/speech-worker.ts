import type { Deps } from '../deps.ts';
import { runSpeechJob } from '../domain/speech/speech-job.ts';
import { SpeechPayload } from './payloads.ts';
import { callerJobHandler } from './caller-job-handler.ts';

/**
 * The `speech` queue's handler. As for the LLM queue, a ServiceError is final (YouTube refusing the stream, the
 * engine failing after its own timeout, audio too long); anything else is retried once (see callerJobHandler).
 */
export const speechHandler = (deps: Deps) =>
  callerJobHandler(
    deps,
    (data) => SpeechPayload.parse(data),
    (job) => runSpeechJob(deps, job),
    {
      code: 'EXTRACTION_FAILED',
      message: 'Speech-to-text failed; nothing was charged',
    },
  );
