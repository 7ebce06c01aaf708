import { z } from 'zod';
import { ERROR_CODES } from '../errors.ts';

export const JobStatus = z
  .enum(['queued', 'running', 'succeeded', 'failed'])
  .describe(
    'queued: waiting for capacity; running: in progress; succeeded: the result is ready; failed: see error (nothing was charged)',
  );
export type JobStatus = z.infer<typeof JobStatus>;

export const JobKind = z.enum(['translation', 'summary', 'transcription']).describe('transcription: speech-to-text');
export type JobKind = z.infer<typeof JobKind>;

export const JobError = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
});
export type JobError = z.infer<typeof JobError>;

/** Long work a caller can poll (GET /api/v1/jobs/{id}, MCP get_job). Only the account that asked can see it. */
export const JobResource = z.object({
  id: z.string().describe('job_...'),
  kind: JobKind,
  status: JobStatus,
  progress: z
    .number()
    .min(0)
    .max(1)
    .describe('0..1; 1 once succeeded. For transcription: the share of the audio decoded and transcribed'),
  error: JobError.optional().describe('Present when status is failed'),
  creditsCharged: z.number().int().describe('Credits this job cost; charged only when it succeeds'),
  createdAt: z.string().describe('ISO 8601 date-time'),
  updatedAt: z.string().describe('ISO 8601 date-time'),
});
export type JobResource = z.infer<typeof JobResource>;

export const isFinal = (s: JobStatus) => s === 'succeeded' || s === 'failed';
