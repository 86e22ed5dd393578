"""The address a request came from (``client_ip``), and as the limits count it
(``limit_address``: the sign-in lockout of django-axes and the limits of ``base.limits``).

Behind a TLS proxy every connection comes from the proxy, and the visitor's address is
only in ``X-Forwarded-For``, a header anyone can send. It is believed only from a
trusted proxy: ``settings.TRUSTED_PROXIES`` (``DJANGO_TRUSTED_PROXIES``), a list of
addresses or networks (``127.0.0.1``, ``10.0.0.0/8``, ``::1``).

When the connection (``REMOTE_ADDR``) comes from a trusted proxy, the header is read
from its right end (each proxy appends the address it saw) and the first entry that is
not itself a trusted proxy is the client. Otherwise, and always when no proxy is
trusted, the header is ignored and the client is the connection's address.

A limit counts an IPv6 client by its /64 network: one connection (a home, a phone, a
rented server) gets a whole /64 and may use any address in it, so counting single
addresses would give it 2**64 fresh counts. IPv4 addresses are counted one by one.

django-ipware's trusted-proxy list matches proxies written *into* the header; nginx's
``$proxy_add_x_forwarded_for`` and Caddy write the client there and the proxy's own
address is only the connection's, so that list cannot say "believe this peer".
"""

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    try:
        return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)
    except ValueError as error:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: {error}") from None


def _address(text: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    if not text:
        return None
    text = text.strip()
    if text.startswith("[") and "]" in text:  # "[2001:db8::1]:4711"
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # "203.0.113.9:4711"
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


def trusted_proxies() -> tuple[Network, ...]:
    """The networks of ``settings.TRUSTED_PROXIES``; ``ImproperlyConfigured`` on a typo."""
    return _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ())))


def client_ip(request) -> str | None:
    """The client's address as text (``"203.0.113.9"``), or ``None`` when unknown."""
    remote = request.META.get("REMOTE_ADDR")
    proxies = trusted_proxies()
    peer = _address(remote)
    if not proxies or peer is None or not any(peer in net for net in proxies):
        return remote
    hops = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
    client = peer
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            break  # garbage from the client's side: the last proxy's word stands
        client = address
        if not any(address in net for net in proxies):
            break
    return str(client)


# The host part of an IPv6 address in a /64 network.
_HOST_BITS_64 = (1 << 64) - 1


def limit_address(request) -> str | None:
    """The client's address as the limits count it (``settings.AXES_CLIENT_IP_CALLABLE``):
    ``client_ip``, with an IPv6 address replaced by the first address of its /64 network
    (``"2001:db8:1:2:a:b:c:d"`` -> ``"2001:db8:1:2::"``; an IPv4-mapped one is its IPv4
    address). An IPv4 address is returned as it is, text that is no address as it came,
    None when there is none."""
    text = client_ip(request)
    address = _address(text)
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Address(int(address) & ~_HOST_BITS_64))
    return str(address) if address is not None else text
