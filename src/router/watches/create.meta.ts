// The meta of create.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { watchText } from '../mcp-text/watches.ts';
import type { Meta } from '../trpc.ts';

export const createWatchMeta: Meta = {
  openapi: {
    method: 'POST',
    path: '/watches',
    tags: ['watches'],
    summary: 'Watch a channel, a playlist or a search for new videos',
    description:
      'Give exactly one of `channel` (url or channelId, tab), `playlist` (url or playlistId) or `search` (query). Every `intervalSeconds` the service records each new video (`watch.video_published` to `callbackUrl`) and, with `transcripts: true`, fetches its transcript (`watch.transcript_ready`), charged as POST /subtitles. ' +
      'Creating, reading and the checks are free.',
  },
  mcp: {
    name: 'watch_channel',
    description:
      'Watch a YouTube channel, playlist or search for new uploads. Args: exactly one of channel {url|channelId, tab}, playlist {url|playlistId} or search {query}; optional intervalSeconds, transcripts (fetch each new video’s transcript, charged per video), lang, callbackUrl (signed watch.* webhooks). Free to create; see list_watches.',
    openWorld: true,
    text: watchText,
  },
  errors: [],
};
