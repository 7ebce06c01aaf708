"""FetchedTranscript, Transcript and TranscriptList as youtube-transcript-api 1.x has them, backed by the service."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..client import Subtext
from ..errors import SubtextError
from ._errors import NoTranscriptFound, NotTranslatable, TranslationLanguageNotAvailable, translated

# What our translation operation accepts: any language the model writes; these are offered by name, as YouTube does.
TRANSLATION_LANGUAGES: dict[str, str] = {
    "ar": "Arabic", "bn": "Bangla", "cs": "Czech", "da": "Danish", "de": "German", "el": "Greek",
    "en": "English", "es": "Spanish", "fa": "Persian", "fi": "Finnish", "fr": "French", "he": "Hebrew",
    "hi": "Hindi", "hu": "Hungarian", "id": "Indonesian", "it": "Italian", "ja": "Japanese", "ko": "Korean",
    "nl": "Dutch", "no": "Norwegian", "pl": "Polish", "pt": "Portuguese", "ro": "Romanian", "ru": "Russian",
    "sv": "Swedish", "th": "Thai", "tr": "Turkish", "uk": "Ukrainian", "vi": "Vietnamese", "zh-Hans": "Chinese (Simplified)",
    "zh-Hant": "Chinese (Traditional)",
}  # fmt: skip


@dataclass
class FetchedTranscriptSnippet:
    text: str
    start: float
    duration: float


@dataclass
class FetchedTranscript:
    snippets: list[FetchedTranscriptSnippet]
    video_id: str
    language: str
    language_code: str
    is_generated: bool

    def __iter__(self) -> Iterator[FetchedTranscriptSnippet]:
        return iter(self.snippets)

    def __getitem__(self, index: int) -> FetchedTranscriptSnippet:
        return self.snippets[index]

    def __len__(self) -> int:
        return len(self.snippets)

    def to_raw_data(self) -> list[dict[str, Any]]:
        return [{"text": s.text, "start": s.start, "duration": s.duration} for s in self.snippets]


@dataclass
class TranslationLanguage:
    language: str
    language_code: str


def _snippets(segments: Iterable[dict[str, Any]]) -> list[FetchedTranscriptSnippet]:
    return [
        FetchedTranscriptSnippet(text=s["text"], start=s["start"], duration=round(s["end"] - s["start"], 3))
        for s in segments
    ]


def _all_segments(client: Subtext, video_id: str, lang: str) -> list[dict[str, Any]]:
    """Every page of the track: the first call is charged, the rest are the stored transcript's pages (free)."""
    segments: list[dict[str, Any]] = []
    offset: int | None = 0
    while offset is not None:
        page = client.transcript(video_id, lang=lang, mode="native", offset=offset or None)
        if "job" in page and not page.get("segments"):
            page = client.jobs.wait(page)["result"]["transcript"]
        segments += page["segments"]
        offset = page.get("nextOffset")
    return segments


@dataclass
class Transcript:
    video_id: str
    language: str
    language_code: str
    is_generated: bool
    translation_languages: list[TranslationLanguage]
    _client: Subtext = field(repr=False)
    _source_code: str | None = field(default=None, repr=False)

    @property
    def is_translatable(self) -> bool:
        return len(self.translation_languages) > 0

    def fetch(self, preserve_formatting: bool = False) -> FetchedTranscript:
        """The track's snippets; a translation is made by the service's translate operation (timestamps kept)."""
        try:
            if self._source_code is None:
                segments = _all_segments(self._client, self.video_id, self.language_code)
            else:
                segments = self._translated_segments()
        except SubtextError as e:
            raise translated(self.video_id, e) from e
        return FetchedTranscript(_snippets(segments), self.video_id, self.language, self.language_code, self.is_generated)

    def _translated_segments(self) -> list[dict[str, Any]]:
        assert self._source_code is not None
        _all_segments(self._client, self.video_id, self._source_code)  # stored first: translation reads it
        try:
            answer = self._client.translate(self.video_id, self.language_code, source_lang=self._source_code)
        except SubtextError as e:
            if e.code == "INVALID_REQUEST":
                raise TranslationLanguageNotAvailable(self.video_id, e) from e
            raise
        if "translation" in answer:
            return answer["translation"]["segments"]
        job = self._client.jobs.wait(answer["job"])
        if job["status"] == "failed":
            err = job.get("error", {"code": "INTERNAL_ERROR", "message": "translation failed"})
            raise SubtextError(err["code"], 200, err["message"])
        return job["result"]["translation"]["segments"]

    def translate(self, language_code: str) -> Transcript:
        if not self.is_translatable:
            raise NotTranslatable(self.video_id)
        # Any language the service's model writes: the service refuses the others, at fetch().
        name = next((t.language for t in self.translation_languages if t.language_code == language_code), language_code)
        return Transcript(self.video_id, name, language_code, True, [], self._client, self.language_code)

    def __str__(self) -> str:
        return f'{self.language_code} ("{self.language}"){"[TRANSLATABLE]" if self.is_translatable else ""}'


class TranscriptList:
    """The video's tracks, manual ones first, as upstream's list()."""

    def __init__(
        self,
        video_id: str,
        manually_created_transcripts: dict[str, Transcript],
        generated_transcripts: dict[str, Transcript],
        translation_languages: list[TranslationLanguage],
    ) -> None:
        self.video_id = video_id
        self._manually_created_transcripts = manually_created_transcripts
        self._generated_transcripts = generated_transcripts
        self._translation_languages = translation_languages

    @staticmethod
    def build(client: Subtext, video_id: str, tracks: list[dict[str, Any]]) -> TranscriptList:
        languages = [TranslationLanguage(name, code) for code, name in TRANSLATION_LANGUAGES.items()]
        manual: dict[str, Transcript] = {}
        generated: dict[str, Transcript] = {}
        for t in tracks:
            target = generated if t["autoGenerated"] else manual
            target.setdefault(t["lang"], Transcript(video_id, t["name"], t["lang"], t["autoGenerated"], languages, client))
        return TranscriptList(video_id, manual, generated, languages)

    def __iter__(self) -> Iterator[Transcript]:
        return iter([*self._manually_created_transcripts.values(), *self._generated_transcripts.values()])

    def find_transcript(self, language_codes: Iterable[str]) -> Transcript:
        return self._find(language_codes, [self._manually_created_transcripts, self._generated_transcripts])

    def find_generated_transcript(self, language_codes: Iterable[str]) -> Transcript:
        return self._find(language_codes, [self._generated_transcripts])

    def find_manually_created_transcript(self, language_codes: Iterable[str]) -> Transcript:
        return self._find(language_codes, [self._manually_created_transcripts])

    def _find(self, language_codes: Iterable[str], dicts: list[dict[str, Transcript]]) -> Transcript:
        codes = list(language_codes)
        for code in codes:
            for d in dicts:
                if code in d:
                    return d[code]
        raise NoTranscriptFound(self.video_id, codes, self)

    def __str__(self) -> str:
        def lines(ts: Iterable[Any]) -> str:
            items = [f" - {t}" for t in ts]
            return "\n".join(items) if items else "None"

        langs = (f'{t.language_code} ("{t.language}")' for t in self._translation_languages)
        return (
            f"For this video ({self.video_id}) transcripts are available in the following languages:\n\n"
            f"(MANUALLY CREATED)\n{lines(self._manually_created_transcripts.values())}\n\n"
            f"(GENERATED)\n{lines(self._generated_transcripts.values())}\n\n"
            f"(TRANSLATION LANGUAGES)\n{lines(langs)}"
        )
