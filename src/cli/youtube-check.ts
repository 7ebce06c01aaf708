// `youtube check [videoId...]`: the canary run once, now, from this machine: every client of every chain asked for
// what the service asks it (info, tracks and a caption file; a stream URL), one row each.
import type { Sql } from '../../db/client.ts';
import type { Config } from '../config.ts';
import { createEgressStore } from '../infra/postgres/youtube-egress.ts';
import { checkPoTokenProvider, createPoTokenProvider } from '../infra/youtube/po-token/create-provider.ts';
import { youtubeSourceOptions } from '../infra/youtube/source-options.ts';
import { runYoutubeCanary, type CanaryRun } from '../infra/youtube/youtube-canary.ts';
import type { Io } from './io.ts';
import { formatTable } from './format-table.ts';

export async function checkYoutube(sql: Sql, config: Config, videoIds: string[]): Promise<CanaryRun> {
  const poTokens = createPoTokenProvider(config);
  // A provider too old to mint tokens YouTube accepts is said first, not as every web client's no_token.
  await checkPoTokenProvider(poTokens, { info: () => {}, warn: () => {} });
  const options = youtubeSourceOptions(config, {
    poTokens,
    // Paced and counted like the service's own requests: the check spends the same budgets.
    egress: {
      store: createEgressStore(sql),
      budgetPerHour: config.YOUTUBE_REQUESTS_PER_HOUR,
      cooldownBaseSeconds: config.YOUTUBE_COOLDOWN_SECONDS,
      cooldownMaxSeconds: config.YOUTUBE_COOLDOWN_MAX_SECONDS,
    },
  });
  try {
    return await runYoutubeCanary(options, videoIds);
  } finally {
    await poTokens?.close?.();
  }
}

export function printYoutubeCheck(run: CanaryRun, io: Io) {
  const failed = run.checks.filter((c) => !c.ok).length;
  if (io.json) io.out(JSON.stringify(run, null, 2));
  else
    io.out(
      [
        formatTable(
          run.checks,
          [
            ['VIDEO', (c) => c.videoId],
            ['CLIENT', (c) => c.client],
            ['PURPOSE', (c) => c.purpose],
            ['OUTCOME', (c) => c.outcome],
            ['LATENCY', (c) => `${c.latencyMs} ms`],
            ['PO TOKEN', (c) => c.tokenPath ?? '-'],
            ['DETAIL', (c) => c.detail],
          ],
          '  no clients to check',
        ),
        '',
        failed ? `${failed} of ${run.checks.length} checks failed.` : `All ${run.checks.length} checks passed.`,
      ].join('\n'),
    );
  // A red canary is a failed command, so a cron job or a deploy step can act on it.
  if (failed) process.exitCode = 1;
}
