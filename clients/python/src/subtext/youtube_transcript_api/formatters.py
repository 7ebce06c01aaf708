"""youtube-transcript-api 1.x's formatters, for FetchedTranscript objects."""

from __future__ import annotations

import json
import pprint
from collections.abc import Sequence
from typing import Any

from ._transcripts import FetchedTranscript, FetchedTranscriptSnippet


class Formatter:
    def format_transcript(self, transcript: FetchedTranscript, **kwargs: Any) -> str:
        raise NotImplementedError

    def format_transcripts(self, transcripts: Sequence[FetchedTranscript], **kwargs: Any) -> str:
        raise NotImplementedError


class PrettyPrintFormatter(Formatter):
    def format_transcript(self, transcript: FetchedTranscript, **kwargs: Any) -> str:
        return pprint.pformat(transcript.to_raw_data(), **kwargs)

    def format_transcripts(self, transcripts: Sequence[FetchedTranscript], **kwargs: Any) -> str:
        return pprint.pformat([t.to_raw_data() for t in transcripts], **kwargs)


class JSONFormatter(Formatter):
    def format_transcript(self, transcript: FetchedTranscript, **kwargs: Any) -> str:
        return json.dumps(transcript.to_raw_data(), **kwargs)

    def format_transcripts(self, transcripts: Sequence[FetchedTranscript], **kwargs: Any) -> str:
        return json.dumps([t.to_raw_data() for t in transcripts], **kwargs)


class TextFormatter(Formatter):
    def format_transcript(self, transcript: FetchedTranscript, **kwargs: Any) -> str:
        return "\n".join(s.text for s in transcript)

    def format_transcripts(self, transcripts: Sequence[FetchedTranscript], **kwargs: Any) -> str:
        return "\n\n\n".join(self.format_transcript(t, **kwargs) for t in transcripts)


class _CueFormatter(TextFormatter):
    SEPARATOR = "."
    HEADER = ""

    def _timestamp(self, seconds: float) -> str:
        whole = int(seconds)
        hours, rest = divmod(whole, 3600)
        mins, secs = divmod(rest, 60)
        ms = int(round((seconds - whole) * 1000, 2))
        return f"{hours:02d}:{mins:02d}:{secs:02d}{self.SEPARATOR}{ms:03d}"

    def _cue(self, i: int, timing: str, snippet: FetchedTranscriptSnippet) -> str:
        raise NotImplementedError

    def format_transcript(self, transcript: FetchedTranscript, **kwargs: Any) -> str:
        cues = []
        for i, s in enumerate(transcript):
            end = s.start + s.duration
            # A cue ends where the next begins when they overlap, as upstream writes them.
            if i < len(transcript) - 1 and transcript[i + 1].start < end:
                end = transcript[i + 1].start
            cues.append(self._cue(i, f"{self._timestamp(s.start)} --> {self._timestamp(end)}", s))
        return self.HEADER + "\n\n".join(cues) + "\n"


class SRTFormatter(_CueFormatter):
    SEPARATOR = ","

    def _cue(self, i: int, timing: str, snippet: FetchedTranscriptSnippet) -> str:
        return f"{i + 1}\n{timing}\n{snippet.text}"


class WebVTTFormatter(_CueFormatter):
    HEADER = "WEBVTT\n\n"

    def _cue(self, i: int, timing: str, snippet: FetchedTranscriptSnippet) -> str:
        return f"{timing}\n{snippet.text}"


class FormatterLoader:
    TYPES: dict[str, type[Formatter]] = {
        "json": JSONFormatter,
        "pretty": PrettyPrintFormatter,
        "text": TextFormatter,
        "webvtt": WebVTTFormatter,
        "srt": SRTFormatter,
    }

    class UnknownFormatterType(Exception):
        def __init__(self, formatter_type: str) -> None:
            names = ", ".join(FormatterLoader.TYPES)
            super().__init__(f"The format '{formatter_type}' is not supported. Choose one of the following formats: {names}")

    def load(self, formatter_type: str = "pretty") -> Formatter:
        if formatter_type not in self.TYPES:
            raise FormatterLoader.UnknownFormatterType(formatter_type)
        return self.TYPES[formatter_type]()


