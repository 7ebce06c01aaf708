"""youtube-transcript-api 1.x's exception hierarchy; each raised from one of the service's error codes, with the
service's message and request id inside."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import SubtextError

WATCH_URL = "https://www.youtube.com/watch?v={video_id}"


class YouTubeTranscriptApiException(Exception):
    pass


class CookieError(YouTubeTranscriptApiException):
    pass


class CookiePathInvalid(CookieError):
    pass


class CookieInvalid(CookieError):
    pass


class CouldNotRetrieveTranscript(YouTubeTranscriptApiException):
    """A transcript could not be retrieved; `cause` says why, `subtext_error` is the service's refusal."""

    CAUSE_MESSAGE = ""

    def __init__(self, video_id: str, subtext_error: SubtextError | None = None) -> None:
        self.video_id = video_id
        self.subtext_error = subtext_error
        super().__init__()

    @property
    def request_id(self) -> str | None:
        return self.subtext_error.request_id if self.subtext_error else None

    @property
    def cause(self) -> str:
        return self.CAUSE_MESSAGE

    def __str__(self) -> str:
        text = f"\nCould not retrieve a transcript for the video {WATCH_URL.format(video_id=self.video_id)}!"
        if self.cause:
            text += f" This is most likely caused by:\n\n{self.cause}"
        if self.subtext_error:
            e = self.subtext_error
            text += f"\n\nThe Subtext service answered {e.code} ({e.status}): {e.message}"
            if e.request_id:
                text += f"\nRequest id: {e.request_id} (quote it when reporting a problem to the operator)"
        return text


class YouTubeDataUnparsable(CouldNotRetrieveTranscript):
    CAUSE_MESSAGE = "The data required to fetch the transcript is not parsable."


class YouTubeRequestFailed(CouldNotRetrieveTranscript):
    CAUSE_MESSAGE = "Request to YouTube failed: {reason}"

    def __init__(self, video_id: str, subtext_error: SubtextError | None = None, reason: str = "") -> None:
        self.reason = reason or (subtext_error.message if subtext_error else "")
        super().__init__(video_id, subtext_error)

    @property
    def cause(self) -> str:
        return self.CAUSE_MESSAGE.format(reason=self.reason)


class VideoUnplayable(CouldNotRetrieveTranscript):
    CAUSE_MESSAGE = "The video is unplayable for the following reason: {reason}"

    def __init__(
        self, video_id: str, subtext_error: SubtextError | None = None, sub_reasons: list[str] | None = None
    ) -> None:
        self.reason = subtext_error.message if subtext_error else None
        self.sub_reasons = sub_reasons or []
        super().__init__(video_id, subtext_error)

    @property
    def cause(self) -> str:
        return self.CAUSE_MESSAGE.format(reason=self.reason or "No reason specified!")


class VideoUnavailable(CouldNotRetrieveTranscript):
    CAUSE_MESSAGE = "The video is no longer available"


class InvalidVideoId(CouldNotRetrieveTranscript):
    CAUSE_MESSAGE = "You provided an invalid video id. Make sure you are using the video id and NOT the url!"


class RequestBlocked(CouldNotRetrieveTranscript):
    CAUSE_MESSAGE = (
        "YouTube is blocking the Subtext service's requests. Proxies and cookies are the service operator's "
        "settings (YOUTUBE_PROXY_URL, YOUTUBE_COOKIES); retrying later may work."
    )


class IpBlocked(RequestBlocked):
    CAUSE_MESSAGE = "YouTube has blocked the Subtext service's address for now; retry after the time it gives."


class TranscriptsDisabled(CouldNotRetrieveTranscript):
    CAUSE_MESSAGE = "Subtitles are disabled for this video"


class AgeRestricted(CouldNotRetrieveTranscript):
    CAUSE_MESSAGE = "This video is age-restricted: YouTube requires a signed-in adult for it."


class NotTranslatable(CouldNotRetrieveTranscript):
    CAUSE_MESSAGE = "The requested language is not translatable"


class TranslationLanguageNotAvailable(CouldNotRetrieveTranscript):
    CAUSE_MESSAGE = "The requested translation language is not available"


class FailedToCreateConsentCookie(CouldNotRetrieveTranscript):
    CAUSE_MESSAGE = "Failed to automatically give consent to saving cookies"


class PoTokenRequired(CouldNotRetrieveTranscript):
    CAUSE_MESSAGE = "The requested video cannot be retrieved without a PO Token."


class NoTranscriptFound(CouldNotRetrieveTranscript):
    CAUSE_MESSAGE = "No transcripts were found for any of the requested language codes: {codes}\n\n{transcripts}"

    def __init__(
        self,
        video_id: str,
        requested_language_codes: Iterable[str],
        transcript_data: Any,
        subtext_error: SubtextError | None = None,
    ) -> None:
        self._requested_language_codes = list(requested_language_codes)
        self._transcript_data = transcript_data
        super().__init__(video_id, subtext_error)

    @property
    def cause(self) -> str:
        return self.CAUSE_MESSAGE.format(codes=self._requested_language_codes, transcripts=str(self._transcript_data))


# The service's codes, as upstream's classes (docs/python.md has the table).
_BY_CODE: dict[str, type[CouldNotRetrieveTranscript]] = {
    "INVALID_REQUEST": InvalidVideoId,
    "VIDEO_NOT_FOUND": VideoUnavailable,
    "VIDEO_AGE_RESTRICTED": AgeRestricted,
    "VIDEO_MEMBERS_ONLY": VideoUnplayable,
    "VIDEO_PAID": VideoUnplayable,
    "VIDEO_REGION_BLOCKED": VideoUnplayable,
    "VIDEO_LIVE": VideoUnplayable,
    "VIDEO_UPCOMING": VideoUnplayable,
    "VIDEO_UNPLAYABLE": VideoUnplayable,
    "NO_SUBTITLES": TranscriptsDisabled,
    "EXTRACTION_FAILED": RequestBlocked,
    "SERVICE_BUSY": IpBlocked,
    "LLM_NOT_CONFIGURED": NotTranslatable,
}


def translated(video_id: str, error: SubtextError) -> CouldNotRetrieveTranscript:
    """Upstream's exception for one of the service's refusals; codes upstream has no name for are YouTubeRequestFailed."""
    cls = _BY_CODE.get(error.code)
    return cls(video_id, error) if cls else YouTubeRequestFailed(video_id, error)
