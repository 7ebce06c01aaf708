"""Subtext's Python client: `Subtext` (sync) and `AsyncSubtext` (async) over the service's REST API."""

from ._operations import OPERATIONS
from .client import AsyncSubtext, JobTimeout, Subtext
from .errors import *  # noqa: F403
from .errors import ERROR_CODES, ERRORS_BY_CODE, SubtextError
from .webhooks import WebhookVerificationError, verify_webhook

__all__ = [
    "OPERATIONS",
    "ERROR_CODES",
    "ERRORS_BY_CODE",
    "AsyncSubtext",
    "JobTimeout",
    "Subtext",
    "SubtextError",
    "WebhookVerificationError",
    "verify_webhook",
    *(cls.__name__ for cls in ERRORS_BY_CODE.values()),
]
