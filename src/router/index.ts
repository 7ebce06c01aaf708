import { getCreditsProcedure } from './credits/get.ts';
import { getArticleProcedure } from './articles/get.ts';
import { searchArticlesProcedure } from './articles/search.ts';
import { getJobProcedure } from './jobs/get.ts';
import { createSummary } from './summaries/create.ts';
import { translateTranscript } from './transcripts/translate.ts';
import { captureFramesProcedure } from './frames/capture.ts';
import { getFrameProcedure } from './frames/get-one.ts';
import { getSubtitles } from './subtitles/get.ts';
import { router } from './trpc.ts';
import { getVideoInfoProcedure } from './videos/get-info.ts';
import { listTracksProcedure } from './videos/list-tracks.ts';

/** The single source of procedures: REST, tRPC and MCP are projections of this router. */
export const appRouter = router({
  subtitles: router({ get: getSubtitles }),
  videos: router({ info: getVideoInfoProcedure, tracks: listTracksProcedure }),
  frames: router({ capture: captureFramesProcedure, get: getFrameProcedure }),
  credits: router({ get: getCreditsProcedure }),
  transcripts: router({ translate: translateTranscript }),
  summaries: router({ create: createSummary }),
  articles: router({ search: searchArticlesProcedure, get: getArticleProcedure }),
  jobs: router({ get: getJobProcedure }),
});

export type AppRouter = typeof appRouter;
