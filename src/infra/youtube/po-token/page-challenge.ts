// What the web player takes from the page it loads, for BotGuard: the page's ytcfg (visitor data, EVENT_ID: since
// July 2026 YouTube binds the attestation challenge to the page session and refuses tokens minted from the standalone
// challenge, Brainicism/bgutil-ytdlp-pot-provider#243, LuanRT/BgUtils#44) and the challenge itself, handed to
// `window.ytAtN({...})` in an inline script. As bgutils-js 4.0.3's examples/index-innertube.ts reads them.
import { parseLooseJSON } from 'bgutils-js/utils';
import { balancedObject } from '../watch-page.ts';

export interface PageChallenge {
  interpreterUrl?: string;
  interpreterJavascript?: string;
  program: string;
  globalName: string;
}

// A page sets its config in about five calls. Each call is read by a scan that may run to the page's end (an unclosed
// one does): a bounded number of them keeps the work linear in the page, whatever the page holds.
const MAX_YTCFG_CALLS = 32;

/** The page's `ytcfg.set({...})` calls (the first MAX_YTCFG_CALLS), merged in order. */
export function readYtcfg(html: string): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  const marker = /ytcfg\.set\(\s*\{/g;
  let calls = 0;
  for (let m = marker.exec(html); m && calls < MAX_YTCFG_CALLS; m = marker.exec(html), calls++) {
    const text = balancedObject(html, m.index + m[0].length - 1);
    if (!text) continue;
    try {
      Object.assign(config, JSON.parse(text));
    } catch {
      try {
        // A few calls are JavaScript object literals (single quotes, trailing commas), not JSON.
        Object.assign(config, parseLooseJSON(text));
      } catch {
        // not an object we can read; the next call may be
      }
    }
  }
  return config;
}

/** The visitor data the page's session runs with (what tokens minted on this page are bound to). */
export function visitorDataOf(ytcfg: Record<string, unknown>): string | undefined {
  const direct = ytcfg.VISITOR_DATA;
  if (typeof direct === 'string' && direct) return direct;
  const context = ytcfg.INNERTUBE_CONTEXT as { client?: { visitorData?: unknown } } | undefined;
  return typeof context?.client?.visitorData === 'string' ? context.client.visitorData : undefined;
}

/** The BotGuard challenge the page hands to `window.ytAtN(...)`, or undefined when the page has none. */
export function readPageChallenge(html: string): PageChallenge | undefined {
  // The object is read by brace matching, not a lazy pattern (polynomial on a page with many braces).
  const call = /window\.ytAtN\(\s*\{/.exec(html);
  const text = call ? balancedObject(html, call.index + call[0].length - 1) : undefined;
  if (!text) return undefined;
  let data: Record<string, unknown>;
  try {
    data = parseLooseJSON(text);
  } catch {
    return undefined;
  }
  const challenge = (data.R as { bgChallenge?: Record<string, unknown> } | undefined)?.bgChallenge;
  if (!challenge || typeof challenge.program !== 'string' || typeof challenge.globalName !== 'string') return undefined;
  const wrapped = (v: unknown, key: string) => {
    const inner = (v as Record<string, unknown> | undefined)?.[key];
    return typeof inner === 'string' && inner ? inner : undefined;
  };
  return {
    program: challenge.program,
    globalName: challenge.globalName,
    interpreterUrl: wrapped(challenge.interpreterUrl, 'privateDoNotAccessOrElseTrustedResourceUrlWrappedValue'),
    interpreterJavascript: wrapped(challenge.interpreterJavascript, 'privateDoNotAccessOrElseSafeScriptWrappedValue'),
  };
}
