"""Verifies a webhook delivery's Standard Webhooks signature (https://www.standardwebhooks.com)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Mapping
from typing import Any


class WebhookVerificationError(Exception):
    pass


def verify_webhook(
    secret: str,
    body: bytes | str,
    headers: Mapping[str, str],
    *,
    tolerance: float = 300,
    now: float | None = None,
) -> dict[str, Any]:
    """The delivery's event when its signature is the account secret's (`whsec_...`) and its timestamp recent."""
    lower = {k.lower(): v for k, v in headers.items()}
    msg_id, stamp, signatures = (lower.get(h) for h in ("webhook-id", "webhook-timestamp", "webhook-signature"))
    if not msg_id or not stamp or not signatures:
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature")
    try:
        sent = int(stamp)
    except ValueError as e:
        raise WebhookVerificationError("webhook-timestamp is not a number") from e
    if abs((time.time() if now is None else now) - sent) > tolerance:
        raise WebhookVerificationError("webhook-timestamp is outside the tolerance")
    raw = body.encode() if isinstance(body, str) else body
    key = base64.b64decode(secret.removeprefix("whsec_"))
    expected = base64.b64encode(hmac.new(key, f"{msg_id}.{sent}.".encode() + raw, hashlib.sha256).digest()).decode()
    for sig in signatures.split():
        version, _, value = sig.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            return json.loads(raw)
    raise WebhookVerificationError("no signature matches")
