import { callerRequest } from '../context.ts';
import { listChannel } from '../../domain/listing/list-videos.ts';
import { ChannelPage, ListChannelInput } from '../../domain/listing/schemas.ts';
import { keyedProcedure } from '../trpc.ts';
import { listingPorts } from './listing-ports.ts';
import { listChannelMeta } from './channel.meta.ts';

export const listChannelProcedure = keyedProcedure
  .meta(listChannelMeta)
  .input(ListChannelInput)
  .output(ChannelPage)
  .query(({ ctx, input }) => listChannel(listingPorts(ctx.deps), callerRequest(ctx), input));
