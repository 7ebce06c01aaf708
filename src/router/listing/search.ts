import { callerRequest } from '../context.ts';
import { searchVideos } from '../../domain/listing/list-videos.ts';
import { SearchPage, SearchVideosInput } from '../../domain/listing/schemas.ts';
import { keyedProcedure } from '../trpc.ts';
import { listingPorts } from './listing-ports.ts';
import { searchVideosMeta } from './search.meta.ts';

export const searchVideosProcedure = keyedProcedure
  .meta(searchVideosMeta)
  .input(SearchVideosInput)
  .output(SearchPage)
  .query(({ ctx, input }) => searchVideos(listingPorts(ctx.deps), callerRequest(ctx), input));
