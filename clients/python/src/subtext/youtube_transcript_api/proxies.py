"""youtube-transcript-api 1.x's proxy settings, so that code building them keeps working. The service fetches from
YouTube, so its operator sets the proxies (docs/configuration.md); YouTubeTranscriptApi accepts these and ignores them."""

from __future__ import annotations

from collections.abc import Sequence


class InvalidProxyConfig(Exception):
    pass


class ProxyConfig:
    """The base of the proxy settings; here they describe the caller's wish, and nothing is sent through them."""

    def to_requests_dict(self) -> dict[str, str]:
        raise NotImplementedError

    @property
    def prevent_keeping_connections_alive(self) -> bool:
        return False

    @property
    def retries_when_blocked(self) -> int:
        return 0


class GenericProxyConfig(ProxyConfig):
    def __init__(self, http_url: str | None = None, https_url: str | None = None) -> None:
        if not http_url and not https_url:
            raise InvalidProxyConfig("GenericProxyConfig needs http_url or https_url")
        self.http_url = http_url
        self.https_url = https_url

    def to_requests_dict(self) -> dict[str, str]:
        return {"http": self.http_url or self.https_url or "", "https": self.https_url or self.http_url or ""}


class WebshareProxyConfig(GenericProxyConfig):
    DEFAULT_DOMAIN_NAME = "p.webshare.io"
    DEFAULT_PORT = 80

    def __init__(
        self,
        proxy_username: str,
        proxy_password: str,
        filter_ip_locations: Sequence[str] | None = None,
        retries_when_blocked: int = 10,
        domain_name: str = DEFAULT_DOMAIN_NAME,
        proxy_port: int = DEFAULT_PORT,
    ) -> None:
        self.proxy_username = proxy_username
        self.proxy_password = proxy_password
        self.filter_ip_locations = list(filter_ip_locations or [])
        self._retries_when_blocked = retries_when_blocked
        self.domain_name = domain_name
        self.proxy_port = proxy_port
        url = f"http://{proxy_username}-rotate:{proxy_password}@{domain_name}:{proxy_port}/"
        super().__init__(http_url=url, https_url=url)

    @property
    def prevent_keeping_connections_alive(self) -> bool:
        return True

    @property
    def retries_when_blocked(self) -> int:
        return self._retries_when_blocked
