"""youtube-transcript-api 1.x's README examples, unchanged but for the import and the constructor's arguments."""

import pytest

from subtext.youtube_transcript_api import (
    AgeRestricted,
    CouldNotRetrieveTranscript,
    IpBlocked,
    FetchedTranscript,
    FetchedTranscriptSnippet,
    InvalidVideoId,
    NoTranscriptFound,
    NotTranslatable,
    RequestBlocked,
    TranscriptsDisabled,
    TranslationLanguageNotAvailable,
    VideoUnavailable,
    VideoUnplayable,
    YouTubeRequestFailed,
    YouTubeTranscriptApi,
)
from subtext.youtube_transcript_api.formatters import JSONFormatter, SRTFormatter, TextFormatter, WebVTTFormatter
from conftest import IDS, env

video_id = IDS.get("captions9", "")


def test_readme_fetch(url, key):
    ytt_api = YouTubeTranscriptApi(url, key)
    fetched_transcript = ytt_api.fetch(video_id)
    for snippet in fetched_transcript:
        print(snippet.text)
    snippet_count = len(fetched_transcript)
    last_snippet = fetched_transcript[-1]
    raw = fetched_transcript.to_raw_data()
    assert isinstance(fetched_transcript, FetchedTranscript)
    assert snippet_count == 205 and len(fetched_transcript.snippets) == 205
    assert isinstance(last_snippet, FetchedTranscriptSnippet) and last_snippet.text == "Aw yeah!"
    assert raw[0] == {"text": "Haooo! HimeHina here!", "start": 0.207, "duration": 1.769}
    assert (fetched_transcript.video_id, fetched_transcript.language_code, fetched_transcript.is_generated) == (
        video_id,
        "en",
        False,
    )
    assert ytt_api.fetch(video_id, languages=["de", "en"]).language_code in ("de", "en")
    assert len(ytt_api.fetch(video_id, languages=["en"], preserve_formatting=True)) == 205


def test_readme_list_find_and_translate(url, key):
    ytt_api = YouTubeTranscriptApi(url, key)
    transcript_list = ytt_api.list(IDS["manualAndAsr"])
    seen = []
    for transcript in transcript_list:
        seen.append((transcript.video_id, transcript.language, transcript.language_code, transcript.is_generated,
                     transcript.is_translatable, transcript.translation_languages))  # fmt: skip
        assert len(transcript.fetch()) > 0
    assert [s[3] for s in seen] == [False, True]
    transcript = transcript_list.find_transcript(["de", "en"])
    assert transcript.is_generated is False
    assert transcript_list.find_manually_created_transcript(["de", "en"]).language_code == "en"
    assert transcript_list.find_generated_transcript(["de", "en"]).is_generated is True
    translated_transcript = transcript.translate("de").fetch()
    assert translated_transcript.language_code == "de"
    assert [s.start for s in translated_transcript] == [s.start for s in transcript.fetch()]
    assert translated_transcript[0].text == "FR " + transcript.fetch()[0].text  # the loopback model's translation
    assert "(MANUALLY CREATED)" in str(transcript_list)
    # Into its own language: the track itself, as YouTube answers it (upstream's README loop does this), free.
    same = transcript.translate("en").fetch()
    assert same.to_raw_data() == transcript.fetch().to_raw_data() and same.language_code == "en"
    # Both kinds in one language: each transcript's fetch() answers its own track.
    generated = transcript_list.find_generated_transcript(["en"])
    assert generated.is_generated is True and generated.fetch().is_generated is True
    assert generated.translate("en").fetch().is_generated is True
    assert transcript_list.find_manually_created_transcript(["en"]).fetch().is_generated is False


def test_readme_formatters(url, key):
    transcript = YouTubeTranscriptApi(url, key).fetch(video_id)
    formatter = JSONFormatter()
    json_formatted = formatter.format_transcript(transcript, indent=2)
    assert json_formatted.startswith('[\n  {\n    "text": "Haooo! HimeHina here!"')
    assert SRTFormatter().format_transcript(transcript).startswith("1\n00:00:00,207 --> 00:00:01,976\nHaooo!")
    assert WebVTTFormatter().format_transcript(transcript).startswith("WEBVTT\n\n00:00:00.207 --> 00:00:01.976\n")
    assert TextFormatter().format_transcripts([transcript, transcript]).count("\n\n\n") == 1


EXPECTED = [
    ("private", VideoUnavailable, "VIDEO_NOT_FOUND"),
    ("ageRestricted", AgeRestricted, "VIDEO_AGE_RESTRICTED"),
    ("membersOnly", VideoUnplayable, "VIDEO_MEMBERS_ONLY"),
    ("noCaptions", TranscriptsDisabled, None),
    ("botCheck", RequestBlocked, "EXTRACTION_FAILED"),
]


@pytest.mark.parametrize(("fixture", "cls", "code"), EXPECTED)
def test_refusals_are_upstream_s_exceptions(url, key, fixture, cls, code):
    with pytest.raises(cls) as caught:
        YouTubeTranscriptApi(url, key).fetch(IDS[fixture])
    e = caught.value
    assert isinstance(e, CouldNotRetrieveTranscript)
    if code:
        assert e.subtext_error.code == code
        assert e.request_id and e.request_id in str(e)
        assert e.subtext_error.message in str(e)


def test_more_refusals(url, key):
    api = YouTubeTranscriptApi(url, key)
    with pytest.raises(NoTranscriptFound) as missing:
        api.fetch(video_id, languages=["xx"])
    assert "['xx']" in str(missing.value)
    with pytest.raises(InvalidVideoId) as invalid:
        api.fetch("not a video!")
    assert invalid.value.subtext_error.code == "INVALID_REQUEST"
    english = api.list(video_id).find_transcript(["en"])
    with pytest.raises(TranslationLanguageNotAvailable) as unavailable:  # the service refuses what is not a language
        english.translate("not a language").fetch()
    assert unavailable.value.subtext_error.code == "INVALID_REQUEST"
    with pytest.raises(YouTubeRequestFailed) as broke:
        YouTubeTranscriptApi(url, env("SUBTEXT_TEST_BROKE_KEY")).fetch(IDS["tracks36"], languages=["en-US"])
    assert broke.value.subtext_error.code == "INSUFFICIENT_CREDITS"
    no_llm = YouTubeTranscriptApi(env("SUBTEXT_TEST_NO_LLM_URL"), env("SUBTEXT_TEST_NO_LLM_KEY"))
    with pytest.raises(NotTranslatable) as refused:
        no_llm.list(video_id).find_transcript(["en"]).translate("de").fetch()
    assert refused.value.subtext_error.code == "LLM_NOT_CONFIGURED"
    # Its one residential exit's budget is below what a bot check needs; retries=0: not waiting out its Retry-After.
    busy_api = YouTubeTranscriptApi(env("SUBTEXT_TEST_NO_LLM_URL"), env("SUBTEXT_TEST_NO_LLM_KEY"), retries=0)
    with pytest.raises(IpBlocked) as busy:
        busy_api.fetch(IDS["botCheck"])
    assert busy.value.subtext_error.code == "SERVICE_BUSY" and busy.value.subtext_error.retry_after
