"""The async client's methods as it is typed: each one an awaitable of what Subtext's returns.
At run time AsyncSubtext shares Subtext's operations (client._Operations, whose _call there is a coroutine);
type checkers read these signatures instead. The project's drift test holds the two to the same methods."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .types import (
    Article,
    ArticleAnswer,
    ArticlePage,
    Batch,
    CreditHistory,
    Credits,
    Frames,
    Job,
    Listing,
    Tracks,
    Transcript,
    TranslateAnswer,
    VideoInfo,
    Watch,
    WatchList,
)


class AsyncOperations:
    async def transcript(self, video: str, *, retry: bool | None = None, **kw: Any) -> Transcript:
        """POST /subtitles: lang, format, words, chapters, mode, offset, limit, callback_url."""
        ...

    async def transcript_file(self, video_id: str, **kw: Any) -> str: ...

    async def video_info(self, video_id: str) -> VideoInfo: ...

    async def tracks(self, video_id: str) -> Tracks: ...

    async def frames(self, video: str, t: float | Sequence[float], *, retry: bool | None = None, **kw: Any) -> Frames: ...

    async def frame_image(self, video_id: str, t: float, *, width: int | None = None) -> bytes: ...

    async def translate(self, video_id: str, target_lang: str, *, retry: bool | None = None, **kw: Any) -> TranslateAnswer: ...

    async def summarize(self, video: str, *, retry: bool | None = None, **kw: Any) -> ArticleAnswer: ...

    async def search_articles(self, query: str | None = None, **kw: Any) -> ArticlePage: ...

    async def article(self, article_id: str) -> Article: ...

    async def credits(self) -> Credits: ...

    async def credit_history(self, **kw: Any) -> CreditHistory: ...

    async def job(self, job_id: str) -> Job: ...

    async def playlist_videos(self, playlist: str, *, cursor: str | None = None) -> Listing: ...

    async def channel_videos(self, channel: str, **kw: Any) -> Listing: ...

    async def youtube_search(self, query: str, *, cursor: str | None = None) -> Listing: ...

    async def create_batch(self, *, retry: bool | None = None, **kw: Any) -> Batch: ...

    async def batch(self, batch_id: str) -> Batch: ...

    async def cancel_batch(self, batch_id: str) -> Batch: ...

    async def create_watch(self, *, retry: bool | None = None, **kw: Any) -> Watch:
        """POST /watches: channel (+ channel_tab), playlist or search; interval_seconds, transcripts, lang, callback_url."""
        ...

    async def watches(self) -> WatchList: ...

    async def watch(self, watch_id: str) -> Watch: ...

    async def delete_watch(self, watch_id: str) -> Any: ...
