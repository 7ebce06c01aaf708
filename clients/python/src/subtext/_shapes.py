"""Arguments of the published methods whose Python shape is not the document's fields (the generator's PUBLISHED
table names them): each returns the body fields it stands for."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._request import clean, url_or_id


def frame_times(t: float | Sequence[float]) -> dict[str, Any]:
    """POST /frames: one time as `t`, several as `timestamps`."""
    return {"t": t} if isinstance(t, (int, float)) else {"timestamps": list(t)}


def watch_target(channel: str | None, channel_tab: str | None, playlist: str | None, search: str | None) -> dict[str, Any]:
    """POST /watches: exactly one of channel (URL, UC... id or @handle, and its tab), playlist (URL or id) or search."""
    target: dict[str, Any] = {}
    if channel is not None:
        target["channel"] = clean({**url_or_id(channel, "channelId"), "tab": channel_tab}, query=False)
    if playlist is not None:
        target["playlist"] = url_or_id(playlist, "playlistId")
    if search is not None:
        target["search"] = {"query": search}
    return target
