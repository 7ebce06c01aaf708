// The web-then-TV order of player-scripts.ts on its own: a recorded signatureCipher (player.web.no-captions.
// iuevw6218F0.json) deciphered with CRAFTED player scripts (none is recorded; test/support/crafted-player-scripts.ts).
import { describe, expect, it } from 'vitest';
import {
  craftedPlayerScript,
  iframeApi,
  RECORDED_PLAYER_ID,
  TV_SCRIPT_PATH,
  WEB_SCRIPT_PATH,
  type ScriptBehaviour,
} from '../../../test/support/crafted-player-scripts.ts';
import { readShared, sharedAvailable } from '../../../test/support/fixture-files.ts';
import type { PlayerScriptUse } from '../../domain/youtube/player-scripts.ts';
import { PlayerScripts } from './player-scripts.ts';

function stand(scripts: { web: ScriptBehaviour; tv: ScriptBehaviour }, playerId = () => RECORDED_PLAYER_ID) {
  const paths: string[] = [];
  const fetchImpl = (async (input: string | URL | Request) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    paths.push(url.pathname);
    if (url.pathname === '/iframe_api') return new Response(iframeApi(playerId()));
    const web = url.pathname.endsWith('/player_es6.vflset/en_US/base.js');
    const tv = url.pathname.endsWith('/tv-player-ias.vflset/tv-player-ias.js');
    if (!web && !tv) return new Response('not found', { status: 404 });
    return new Response(craftedPlayerScript(web ? scripts.web : scripts.tv, web ? 'web' : 'tv'));
  }) as typeof fetch;
  return { fetchImpl, paths };
}

/** The first ciphered format of the recorded answer, as far as PlayerScripts reads one. */
function cipheredFormat() {
  const raw = JSON.parse(readShared('player.web.no-captions.iuevw6218F0.json'));
  const cipher: string = raw.streamingData.adaptiveFormats[0].signatureCipher;
  return {
    signature_cipher: cipher,
    decipher: (player: { decipher(u?: string, c?: string): Promise<string> }) => player.decipher(undefined, cipher),
  } as never;
}

describe.skipIf(!sharedAvailable)('player scripts: web, then tv', () => {
  it('an n left unchanged by the web build is a failure; the TV build deciphers, and is asked first next time', async () => {
    const { fetchImpl, paths } = stand({ web: 'leaves-n', tv: 'works' });
    const uses: PlayerScriptUse[] = [];
    const scripts = new PlayerScripts({ fetch: fetchImpl, onUse: (u) => uses.push(u) });
    const url = new URL(await scripts.decipher(cipheredFormat()));
    expect(url.searchParams.get('n')).toMatch(/_tv$/);
    expect(url.searchParams.get('sig')).toBeTruthy();
    expect(uses.map((u) => [u.variant, u.outcome])).toEqual([
      ['web', 'failed'],
      ['tv', 'ok'],
    ]);
    expect(uses[0]!.error).toBe('the n function left n unchanged');
    await scripts.decipher(cipheredFormat());
    expect(uses.slice(2).map((u) => [u.variant, u.outcome])).toEqual([['tv', 'ok']]);
    expect(paths.filter((p) => p === WEB_SCRIPT_PATH || p === TV_SCRIPT_PATH)).toEqual([
      WEB_SCRIPT_PATH,
      TV_SCRIPT_PATH,
    ]);
  });

  it('a web build that works is the only one fetched', async () => {
    const { fetchImpl, paths } = stand({ web: 'works', tv: 'throws' });
    const url = new URL(await new PlayerScripts({ fetch: fetchImpl }).decipher(cipheredFormat()));
    expect(url.searchParams.get('n')).toMatch(/_web$/);
    expect(paths).not.toContain(TV_SCRIPT_PATH);
  });

  it('both failing is EXTRACTION_FAILED, and the player id is read again for the next URL', async () => {
    let id = RECORDED_PLAYER_ID;
    const { fetchImpl, paths } = stand({ web: 'throws', tv: 'leaves-n' }, () => id);
    const scripts = new PlayerScripts({ fetch: fetchImpl });
    await expect(scripts.decipher(cipheredFormat())).rejects.toMatchObject({
      code: 'EXTRACTION_FAILED',
      message: expect.stringMatching(/web script: .*; tv script: the n function left n unchanged/),
    });
    id = 'newer-01';
    await expect(scripts.decipher(cipheredFormat())).rejects.toMatchObject({
      message: expect.stringContaining('player newer-01'),
    });
    expect(paths.filter((p) => p === '/iframe_api')).toHaveLength(2);
  });

  it('the canary probe checks one build alone', async () => {
    const { fetchImpl } = stand({ web: 'marks-error', tv: 'works' });
    const scripts = new PlayerScripts({ fetch: fetchImpl });
    await expect(scripts.probe('web')).rejects.toThrow(/web script's n function threw \(enhanced_except_/);
    await expect(scripts.probe('tv')).resolves.toEqual({
      playerId: RECORDED_PLAYER_ID,
      url: `https://www.youtube.com${TV_SCRIPT_PATH}`,
    });
  });
});
