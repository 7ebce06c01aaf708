"""The service's errors: one SubtextError, and one subclass per error code (src/domain/errors.ts)."""

from __future__ import annotations


class SubtextError(Exception):
    """A refusal from the service: its code, HTTP status, message, request id and Retry-After seconds."""

    code: str = "UNKNOWN"

    def __init__(
        self,
        code: str,
        status: int,
        message: str,
        request_id: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(f"{code} ({status}): {message}" + (f" [request {request_id}]" if request_id else ""))
        self.code = code
        self.status = status
        self.message = message
        self.request_id = request_id
        self.retry_after = retry_after


class InvalidRequestError(SubtextError):
    code = "INVALID_REQUEST"


class InvalidApiKeyError(SubtextError):
    code = "INVALID_API_KEY"


class InsufficientCreditsError(SubtextError):
    code = "INSUFFICIENT_CREDITS"


class TranscriptNotFoundError(SubtextError):
    code = "TRANSCRIPT_NOT_FOUND"


class NoSubtitlesError(SubtextError):
    code = "NO_SUBTITLES"


class RateLimitedError(SubtextError):
    code = "RATE_LIMITED"


class ExtractionFailedError(SubtextError):
    code = "EXTRACTION_FAILED"


class ServiceBusyError(SubtextError):
    code = "SERVICE_BUSY"


class VideoNotFoundError(SubtextError):
    code = "VIDEO_NOT_FOUND"


class VideoAgeRestrictedError(SubtextError):
    code = "VIDEO_AGE_RESTRICTED"


class VideoMembersOnlyError(SubtextError):
    code = "VIDEO_MEMBERS_ONLY"


class VideoPaidError(SubtextError):
    code = "VIDEO_PAID"


class VideoRegionBlockedError(SubtextError):
    code = "VIDEO_REGION_BLOCKED"


class VideoLiveError(SubtextError):
    code = "VIDEO_LIVE"


class VideoUpcomingError(SubtextError):
    code = "VIDEO_UPCOMING"


class VideoUnplayableError(SubtextError):
    code = "VIDEO_UNPLAYABLE"


class FrameFailedError(SubtextError):
    code = "FRAME_FAILED"


class LlmNotConfiguredError(SubtextError):
    code = "LLM_NOT_CONFIGURED"


class LlmFailedError(SubtextError):
    code = "LLM_FAILED"


class SttNotConfiguredError(SubtextError):
    code = "STT_NOT_CONFIGURED"


class MediaTooLargeError(SubtextError):
    code = "MEDIA_TOO_LARGE"


class JobNotFoundError(SubtextError):
    code = "JOB_NOT_FOUND"


class ArticleNotFoundError(SubtextError):
    code = "ARTICLE_NOT_FOUND"


class NotFoundError(SubtextError):
    code = "NOT_FOUND"


class MethodNotAllowedError(SubtextError):
    code = "METHOD_NOT_ALLOWED"


class PayloadTooLargeError(SubtextError):
    code = "PAYLOAD_TOO_LARGE"


class UnsupportedMediaTypeError(SubtextError):
    code = "UNSUPPORTED_MEDIA_TYPE"


class UriTooLongError(SubtextError):
    code = "URI_TOO_LONG"


class HeadersTooLargeError(SubtextError):
    code = "HEADERS_TOO_LARGE"


class UnauthenticatedError(SubtextError):
    code = "UNAUTHENTICATED"


class ForbiddenError(SubtextError):
    code = "FORBIDDEN"


class InternalErrorError(SubtextError):
    code = "INTERNAL_ERROR"


ERRORS_BY_CODE: dict[str, type[SubtextError]] = {
    "INVALID_REQUEST": InvalidRequestError,
    "INVALID_API_KEY": InvalidApiKeyError,
    "INSUFFICIENT_CREDITS": InsufficientCreditsError,
    "TRANSCRIPT_NOT_FOUND": TranscriptNotFoundError,
    "NO_SUBTITLES": NoSubtitlesError,
    "RATE_LIMITED": RateLimitedError,
    "EXTRACTION_FAILED": ExtractionFailedError,
    "SERVICE_BUSY": ServiceBusyError,
    "VIDEO_NOT_FOUND": VideoNotFoundError,
    "VIDEO_AGE_RESTRICTED": VideoAgeRestrictedError,
    "VIDEO_MEMBERS_ONLY": VideoMembersOnlyError,
    "VIDEO_PAID": VideoPaidError,
    "VIDEO_REGION_BLOCKED": VideoRegionBlockedError,
    "VIDEO_LIVE": VideoLiveError,
    "VIDEO_UPCOMING": VideoUpcomingError,
    "VIDEO_UNPLAYABLE": VideoUnplayableError,
    "FRAME_FAILED": FrameFailedError,
    "LLM_NOT_CONFIGURED": LlmNotConfiguredError,
    "LLM_FAILED": LlmFailedError,
    "STT_NOT_CONFIGURED": SttNotConfiguredError,
    "MEDIA_TOO_LARGE": MediaTooLargeError,
    "JOB_NOT_FOUND": JobNotFoundError,
    "ARTICLE_NOT_FOUND": ArticleNotFoundError,
    "NOT_FOUND": NotFoundError,
    "METHOD_NOT_ALLOWED": MethodNotAllowedError,
    "PAYLOAD_TOO_LARGE": PayloadTooLargeError,
    "UNSUPPORTED_MEDIA_TYPE": UnsupportedMediaTypeError,
    "URI_TOO_LONG": UriTooLongError,
    "HEADERS_TOO_LARGE": HeadersTooLargeError,
    "UNAUTHENTICATED": UnauthenticatedError,
    "FORBIDDEN": ForbiddenError,
    "INTERNAL_ERROR": InternalErrorError,
}
ERROR_CODES: tuple[str, ...] = tuple(ERRORS_BY_CODE)


def error_for(code: str, status: int, message: str, request_id: str | None, retry_after: float | None) -> SubtextError:
    """The exception for a code; an unknown code (a newer service) is a plain SubtextError."""
    return ERRORS_BY_CODE.get(code, SubtextError)(code, status, message, request_id, retry_after)
