"""The service under test is started by test/clients/python-client.test.ts, which passes its URL and keys here."""

import json
import os

import pytest

IDS: dict[str, str] = json.loads(os.environ.get("SUBTEXT_TEST_IDS", "{}"))


def env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set: run this suite through test/clients/python-client.test.ts")
    return value


@pytest.fixture
def ids() -> dict[str, str]:
    return IDS


@pytest.fixture
def url() -> str:
    return env("SUBTEXT_URL")


@pytest.fixture
def key() -> str:
    return env("SUBTEXT_API_KEY")
