import type { Deps } from '../deps.ts';
import { runExtractJob } from '../domain/transcripts/extract-job.ts';
import { ExtractPayload } from './payloads.ts';

/** The extraction queue's handler (src/domain/transcripts/extract-job.ts does the work). */
export function extractHandler(deps: Deps) {
  return (data: unknown) => runExtractJob(deps, ExtractPayload.parse(data));
}
