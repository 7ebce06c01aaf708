"""How long the client waits before trying again: the answer's Retry-After (seconds or an HTTP date), bounded by
max_retry_wait, never for a POST that does new work unless asked. The real service's 429 is in test_client.py; here the
answers are scripted (httpx.MockTransport) and the waits recorded instead of slept."""

import asyncio
from email.utils import format_datetime
from datetime import datetime, timedelta, timezone

import httpx
import pytest

import subtext
from subtext import AsyncSubtext, Subtext

BUSY = {"error": {"code": "SERVICE_BUSY", "message": "busy"}}
LIMITED = {"error": {"code": "RATE_LIMITED", "message": "slow down"}}


def scripted(*answers: httpx.Response) -> tuple[httpx.MockTransport, list[httpx.Request]]:
    seen: list[httpx.Request] = []
    queue = list(answers)

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return queue.pop(0)

    return httpx.MockTransport(handle), seen


@pytest.fixture
def waits(monkeypatch) -> list[float]:
    recorded: list[float] = []
    monkeypatch.setattr("subtext.client.time.sleep", recorded.append)

    async def no_sleep(seconds: float) -> None:
        recorded.append(seconds)

    monkeypatch.setattr("subtext.client.asyncio.sleep", no_sleep)
    return recorded


def test_waits_what_retry_after_says_then_answers(waits):
    transport, seen = scripted(
        httpx.Response(503, json=BUSY, headers={"retry-after": "3"}),
        httpx.Response(429, json=LIMITED, headers={"retry-after": "7"}),
        httpx.Response(200, json={"balance": 5}),
    )
    client = Subtext("http://svc", "k", retries=2, backoff=0.01, http_client=httpx.Client(transport=transport))
    assert client.credits() == {"balance": 5}
    assert waits == [3.0, 7.0] and len(seen) == 3


def test_an_http_date_retry_after(waits):
    when = format_datetime(datetime.now(timezone.utc) + timedelta(seconds=30), usegmt=True)
    transport, _ = scripted(httpx.Response(429, json=LIMITED, headers={"retry-after": when}), httpx.Response(200, json={}))
    Subtext("http://svc", "k", backoff=0.01, http_client=httpx.Client(transport=transport)).credits()
    assert len(waits) == 1 and 25 <= waits[0] <= 30


def test_bounded_in_count_and_in_wait(waits):
    transport, seen = scripted(*[httpx.Response(429, json=LIMITED, headers={"retry-after": "600"})] * 3)
    client = Subtext("http://svc", "k", retries=2, max_retry_wait=5, http_client=httpx.Client(transport=transport))
    with pytest.raises(subtext.RateLimitedError) as caught:
        client.credits()
    assert waits == [5, 5] and len(seen) == 3 and caught.value.retry_after == 600


def test_no_retry_after_backs_off_exponentially(waits):
    transport, _ = scripted(*[httpx.Response(503, json=BUSY)] * 3)
    client = Subtext("http://svc", "k", retries=2, backoff=1, http_client=httpx.Client(transport=transport))
    with pytest.raises(subtext.ServiceBusyError):
        client.credits()
    assert 1 <= waits[0] <= 1.25 and 2 <= waits[1] <= 2.5


def test_a_post_that_does_new_work_is_retried_only_when_asked(waits):
    transport, seen = scripted(*[httpx.Response(503, json=BUSY, headers={"retry-after": "1"})] * 4)
    client = Subtext("http://svc", "k", retries=1, http_client=httpx.Client(transport=transport))
    with pytest.raises(subtext.ServiceBusyError):
        client.summarize("GJLlxj_dtq8", "en")
    assert len(seen) == 1 and waits == []
    with pytest.raises(subtext.ServiceBusyError):
        client.summarize("GJLlxj_dtq8", "en", retry=True)
    assert len(seen) == 3 and waits == [1.0]
    always = Subtext("http://svc", "k", retries=0, retry_non_idempotent=True, http_client=httpx.Client(transport=transport))
    with pytest.raises(subtext.ServiceBusyError):
        always.summarize("GJLlxj_dtq8", "en")


def test_the_async_client_waits_the_same(waits):
    transport, _ = scripted(httpx.Response(429, json=LIMITED, headers={"retry-after": "2"}), httpx.Response(200, json={}))

    async def main() -> None:
        async with AsyncSubtext("http://svc", "k", http_client=httpx.AsyncClient(transport=transport)) as client:
            assert await client.credits() == {}

    asyncio.run(main())
    assert waits == [2.0]
