// Where each build of YouTube's player script lives (yt-dlp's table of `player_js_variant`s). Apart from
// player-scripts.ts so `youtube status` names the scripts without loading youtubei.js.
import type { PlayerVariant } from '../../domain/youtube/player-scripts.ts';

/** Under /s/player/<id>/: web is the build youtubei.js asks for; tv is yt-dlp's documented fallback. */
export const VARIANT_PATHS: Record<PlayerVariant, string> = {
  web: 'player_es6.vflset/en_US/base.js',
  tv: 'tv-player-ias.vflset/tv-player-ias.js',
};

/** The script URL of a build of a player. */
export function playerScriptUrl(playerId: string, variant: PlayerVariant): string {
  return `https://www.youtube.com/s/player/${playerId}/${VARIANT_PATHS[variant]}`;
}
