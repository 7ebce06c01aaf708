"""Subtext (sync) and AsyncSubtext (async): the transport under the operations generated from the OpenAPI document
(_operations.py, _async_operations.py; see _operations.OPERATIONS), paging helpers and job polling."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx

from ._async_operations import AsyncOperations
from ._operations import Operations
from ._request import Request, Settings, headers, may_retry, result, settings, wait_before_retry
from .types import Article, Job

DEFAULT_POLL = 2.0  # GET /jobs/{id}: "poll every few seconds"


class JobTimeout(TimeoutError):
    def __init__(self, job: Job) -> None:
        super().__init__(f"job {job['id']} still {job['status']}")
        self.job = job


def _job_of(job: Job | dict[str, Any] | str) -> str:
    if isinstance(job, str):
        return job
    inner = job.get("job")
    return str(inner["id"] if isinstance(inner, dict) else job["id"])


def _done(job: Job) -> bool:
    return job["status"] in ("succeeded", "failed")


def _options(
    url: str | None, key: str | None, timeout: float, retries: int, backoff: float, max_retry_wait: float, retry_posts: bool
) -> Settings:
    return settings(url, key, timeout, retries, backoff, max_retry_wait, retry_posts)


class Subtext(Operations):
    """The sync client. `url`/`key` default to SUBTEXT_URL / SUBTEXT_API_KEY."""

    def __init__(
        self,
        url: str | None = None,
        key: str | None = None,
        *,
        timeout: float = 60.0,
        retries: int = 2,
        backoff: float = 0.5,
        max_retry_wait: float = 60.0,
        retry_non_idempotent: bool = False,
        http_client: httpx.Client | None = None,
    ) -> None:
        self.settings = _options(url, key, timeout, retries, backoff, max_retry_wait, retry_non_idempotent)
        self._http = http_client or httpx.Client(timeout=timeout)
        self.jobs = Jobs(self)

    def _call(self, req: Request, retry: bool | None = None) -> Any:
        retrying = may_retry(self.settings, req, retry)
        attempt = 0
        while True:
            response = self._http.request(
                req.method,
                self.settings.url + req.path,
                params=req.params or None,
                json=req.body,
                headers=headers(self.settings),
                timeout=self.settings.timeout,
            )
            wait = wait_before_retry(self.settings, response, attempt) if retrying else None
            if wait is None:
                return result(req, response)
            attempt += 1
            time.sleep(wait)

    def iter_articles(self, query: str | None = None, **kw: Any) -> Iterator[Article]:
        """Every article of a search, page after page (by nextCursor)."""
        cursor = None
        while True:
            page = self.search_articles(query, cursor=cursor, **kw)
            yield from page["results"]
            cursor = page.get("nextCursor")
            if not cursor:
                return

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Subtext:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class Jobs:
    def __init__(self, client: Subtext) -> None:
        self._client = client

    def get(self, job: Job | dict[str, Any] | str) -> Job:
        return self._client.job(_job_of(job))

    def wait(self, job: Job | dict[str, Any] | str, timeout: float = 600.0, poll_interval: float = DEFAULT_POLL) -> Job:
        """Polls until the job succeeds or fails, every poll_interval seconds (the service advises every few)."""
        until = time.monotonic() + timeout
        while True:
            current = self.get(job)
            if _done(current):
                return current
            if time.monotonic() + poll_interval > until:
                raise JobTimeout(current)
            time.sleep(poll_interval)


class AsyncSubtext(AsyncOperations):
    """The async client: the same methods as Subtext, each awaited."""

    def __init__(
        self,
        url: str | None = None,
        key: str | None = None,
        *,
        timeout: float = 60.0,
        retries: int = 2,
        backoff: float = 0.5,
        max_retry_wait: float = 60.0,
        retry_non_idempotent: bool = False,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self.settings = _options(url, key, timeout, retries, backoff, max_retry_wait, retry_non_idempotent)
        self._http = http_client or httpx.AsyncClient(timeout=timeout)
        self.jobs = AsyncJobs(self)

    async def _call(self, req: Request, retry: bool | None = None) -> Any:
        retrying = may_retry(self.settings, req, retry)
        attempt = 0
        while True:
            response = await self._http.request(
                req.method,
                self.settings.url + req.path,
                params=req.params or None,
                json=req.body,
                headers=headers(self.settings),
                timeout=self.settings.timeout,
            )
            wait = wait_before_retry(self.settings, response, attempt) if retrying else None
            if wait is None:
                return result(req, response)
            attempt += 1
            await asyncio.sleep(wait)

    async def iter_articles(self, query: str | None = None, **kw: Any) -> AsyncIterator[Article]:
        cursor = None
        while True:
            page = await self.search_articles(query, cursor=cursor, **kw)
            for article in page["results"]:
                yield article
            cursor = page.get("nextCursor")
            if not cursor:
                return

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncSubtext:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()


class AsyncJobs:
    def __init__(self, client: AsyncSubtext) -> None:
        self._client = client

    async def get(self, job: Job | dict[str, Any] | str) -> Job:
        return await self._client.job(_job_of(job))

    async def wait(
        self, job: Job | dict[str, Any] | str, timeout: float = 600.0, poll_interval: float = DEFAULT_POLL
    ) -> Job:
        until = time.monotonic() + timeout
        while True:
            current = await self.get(job)
            if _done(current):
                return current
            if time.monotonic() + poll_interval > until:
                raise JobTimeout(current)
            await asyncio.sleep(poll_interval)
