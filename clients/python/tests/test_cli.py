import json
import os
import subprocess

from conftest import IDS, env


def cli(*args: str, with_url: bool = True) -> str:
    flags = ["--url", env("SUBTEXT_URL"), "--key", env("SUBTEXT_API_KEY")] if with_url else []
    done = subprocess.run(["subtext-youtube-transcript-api", *args, *flags], capture_output=True, text=True, check=True)
    return done.stdout


def test_formats():
    raw = json.loads(cli(IDS["captions9"], "--format", "json"))
    assert raw[0][0] == {"text": "Haooo! HimeHina here!", "start": 0.207, "duration": 1.769}
    assert cli(IDS["captions9"], "--format", "srt").startswith("1\n00:00:00,207 --> ")
    assert cli(IDS["captions9"], "--format", "webvtt").startswith("WEBVTT\n\n")
    assert cli(IDS["captions9"], "--format", "text").startswith("Haooo! HimeHina here!\n")
    assert cli(IDS["captions9"]).startswith("[[{'duration': 1.769,")  # pretty, the default


def test_languages_and_exclusions():
    both = IDS["manualAndAsr"]
    listed = cli(both, "--list-transcripts")
    assert "(MANUALLY CREATED)" in listed and "(GENERATED)" in listed
    assert json.loads(cli(both, "--languages", "de", "en", "--format", "json"))[0]
    assert "NoTranscriptFound" not in cli(both, "--exclude-generated", "--format", "json")
    generated = cli(IDS["manualOnlyDe"], "--languages", "de", "--exclude-manually-created")
    assert "No transcripts were found" in generated
    assert cli(both, "--exclude-generated", "--exclude-manually-created") == "\n"


def test_translate_and_the_environment():
    os.environ.get("SUBTEXT_URL")
    out = json.loads(cli(IDS["manualOnlyDe"], "--languages", "de", "--translate", "en", "--format", "json", with_url=False))
    assert len(out[0]) == 205


def test_upstream_s_proxy_and_cookie_flags_are_accepted():
    out = cli(IDS["captions9"], "--format", "json", "--https-proxy", "https://user:pass@proxy.example:8080",
              "--http-proxy", "http://proxy.example:8080", "--webshare-proxy-username", "u",
              "--webshare-proxy-password", "p", "--cookies", "/no/such/cookies.txt")  # fmt: skip
    assert json.loads(out)[0][0]["text"] == "Haooo! HimeHina here!"  # the service fetched it: its operator's proxies
