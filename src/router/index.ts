import { getCreditsProcedure } from './credits/get.ts';
import { creditHistoryProcedure } from './credits/history.ts';
import { getArticleProcedure } from './articles/get.ts';
import { searchArticlesProcedure } from './articles/search.ts';
import { getJobProcedure } from './jobs/get.ts';
import { createArticleProcedure } from './articles/create.ts';
import { translateTranscriptProcedure } from './transcripts/translate.ts';
import { captureFramesProcedure } from './frames/capture.ts';
import { getFrameProcedure } from './frames/get-one.ts';
import { getTranscriptProcedure } from './transcripts/get.ts';
import { router } from './trpc.ts';
import { listChannelProcedure } from './listing/channel.ts';
import { listPlaylistProcedure } from './listing/playlist.ts';
import { searchVideosProcedure } from './listing/search.ts';
import { cancelBatchProcedure } from './batches/cancel.ts';
import { createBatchProcedure } from './batches/create.ts';
import { getBatchProcedure } from './batches/get.ts';
import { resendWebhookProcedure } from './webhooks/resend.ts';
import { rotateWebhookSecretProcedure, webhookSettingsProcedure } from './webhooks/settings.ts';
import { meProcedure } from './account/me.ts';
import { signInProcedure } from './account/sign-in.ts';
import { signOutProcedure } from './account/sign-out.ts';
import { signUpModeProcedure } from './account/sign-up-mode.ts';
import { signUpProcedure } from './account/sign-up.ts';
import { createKeyProcedure } from './keys/create.ts';
import { listKeysProcedure } from './keys/list.ts';
import { revokeKeyProcedure } from './keys/revoke.ts';
import { listConnectionsProcedure } from './connections/list.ts';
import { revokeConnectionProcedure } from './connections/revoke.ts';
import { usageSummaryProcedure } from './usage/summary.ts';
import { getVideoChaptersProcedure } from './videos/get-chapters.ts';
import { getVideoInfoProcedure } from './videos/get-info.ts';
import { listTracksProcedure } from './videos/list-tracks.ts';
import { createWatchProcedure } from './watches/create.ts';
import { deleteWatchProcedure } from './watches/delete.ts';
import { getWatchProcedure } from './watches/get.ts';
import { listWatchesProcedure } from './watches/list.ts';

/** The single source of procedures: REST, tRPC and MCP are projections of this router. */
export const appRouter = router({
  subtitles: router({ get: getTranscriptProcedure }),
  videos: router({ info: getVideoInfoProcedure, tracks: listTracksProcedure, chapters: getVideoChaptersProcedure }),
  frames: router({ capture: captureFramesProcedure, get: getFrameProcedure }),
  credits: router({ get: getCreditsProcedure, history: creditHistoryProcedure }),
  transcripts: router({ translate: translateTranscriptProcedure }),
  summaries: router({ create: createArticleProcedure }),
  articles: router({ search: searchArticlesProcedure, get: getArticleProcedure }),
  jobs: router({ get: getJobProcedure }),
  listing: router({ playlist: listPlaylistProcedure, channel: listChannelProcedure, search: searchVideosProcedure }),
  batches: router({ create: createBatchProcedure, get: getBatchProcedure, cancel: cancelBatchProcedure }),
  watches: router({
    create: createWatchProcedure,
    list: listWatchesProcedure,
    get: getWatchProcedure,
    delete: deleteWatchProcedure,
  }),
  // The website's own procedures: tRPC only (no REST route, no MCP tool), authenticated by the session cookie.
  account: router({
    signUp: signUpProcedure,
    signUpMode: signUpModeProcedure,
    signIn: signInProcedure,
    signOut: signOutProcedure,
    me: meProcedure,
  }),
  keys: router({ create: createKeyProcedure, list: listKeysProcedure, revoke: revokeKeyProcedure }),
  connections: router({ list: listConnectionsProcedure, revoke: revokeConnectionProcedure }),
  usage: router({ summary: usageSummaryProcedure }),
  webhooks: router({
    settings: webhookSettingsProcedure,
    rotateSecret: rotateWebhookSecretProcedure,
    resend: resendWebhookProcedure,
  }),
});

export type AppRouter = typeof appRouter;
