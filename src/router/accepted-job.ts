import type { Context } from './context.ts';

/** Work that outlived the request's wait answers 202 with the job to poll (REST: and its Location). */
export function acceptedUnlessDone<T extends { status: string; job: { id: string } }>(ctx: Context, out: T): T {
  if (out.status !== 'succeeded') {
    ctx.out.status = 202;
    ctx.out.location = `/api/v1/jobs/${out.job.id}`;
  }
  return out;
}
