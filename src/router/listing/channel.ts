import { callerRequest } from '../context.ts';
import { listChannel } from '../../domain/listing/list-videos.ts';
import { ChannelPage, ListChannelInput } from '../../domain/listing/schemas.ts';
import { keyedProcedure } from '../trpc.ts';
import { listingDeps } from './listing-deps.ts';
import { listChannelMeta } from './channel.meta.ts';

export const listChannelProcedure = keyedProcedure
  .meta(listChannelMeta)
  .input(ListChannelInput)
  .output(ChannelPage)
  .query(({ ctx, input }) => listChannel(listingDeps(ctx.deps), callerRequest(ctx), input));
