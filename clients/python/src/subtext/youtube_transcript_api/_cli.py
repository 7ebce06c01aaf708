"""The `subtext-youtube-transcript-api` command: upstream's flags, plus --url and --key for the service."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from ._api import YouTubeTranscriptApi
from .formatters import FormatterLoader


class YouTubeTranscriptCli:
    def __init__(self, args: Sequence[str]) -> None:
        self._args = list(args)

    def run(self) -> str:
        parsed = self._parse_args()
        if parsed.exclude_manually_created and parsed.exclude_generated:
            return ""
        api = YouTubeTranscriptApi(parsed.url, parsed.key)
        transcripts: list[Any] = []
        exceptions: list[Exception] = []
        for video_id in parsed.video_ids:
            try:
                transcripts.append(self._fetch(api, parsed, video_id))
            except Exception as exception:  # noqa: BLE001 - each video's failure is printed, as upstream does
                exceptions.append(exception)
        printed = [str(e) for e in exceptions]
        if transcripts:
            if parsed.list_transcripts:
                printed += [str(t) for t in transcripts]
            else:
                printed.append(FormatterLoader().load(parsed.format).format_transcripts(transcripts))
        return "\n\n".join(printed)

    def _fetch(self, api: YouTubeTranscriptApi, parsed: argparse.Namespace, video_id: str) -> Any:
        transcript_list = api.list(video_id)
        if parsed.list_transcripts:
            return transcript_list
        if parsed.exclude_manually_created:
            transcript = transcript_list.find_generated_transcript(parsed.languages)
        elif parsed.exclude_generated:
            transcript = transcript_list.find_manually_created_transcript(parsed.languages)
        else:
            transcript = transcript_list.find_transcript(parsed.languages)
        if parsed.translate:
            transcript = transcript.translate(parsed.translate)
        return transcript.fetch()

    def _parse_args(self) -> argparse.Namespace:
        p = argparse.ArgumentParser(
            prog="subtext-youtube-transcript-api",
            description="youtube-transcript-api's command line, answered by a Subtext service.",
        )
        p.add_argument("--list-transcripts", action="store_true", help="List the languages each video has.")
        p.add_argument("video_ids", nargs="+", type=str, help="YouTube video ids.")
        p.add_argument("--languages", nargs="*", default=["en"], type=str, help="Language codes, by priority.")
        p.add_argument("--exclude-generated", action="store_true", help="Skip auto-generated transcripts.")
        p.add_argument("--exclude-manually-created", action="store_true", help="Skip manually created ones.")
        p.add_argument("--format", type=str, default="pretty", choices=tuple(FormatterLoader.TYPES))
        p.add_argument("--translate", default="", help="Translate to this language code (the service's translation).")
        p.add_argument("--url", default=None, help="The Subtext service's origin (default: SUBTEXT_URL).")
        p.add_argument("--key", default=None, help="An API key (default: SUBTEXT_API_KEY).")
        # Upstream's, accepted so scripts keep working: proxies and cookies are the service operator's settings.
        p.add_argument("--http-proxy", default="", metavar="URL", help=argparse.SUPPRESS)
        p.add_argument("--https-proxy", default="", metavar="URL", help=argparse.SUPPRESS)
        p.add_argument("--webshare-proxy-username", default=None, help=argparse.SUPPRESS)
        p.add_argument("--webshare-proxy-password", default=None, help=argparse.SUPPRESS)
        p.add_argument("--cookies", default=None, help=argparse.SUPPRESS)
        parsed = p.parse_args(self._args)
        parsed.video_ids = [v.replace("\\", "") for v in parsed.video_ids]
        return parsed


def main() -> None:
    print(YouTubeTranscriptCli(sys.argv[1:]).run())
