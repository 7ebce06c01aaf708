import type { Deps } from '../../deps.ts';
import type { ManageWatchPorts } from '../../domain/watches/manage-watches.ts';

/** The narrow ports the watch verbs use. */
export const watchPorts = (d: Deps): ManageWatchPorts => ({
  watches: d.watches,
  transport: d.webhookTransport,
  config: d.config,
});
