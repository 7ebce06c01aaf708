"""What a call sends, and how an answer becomes a value or an error; shared by the sync and async clients."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from .errors import SubtextError, error_for

RETRY_STATUSES = frozenset({429, 503})


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    params: dict[str, Any] = field(default_factory=dict)
    body: dict[str, Any] | None = None
    # GETs are safe to repeat; a POST is retried only when the client or the call asks.
    idempotent: bool = True
    raw: bool = False


@dataclass(frozen=True)
class Settings:
    url: str
    key: str | None
    timeout: float
    retries: int
    backoff: float
    max_retry_wait: float
    retry_non_idempotent: bool


def settings(
    url: str | None,
    key: str | None,
    timeout: float,
    retries: int,
    backoff: float,
    max_retry_wait: float,
    retry_non_idempotent: bool,
) -> Settings:
    """Arguments first, then SUBTEXT_URL / SUBTEXT_API_KEY."""
    base = url or os.environ.get("SUBTEXT_URL")
    if not base:
        raise ValueError("pass url= or set SUBTEXT_URL to the service's origin")
    if retries < 0:
        raise ValueError("retries must be >= 0")
    return Settings(
        url=base.rstrip("/") + "/api/v1",
        key=key or os.environ.get("SUBTEXT_API_KEY"),
        timeout=timeout,
        retries=retries,
        backoff=backoff,
        max_retry_wait=max_retry_wait,
        retry_non_idempotent=retry_non_idempotent,
    )


def headers(s: Settings) -> dict[str, str]:
    h = {"user-agent": "subtext-client-python"}
    if s.key:
        h["authorization"] = f"Bearer {s.key}"
    return h


def clean(values: dict[str, Any], query: bool = True) -> dict[str, Any]:
    """Drops unset arguments; in a query string, booleans as the service spells them."""
    out: dict[str, Any] = {}
    for k, v in values.items():
        if v is None:
            continue
        out[k] = ("true" if v else "false") if query and isinstance(v, bool) else v
    return out


def url_or_id(value: str, id_field: str) -> dict[str, str]:
    """A URL (it has a slash) or an @handle as `url`, anything else as the id field (videoId, playlistId...)."""
    return {"url": value} if "/" in value or value.startswith("@") else {id_field: value}


def listed(values: Any) -> list[Any] | None:
    return list(values) if values is not None else None


def retry_after(response: httpx.Response) -> float | None:
    """Retry-After in seconds: the service sends seconds; an HTTP date (RFC 9110 allows it, proxies send it) counts too."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


def wait_before_retry(s: Settings, response: httpx.Response, attempt: int) -> float | None:
    """Seconds to wait before trying again, or None when this answer is final."""
    if response.status_code not in RETRY_STATUSES or attempt >= s.retries:
        return None
    advised = retry_after(response)
    backoff = s.backoff * (2**attempt) * (1 + random.random() / 4)
    return min(s.max_retry_wait, max(advised if advised is not None else 0.0, backoff))


def may_retry(s: Settings, req: Request, retry: bool | None) -> bool:
    if retry is not None:
        return retry
    return req.idempotent or s.retry_non_idempotent


def result(req: Request, response: httpx.Response) -> Any:
    """The answer's value (JSON, text or bytes), or the SubtextError it carries."""
    if response.status_code >= 400:
        raise to_error(response)
    if req.raw:
        ctype = response.headers.get("content-type", "")
        if ctype.startswith("application/json"):
            return response.json()
        return response.content if ctype.startswith("image/") else response.text
    return response.json() if response.content else None


def to_error(response: httpx.Response) -> SubtextError:
    code, message = "UNKNOWN", response.reason_phrase or "request failed"
    try:
        err = response.json().get("error", {})
        code, message = err.get("code", code), err.get("message", message)
    except ValueError:
        pass
    return error_for(code, response.status_code, message, response.headers.get("x-request-id"), retry_after(response))
