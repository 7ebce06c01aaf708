"""Frames, listings, batches and a signed webhook delivery, each through the real service."""

import base64
import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

import subtext
from subtext import Subtext, verify_webhook
from conftest import env

BROWSE: dict = json.loads(os.environ.get("SUBTEXT_TEST_BROWSE", "{}"))
JPEG = b"\xff\xd8\xff"


def test_frames_as_bytes_and_base64(url, key):
    client = Subtext(url, key)
    answer = client.frames(env("SUBTEXT_TEST_MEDIA_URL"), [0.5, 2.5], width=160, include_base64=True)
    first, second = answer["frames"]
    images = [base64.b64decode(f["base64"]) for f in (first, second)]
    assert all(i.startswith(JPEG) for i in images)
    assert images[0] != images[1]  # the generated clip shows other colours each second
    media_id = answer["videoId"]
    one = client.frames(media_id, 0.5)
    assert len(one["frames"]) == 1 and "base64" not in one["frames"][0]
    image = client.frame_image(media_id, 0.5, width=160)
    assert isinstance(image, bytes) and image == images[0]


def test_playlist_channel_and_search_listings(url, key):
    client = Subtext(url, key)
    playlist = BROWSE["playlist"]
    first = client.playlist_videos(f"https://www.youtube.com/playlist?list={playlist['id']}")
    assert first["playlist"]["playlistId"] == playlist["id"]
    assert len(first["items"]) == playlist["pages"][0]
    second = client.playlist_videos(playlist["id"], cursor=first["nextCursor"])
    assert len(second["items"]) == playlist["pages"][1] and second["nextCursor"] is None
    channel = client.channel_videos(BROWSE["channelVideos"]["user"])
    assert channel["channel"]["channelId"] == BROWSE["channelVideos"]["id"]
    assert len(channel["items"]) == BROWSE["channelVideos"]["recordedPages"][0]
    found = client.youtube_search(BROWSE["search"]["query"])
    assert len(found["items"]) == BROWSE["search"]["recordedPages"][0] and found["nextCursor"]


class Deliveries(HTTPServer):
    """A callback receiver on loopback: every delivery's headers and exact body."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Receive)
        self.received: list[tuple[dict[str, str], bytes]] = []
        self.arrived = threading.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/hooks"


class Receive(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["content-length"]))
        server: Deliveries = self.server  # type: ignore[assignment]
        server.received.append((dict(self.headers.items()), body))
        server.arrived.set()
        self.send_response(200)
        self.end_headers()

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def receiver() -> Iterator[Deliveries]:
    server = Deliveries()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()


def test_a_batch_s_signed_delivery(url, key, ids, receiver):
    client = Subtext(url, key)
    batch = client.create_batch(videos=[ids["captions9"], ids["noCaptions"]], callback_url=receiver.url)
    assert batch["id"].startswith("bat_") and batch["counts"]["total"] == 2
    assert receiver.arrived.wait(30), "no delivery"
    headers, body = receiver.received[0]
    event = verify_webhook(env("SUBTEXT_TEST_WEBHOOK_SECRET"), body, headers)
    assert (event["type"], event["data"]["id"]) == ("job.completed", batch["id"])
    with pytest.raises(subtext.WebhookVerificationError):
        verify_webhook(env("SUBTEXT_TEST_WEBHOOK_SECRET"), body.replace(b"job.completed", b"job.failed"), headers)
    done = client.batch(batch["id"])
    assert done["status"] == "succeeded"
    assert (done["counts"]["succeeded"], done["counts"]["failed"]) == (1, 1)


def test_a_cancelled_batch_is_free(url, key):
    client = Subtext(url, key)
    batch = client.create_batch(playlist=BROWSE["playlist"]["id"], max_videos=20)
    assert batch["counts"]["total"] == 20
    cancelled = client.cancel_batch(batch["id"])
    assert cancelled["counts"]["queued"] == 0 and cancelled["counts"]["cancelled"] > 0
    assert client.batch(batch["id"])["creditsCharged"] == 0
    with pytest.raises(subtext.SubtextError) as missing:
        client.batch("bat_doesnotexist")
    assert missing.value.status == 404


def test_watches_created_listed_read_and_deleted(url, key):
    client = Subtext(url, key)
    watch = client.create_watch(search=BROWSE["search"]["query"], interval_seconds=86_400)
    assert watch["id"].startswith("wat_") and watch["target"]["search"] == {"query": BROWSE["search"]["query"]}
    assert watch["id"] in [w["id"] for w in client.watches()["watches"]]
    assert client.watch(watch["id"])["intervalSeconds"] == 86_400
    assert client.delete_watch(watch["id"]) == {"id": watch["id"], "deleted": True}
    with pytest.raises(subtext.SubtextError) as gone:
        client.watch(watch["id"])
    assert gone.value.status == 404
