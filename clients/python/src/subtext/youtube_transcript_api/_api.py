"""YouTubeTranscriptApi as youtube-transcript-api 1.x has it: fetch() and list(), answered by a Subtext service."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..client import Subtext
from ..errors import SubtextError
from ._errors import TranscriptsDisabled, translated
from ._transcripts import FetchedTranscript, TranscriptList


class YouTubeTranscriptApi:
    """`url`/`key` (or SUBTEXT_URL / SUBTEXT_API_KEY) name the service. Upstream's proxy_config and http_client
    are accepted and unused: proxies and cookies are the service operator's settings."""

    def __init__(
        self,
        url: str | None = None,
        key: str | None = None,
        proxy_config: Any = None,
        http_client: Any = None,
        *,
        client: Subtext | None = None,
        **options: Any,
    ) -> None:
        self._client = client or Subtext(url, key, **options)

    def fetch(
        self, video_id: str, languages: Iterable[str] = ("en",), preserve_formatting: bool = False
    ) -> FetchedTranscript:
        return self.list(video_id).find_transcript(languages).fetch(preserve_formatting=preserve_formatting)

    def list(self, video_id: str) -> TranscriptList:
        try:
            tracks = self._client.tracks(video_id)["tracks"]
        except SubtextError as e:
            raise translated(video_id, e) from e
        if not tracks:
            raise TranscriptsDisabled(video_id)
        return TranscriptList.build(self._client, video_id, tracks)
