import { callerRequest } from '../context.ts';
import { listPlaylist } from '../../domain/listing/list-videos.ts';
import { ListPlaylistInput, PlaylistPage } from '../../domain/listing/schemas.ts';
import { keyedProcedure } from '../trpc.ts';
import { listingPorts } from './listing-ports.ts';
import { listPlaylistMeta } from './playlist.meta.ts';

export const listPlaylistProcedure = keyedProcedure
  .meta(listPlaylistMeta)
  .input(ListPlaylistInput)
  .output(PlaylistPage)
  .query(({ ctx, input }) => listPlaylist(listingPorts(ctx.deps), callerRequest(ctx), input));
