// YouTube's player script, web and TV builds, for tests of stream URL deciphering. No player script is recorded in
// ../shared/fixtures/youtube (SOURCES.md lists none; they are 1-3 MB each), so these are CRAFTED: a few lines in the
// shape youtubei.js 18's extractor looks for in a real base.js (its nsigMatcher and timestampMatcher: the player's
// IIFE over `g`, a URL class with get/set/clone, a function `(url, sp = "", s = "")` that wraps the URL and sets
// alr=yes, and an object with `signatureTimestamp`). The player id is the recorded one of
// watch-page.captions.GJLlxj_dtq8.html's jsUrl; the iframe API answer is its documented first statement around it.
import { readShared } from './fixture-files.ts';
import type { Route } from './video-server.ts';

/** How a crafted build's `n` function behaves. */
export type ScriptBehaviour =
  /** reverses the signature, and turns `n` into reverse(n) + "_<build>" */
  | 'works'
  /** throws inside the n function (a player update the extractor no longer follows) */
  | 'throws'
  /** answers YouTube's error marker for `n` (what a real player's n function does when it fails inside) */
  | 'marks-error'
  /** answers `n` as it was (a transform that no longer transforms) */
  | 'leaves-n';

/** The recorded player id (watch-page.captions.GJLlxj_dtq8.html: "jsUrl":"/s/player/<id>/player_ias..."). */
export const RECORDED_PLAYER_ID = /"jsUrl":"\/s\/player\/([\w-]+)\//.exec(
  readShared('watch-page.captions.GJLlxj_dtq8.html'),
)![1]!;

export function craftedPlayerScript(behaviour: ScriptBehaviour, build: string): string {
  const n = {
    works: `return a.split("").reverse().join("")+"_${build}"`,
    throws: 'return a.split("").reverse().join("")+null.x',
    'marks-error': 'return "enhanced_except_AAAA_"+a',
    'leaves-n': 'return a',
  }[behaviour];
  return `var _yt_player={};(function(g){var window=this;
var Wn=function(a){${n}};
var Sg=function(a){return a.split("").reverse().join("")};
g.Qx=class{constructor(a){this.params={};this.base=a.split("?")[0];for(var b=(a.split("?")[1]||"").split("&"),c=0;c<b.length;c++){var d=b[c].split("=");d[0]&&(this.params[d[0]]=d[1]||"")}}get(a){return this.params[a]}set(a,b){this.params[a]=b}clone(){return new g.Qx(this.toString())}toString(){var a=[],b;for(b in this.params)a.push(b+"="+this.params[b]);return this.base+"?"+a.join("&")}Ns(){var a=this.params.n;a&&(this.params.n=encodeURIComponent(Wn(decodeURIComponent(a))))}};
var Ay=function(a,b="",c=""){a=new g.Qx(a);a.set("alr","yes");c&&a.set(b||"signature",encodeURIComponent(Sg(decodeURIComponent(c))));return a};
var Ts=function(){return{signatureTimestamp:20424,cpn:1}};g.Ts=Ts;
})(_yt_player);
`;
}

/** https://www.youtube.com/iframe_api's first statement, which names the current player id. */
export function iframeApi(playerId = RECORDED_PLAYER_ID): string {
  return `var scriptUrl = 'https:\\/\\/www.youtube.com\\/s\\/player\\/${playerId}\\/www-widgetapi.vflset\\/www-widgetapi.js';try{var ttPolicy=window.trustedTypes.createPolicy("youtube-widget-api",{createScriptURL:function(x){return x}});scriptUrl=ttPolicy.createScriptURL(scriptUrl)}catch(e){}`;
}

export const WEB_SCRIPT_PATH = `/s/player/${RECORDED_PLAYER_ID}/player_es6.vflset/en_US/base.js`;
export const TV_SCRIPT_PATH = `/s/player/${RECORDED_PLAYER_ID}/tv-player-ias.vflset/tv-player-ias.js`;

/** The iframe API and both builds as video-server routes; `set` changes how each build behaves from then on. */
export function playerScriptRoutes(initial: { web: ScriptBehaviour; tv: ScriptBehaviour }) {
  let current = { ...initial };
  const text = (body: () => string): Route => ({
    handle: (_req, res, served) => {
      served.status = 200;
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(body());
    },
  });
  return {
    routes: {
      '/iframe_api': text(() => iframeApi()),
      [WEB_SCRIPT_PATH]: text(() => craftedPlayerScript(current.web, 'web')),
      [TV_SCRIPT_PATH]: text(() => craftedPlayerScript(current.tv, 'tv')),
    } as Record<string, Route>,
    set(next: { web: ScriptBehaviour; tv: ScriptBehaviour }) {
      current = { ...next };
    },
  };
}

/** The iframe API and both builds for a fake-youtube `other` route (null for any other path). */
export function playerScriptAnswer(url: URL, scripts: { web: ScriptBehaviour; tv: ScriptBehaviour }): string | null {
  if (url.pathname.endsWith('/iframe_api')) return iframeApi();
  if (url.pathname.endsWith(WEB_SCRIPT_PATH)) return craftedPlayerScript(scripts.web, 'web');
  if (url.pathname.endsWith(TV_SCRIPT_PATH)) return craftedPlayerScript(scripts.tv, 'tv');
  return null;
}
