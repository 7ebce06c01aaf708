// The raw InnerTube player response, typed only as far as we read it, and the shapes it arrives in.
export interface Text {
  simpleText?: string;
  runs?: { text?: string }[];
}

export interface RawPlayerResponse {
  playabilityStatus?: {
    status?: string;
    reason?: string;
    messages?: string[];
    desktopLegacyAgeGateReason?: number;
    liveStreamability?: unknown;
    errorScreen?: {
      playerErrorMessageRenderer?: { reason?: Text; subreason?: Text };
      playerLegacyDesktopYpcOfferRenderer?: unknown;
      ypcTrailerRenderer?: unknown;
      playerKavRenderer?: unknown;
      confirmDialogRenderer?: { title?: Text; dialogMessages?: Text[] };
    };
  };
  videoDetails?: {
    videoId?: string;
    isLive?: boolean;
    isUpcoming?: boolean;
    isPrivate?: boolean;
    lengthSeconds?: string;
  };
  microformat?: { playerMicroformatRenderer?: { publishDate?: string; uploadDate?: string; lengthSeconds?: string } };
  captions?: unknown;
  storyboards?: {
    playerStoryboardSpecRenderer?: { spec?: string };
    playerLiveStoryboardSpecRenderer?: { spec?: string };
  };
}

/**
 * Finds the player response in what an endpoint answered: plain (/player), wrapped as {"playerResponse": ...}
 * (reel_item_watch with $fields=playerResponse), or an array holding one element with playerResponse (the legacy
 * watch?pbj=1 response). Returns the input itself when it is none of these (e.g. the empty object {}).
 */
export function unwrapPlayerResponse(body: unknown): RawPlayerResponse {
  if (Array.isArray(body)) {
    const part = body.find(
      (x): x is { playerResponse: RawPlayerResponse } => isObject(x) && isObject(x.playerResponse),
    );
    return part?.playerResponse ?? {};
  }
  if (!isObject(body)) return {};
  if (isObject(body.playerResponse) && !('playabilityStatus' in body)) return body.playerResponse as RawPlayerResponse;
  return body as RawPlayerResponse;
}

export function textOf(t: Text | undefined): string {
  if (!t) return '';
  return t.simpleText ?? (t.runs ?? []).map((r) => r.text ?? '').join('');
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
