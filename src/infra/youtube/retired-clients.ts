// Client versions YouTube has retired: /player answers HTTP 400 FAILED_PRECONDITION to a version it no longer
// serves (lavalink-devs/youtube-source#231: old ANDROID versions, August 2026). The chain moves on at once; the
// client is then skipped for an hour in this process (every video would cost a wasted request), said once in the
// log, and counted (`client_retired` attempts, `subtext_youtube_client_retired`). The cure is a newer version in
// client-identities.ts or YOUTUBE_CLIENT_VERSIONS.

export interface RetiredClients {
  /** Whether this client's version was refused as retired within the last hour. */
  has(client: string): boolean;
  mark(client: string, version: string | undefined): void;
}

const HOLD_MS = 3_600_000;

export function createRetiredClients(
  opts: {
    log?: { warn: (...a: unknown[]) => void };
    onRetired?: (client: string, version: string) => void;
    now?: () => number;
  } = {},
): RetiredClients {
  const now = opts.now ?? Date.now;
  const until = new Map<string, number>();
  const said = new Set<string>();
  return {
    has: (client) => (until.get(client) ?? 0) > now(),
    mark(client, version = 'unknown') {
      until.set(client, now() + HOLD_MS);
      opts.onRetired?.(client, version);
      const key = `${client} ${version}`;
      if (said.has(key)) return;
      said.add(key);
      opts.log?.warn(
        { client, version },
        `YouTube retired ${client} ${version} (HTTP 400 FAILED_PRECONDITION from /player): skipping it for an hour; set a newer version in YOUTUBE_CLIENT_VERSIONS`,
      );
    },
  };
}
