// A finished job links what it made, as the tool that started it would have.
import type { JobWithResult } from '../../domain/jobs/get-job.ts';
import type { McpLink } from '../mcp-projection.ts';
import { articleLink } from './articles.ts';
import { transcriptLinks, translationLinks } from './transcripts.ts';

export function jobLinks(job: JobWithResult): McpLink[] {
  const r = job.result;
  if (r?.transcript) return transcriptLinks(r.transcript);
  if (r?.translation) return translationLinks({ translation: r.translation });
  return r?.article ? [articleLink(r.article)] : [];
}
