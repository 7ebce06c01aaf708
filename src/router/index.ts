import { getCreditsProcedure } from './credits/get.ts';
import { getSubtitles } from './subtitles/get.ts';
import { router } from './trpc.ts';
import { getVideoInfoProcedure } from './videos/get-info.ts';
import { listTracksProcedure } from './videos/list-tracks.ts';

/** The single source of procedures: REST, tRPC and MCP are projections of this router. */
export const appRouter = router({
  subtitles: router({ get: getSubtitles }),
  videos: router({ info: getVideoInfoProcedure, tracks: listTracksProcedure }),
  credits: router({ get: getCreditsProcedure }),
});

export type AppRouter = typeof appRouter;
