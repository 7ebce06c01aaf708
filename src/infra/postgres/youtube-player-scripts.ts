// The player scripts (id and variant) the service deciphered stream URLs with, and when each last worked or failed.
import type { Sql } from '../../../db/client.ts';
import type { PlayerScriptRow, PlayerScriptStore, PlayerVariant } from '../../domain/youtube/player-scripts.ts';

export function createPlayerScriptStore(sql: Sql): PlayerScriptStore {
  return {
    async record({ variant, playerId, outcome, error }) {
      const ok = outcome === 'ok';
      await sql`
        insert into youtube_player_scripts (variant, player_id, last_ok, last_failed, last_error)
        values (${variant}, ${playerId}, case when ${ok} then now() end, case when ${ok} then null else now() end,
          ${ok ? null : (error ?? null)})
        on conflict (variant, player_id) do update set
          last_ok = coalesce(excluded.last_ok, youtube_player_scripts.last_ok),
          last_failed = coalesce(excluded.last_failed, youtube_player_scripts.last_failed),
          last_error = coalesce(excluded.last_error, youtube_player_scripts.last_error)`;
    },
    async latest(): Promise<PlayerScriptRow[]> {
      const rows = await sql<
        {
          variant: PlayerVariant;
          player_id: string;
          first_used: Date;
          last_ok: Date | null;
          last_failed: Date | null;
          last_error: string | null;
        }[]
      >`
        select distinct on (variant) variant, player_id, first_used, last_ok, last_failed, last_error
        from youtube_player_scripts
        order by variant, greatest(first_used, last_ok, last_failed) desc`;
      return rows.map((r) => ({
        variant: r.variant,
        playerId: r.player_id,
        firstUsed: r.first_used,
        lastOk: r.last_ok,
        lastFailed: r.last_failed,
        lastError: r.last_error,
      }));
    },
  };
}
