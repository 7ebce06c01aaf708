"""Every REST operation of /api/v1, as the request it sends. OPERATIONS maps each OpenAPI operationId to its method;
the project's drift test holds it to the served document."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from ._request import Request, clean

Format = Literal["json", "text", "srt", "vtt"]
Mode = Literal["native", "generate", "auto"]

OPERATIONS: dict[str, str] = {
    "subtitles-get": "transcript",
    "subtitles-file": "transcript_file",
    "videos-info": "video_info",
    "videos-tracks": "tracks",
    "frames-capture": "frames",
    "frames-image": "frame_image",
    "transcripts-translate": "translate",
    "summaries-create": "summarize",
    "articles-search": "search_articles",
    "articles-get": "article",
    "credits-get": "credits",
    "credits-history": "credit_history",
    "jobs-get": "job",
    "listing-playlist": "playlist_videos",
    "listing-channel": "channel_videos",
    "listing-search": "youtube_search",
    "batches-create": "create_batch",
    "batches-get": "batch",
    "batches-cancel": "cancel_batch",
    "watches-create": "create_watch",
    "watches-list": "watches",
    "watches-get": "watch",
    "watches-delete": "delete_watch",
}


def video(url_or_id: str) -> dict[str, str]:
    """A watch URL or an 11-character id, as the service's `url` / `videoId` fields."""
    return {"url": url_or_id} if "/" in url_or_id else {"videoId": url_or_id}


def transcript(
    video_: str,
    *,
    lang: str | None = None,
    format: Format | None = None,
    words: bool | None = None,
    chapters: bool | None = None,
    mode: Mode | None = None,
    offset: int | None = None,
    limit: int | None = None,
    callback_url: str | None = None,
) -> Request:
    body = clean(
        {
            **video(video_),
            "lang": lang,
            "format": format,
            "words": words,
            "chapters": chapters,
            "mode": mode,
            "offset": offset,
            "limit": limit,
            "callbackUrl": callback_url,
        },
        query=False,
    )
    # A stored or captioned transcript is charged once and then free: repeating the call is safe.
    return Request("POST", "/subtitles", body=body, idempotent=True)


def transcript_file(
    video_id: str,
    *,
    lang: str | None = None,
    format: Format | None = None,
    mode: Mode | None = None,
    words: bool | None = None,
    chapters: bool | None = None,
) -> Request:
    params = clean({"lang": lang, "format": format, "mode": mode, "words": words, "chapters": chapters})
    return Request("GET", f"/videos/{video_id}/subtitles", params=params, raw=True)


def frames(
    video_: str,
    t: float | Sequence[float],
    *,
    width: int | None = None,
    include_base64: bool | None = None,
) -> Request:
    times: dict[str, Any] = {"t": t} if isinstance(t, (int, float)) else {"timestamps": list(t)}
    body = {**video(video_), **times}
    if width is not None:
        body["width"] = width
    if include_base64 is not None:
        body["includeBase64"] = include_base64
    return Request("POST", "/frames", body=body, idempotent=False)


def frame_image(video_id: str, t: float, *, width: int | None = None) -> Request:
    return Request("GET", f"/videos/{video_id}/frame", params=clean({"t": t, "width": width}), raw=True)


def translate(video_id: str, target_lang: str, *, source_lang: str, callback_url: str | None = None) -> Request:
    body = clean(
        {"videoId": video_id, "sourceLang": source_lang, "targetLang": target_lang, "callbackUrl": callback_url},
        query=False,
    )
    return Request("POST", "/transcripts/translate", body=body, idempotent=False)


def summarize(
    video_: str,
    *,
    lang: str | None = None,
    length: Literal["short", "medium", "long"] | None = None,
    source_lang: str | None = None,
    callback_url: str | None = None,
) -> Request:
    body = clean(
        {**video(video_), "lang": lang, "length": length, "sourceLang": source_lang, "callbackUrl": callback_url},
        query=False,
    )
    return Request("POST", "/summaries", body=body, idempotent=False)


def search_articles(
    query: str | None = None,
    *,
    category: str | None = None,
    lang: str | None = None,
    page: int | None = None,
    limit: int | None = None,
    cursor: str | None = None,
) -> Request:
    params = clean({"query": query, "category": category, "lang": lang, "page": page, "limit": limit, "cursor": cursor})
    return Request("GET", "/articles", params=params)


def credit_history(
    *, limit: int | None = None, cursor: str | None = None, request_id: str | None = None, video_id: str | None = None
) -> Request:
    params = clean({"limit": limit, "cursor": cursor, "requestId": request_id, "videoId": video_id})
    return Request("GET", "/credits/history", params=params)


def playlist_videos(playlist: str, *, cursor: str | None = None) -> Request:
    which = {"url": playlist} if "/" in playlist else {"playlistId": playlist}
    return Request("GET", "/playlists/videos", params=clean({**which, "cursor": cursor}))


def channel_videos(channel: str, *, tab: str | None = None, cursor: str | None = None) -> Request:
    which = {"url": channel} if "/" in channel or channel.startswith("@") else {"channelId": channel}
    return Request("GET", "/channels/videos", params=clean({**which, "tab": tab, "cursor": cursor}))


def youtube_search(query: str, *, cursor: str | None = None) -> Request:
    return Request("GET", "/youtube/search", params=clean({"query": query, "cursor": cursor}))


def create_batch(
    *,
    videos: Sequence[str] | None = None,
    playlist: str | None = None,
    channel: str | None = None,
    channel_tab: str | None = None,
    search: str | None = None,
    max_videos: int | None = None,
    operation: dict[str, Any] | None = None,
    callback_url: str | None = None,
) -> Request:
    body = clean(
        {
            "videos": list(videos) if videos is not None else None,
            "playlist": playlist,
            "channel": channel,
            "channelTab": channel_tab,
            "search": search,
            "maxVideos": max_videos,
            "operation": operation,
            "callbackUrl": callback_url,
        },
        query=False,
    )
    return Request("POST", "/batches", body=body, idempotent=False)


def create_watch(
    *,
    channel: str | None = None,
    channel_tab: str | None = None,
    playlist: str | None = None,
    search: str | None = None,
    interval_seconds: int | None = None,
    transcripts: bool | None = None,
    lang: str | None = None,
    callback_url: str | None = None,
) -> Request:
    """Exactly one of channel (URL, UC... id or @handle), playlist (URL or id) or search."""
    target: dict[str, Any] = {}
    if channel is not None:
        which = {"url": channel} if "/" in channel or channel.startswith("@") else {"channelId": channel}
        target["channel"] = clean({**which, "tab": channel_tab}, query=False)
    if playlist is not None:
        target["playlist"] = {"url": playlist} if "/" in playlist else {"playlistId": playlist}
    if search is not None:
        target["search"] = {"query": search}
    options = {"intervalSeconds": interval_seconds, "transcripts": transcripts, "lang": lang, "callbackUrl": callback_url}
    return Request("POST", "/watches", body={**target, **clean(options, query=False)}, idempotent=False)


def get(path: str) -> Request:
    return Request("GET", path)


def post(path: str) -> Request:
    return Request("POST", path, body={}, idempotent=False)


def delete(path: str) -> Request:
    return Request("DELETE", path)
