// What a player response says about a video, as one of our error codes. Pure, so every recorded response can be
// checked. "retryable" means the answer is about this client or this IP, not the video, so the next client may do
// better; anything else is YouTube's final word on the video and stops the client chain.
//
// Detection leans on structure where YouTube localises text (desktopLegacyAgeGateReason marks the age gate in any UI
// language; the YPC offer renderer marks paid content); English phrases cover the rest, since we ask in English.
import { ServiceError, type ErrorCode } from '../../domain/errors.ts';
import { textOf, type RawPlayerResponse } from './player-response.ts';

/** Why a client was refused, as counted per client and identity (see outcome-kinds.ts). */
type RefusalKind = 'bot_check' | 'sign_in' | 'unplayable' | 'video';

export type Playability =
  | { ok: true; live: boolean }
  | { ok: false; retryable: boolean; error: ServiceError; kind: RefusalKind };

const ok = (raw: RawPlayerResponse): Playability => ({ ok: true, live: raw.videoDetails?.isLive === true });
const fail = (code: ErrorCode, message: string, retryable = false, kind: RefusalKind = 'video'): Playability => ({
  ok: false,
  retryable,
  error: new ServiceError(code, message),
  kind,
});

const BOT_CHECK = /not a bot|unusual traffic|protect our community|automated queries/i;
const AGE = /confirm your age|age[- ]restricted|inappropriate for some users|age verification/i;
const PRIVATE = /\bprivate\b/i;
const MUSIC_PREMIUM = /music premium|youtube premium|premium members/i;
const PAID = /requires payment|purchase|rent(?:al)?\b|\bbuy\b/i;
const MEMBERS_PHRASE = /members-only|join this channel|channel membership|channel's members/i;
const MEMBER_WORD = /members?\b/i;
const LEVEL_OR_ONLY = /\b(?:level|only)/i;
// "member(s) … level|only" on one line, without /members?\b.*\b(?:level|only)/, which is quadratic.
const MEMBERS = {
  test: (text: string) =>
    MEMBERS_PHRASE.test(text) ||
    text.split(/[\n\r\u2028\u2029]/).some((line) => {
      const at = line.search(MEMBER_WORD);
      return at >= 0 && LEVEL_OR_ONLY.test(line.slice(at));
    }),
};
const REGION = /\bcountry\b|\bregion\b|your location/i;
// UNPLAYABLE answers that depend on the client asking, not the video (embedding off, client not served).
const CLIENT_SPECIFIC =
  /^this video is not available\.?$|playback on other websites|not available on this app|watch on (?:the )?(?:latest version of )?youtube/i;

type Status = NonNullable<RawPlayerResponse['playabilityStatus']>;

/** What YouTube said, as one text to match and as quotes for our messages. */
interface Wording {
  reason: string;
  all: string;
  says: (text: string) => string;
  saysAll: string;
}

export function classifyPlayability(raw: RawPlayerResponse): Playability {
  const status = raw.playabilityStatus;
  if (!status) {
    // A field-masked response ($fields=microformat,...) has metadata but no status; {} means no such video.
    if (raw.videoDetails || raw.microformat) return ok(raw);
    return fail('VIDEO_NOT_FOUND', 'Video not found: YouTube returned nothing for this id');
  }
  const w = wordingOf(status);
  const { reason, says, saysAll } = w;

  switch (status.status) {
    case 'OK':
      if (raw.videoDetails?.isUpcoming)
        return fail('VIDEO_UPCOMING', `This video is a scheduled live stream that has not started yet${says(reason)}`);
      return ok(raw);
    case 'ERROR':
      return fail('VIDEO_NOT_FOUND', `Video not found: it does not exist or has been removed${saysAll}`);
    case 'LIVE_STREAM_OFFLINE':
      if (raw.videoDetails?.isUpcoming || !raw.videoDetails?.lengthSeconds || raw.videoDetails.lengthSeconds === '0') {
        return fail('VIDEO_UPCOMING', `This video is a scheduled live stream that has not started yet${says(reason)}`);
      }
      return fail('VIDEO_UNPLAYABLE', `This live stream is offline${says(reason)}`);
    case 'AGE_CHECK_REQUIRED':
    case 'AGE_VERIFICATION_REQUIRED':
      return fail(
        'VIDEO_AGE_RESTRICTED',
        `This video is age-restricted and needs a signed-in, age-verified account${saysAll}`,
      );
    case 'LOGIN_REQUIRED':
      return loginRequired(raw, status, w);
    case 'UNPLAYABLE':
    case 'CONTENT_CHECK_REQUIRED':
      return unplayable(status, w);
    default:
      return fail(
        'EXTRACTION_FAILED',
        `YouTube answered with an unknown playability status "${status.status ?? ''}"${saysAll}`,
        true,
        'unplayable',
      );
  }
}

function wordingOf(status: Status): Wording {
  const screen = status.errorScreen;
  const reason = status.reason ?? textOf(screen?.playerErrorMessageRenderer?.reason) ?? '';
  const subreason = textOf(screen?.playerErrorMessageRenderer?.subreason);
  const all = [reason, subreason, ...(status.messages ?? []), textOf(screen?.confirmDialogRenderer?.title)].join(' | ');
  const says = (text: string) => (text ? ` (YouTube says: "${text}")` : '');
  const saysAll = says([reason, subreason].filter(Boolean).join(' — '));
  return { reason, all, says, saysAll };
}

function loginRequired(raw: RawPlayerResponse, status: Status, { reason, all, says, saysAll }: Wording): Playability {
  if (BOT_CHECK.test(all))
    return fail(
      'EXTRACTION_FAILED',
      `YouTube asked this server to prove it is not a bot${says(reason)}`,
      true,
      'bot_check',
    );
  if (status.desktopLegacyAgeGateReason !== undefined || AGE.test(all)) {
    return fail(
      'VIDEO_AGE_RESTRICTED',
      `This video is age-restricted and needs a signed-in, age-verified account${saysAll}`,
    );
  }
  if (raw.videoDetails?.isPrivate || PRIVATE.test(all))
    return fail('VIDEO_NOT_FOUND', `This video is private${saysAll}`);
  if (MEMBERS.test(all)) return fail('VIDEO_MEMBERS_ONLY', `This video is for channel members only${saysAll}`);
  // Sign-in demanded for no stated reason: usually this client or IP, so try another.
  return fail('EXTRACTION_FAILED', `YouTube required sign-in for this request${saysAll}`, true, 'sign_in');
}

function unplayable(status: Status, { reason, all, says, saysAll }: Wording): Playability {
  const screen = status.errorScreen;
  if (
    screen?.playerLegacyDesktopYpcOfferRenderer ||
    screen?.ypcTrailerRenderer ||
    MUSIC_PREMIUM.test(all) ||
    PAID.test(all)
  ) {
    return fail('VIDEO_PAID', `This video requires payment or a Premium subscription${saysAll}`);
  }
  if (MEMBERS.test(all)) return fail('VIDEO_MEMBERS_ONLY', `This video is for channel members only${saysAll}`);
  if (REGION.test(all))
    return fail('VIDEO_REGION_BLOCKED', `This video is not available in the server's region${saysAll}`);
  if (AGE.test(all)) return fail('VIDEO_AGE_RESTRICTED', `This video is age-restricted${saysAll}`);
  if (BOT_CHECK.test(all))
    return fail(
      'EXTRACTION_FAILED',
      `YouTube asked this server to prove it is not a bot${says(reason)}`,
      true,
      'bot_check',
    );
  return fail(
    'VIDEO_UNPLAYABLE',
    `This video cannot be played${saysAll}`,
    CLIENT_SPECIFIC.test(reason.trim()),
    'unplayable',
  );
}
