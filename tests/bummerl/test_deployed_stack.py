"""The site as a club's server runs it (``tests.serving.deployed``: gunicorn with
``bummerl/gunicorn.conf.py``, the push server, Redis, and Caddy or nginx with the shipped
``deploy/`` files in front), on the test database:

- ten slow clients, sending their headers or their bodies one byte a second, hold their
  connections while a phone's page still answers, behind Caddy, behind nginx and with
  gunicorn alone;
- with the push server stopped, the proxy sends a sheet's version path to the site."""

import http.client
from urllib.parse import urlsplit

import pytest
from django.urls import reverse

from scoring.changes import version_of
from scoring.models import deal_rows
from scoring.views.live import HELD_HEADER
from tests import factories
from tests.serving import SLOW, deployed, slow_clients, why_not_deployed

pytestmark = [pytest.mark.django_db(transaction=True)]
REDIS = "redis://127.0.0.1:6379/12"
PATIENCE = 60  # seconds a phone's request may take before the test counts it lost
PROXIES = [
    pytest.param(
        proxy,
        marks=pytest.mark.skipif(bool(why_not_deployed(proxy)), reason=why_not_deployed(proxy)),
    )
    for proxy in ("caddy", "nginx", None)
]


def get(url: str) -> tuple[int, str, dict]:
    """GET ``url`` (a redirect not followed): the status, the body and the headers."""
    address = urlsplit(url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=PATIENCE)
    try:
        connection.request("GET", f"{address.path}?{address.query}")
        response = connection.getresponse()
        return response.status, response.read().decode(), dict(response.headers)
    finally:
        connection.close()


@pytest.fixture
def sheet():
    s = factories.sheet(factories.club(), names=("Anna", "Ben", "Clara"))
    factories.fill(s, count=2)
    return s


@pytest.mark.parametrize("proxy", PROXIES)
def test_the_deployed_site_shows_a_sheet(sheet, proxy):
    with deployed(proxy=proxy, redis_url=REDIS) as site:
        status, body, _ = get(site.url + reverse("entry:page", kwargs={"token": sheet.entry_token}))
    assert status == 200
    assert "Clara" in body


@pytest.mark.parametrize("proxy", PROXIES)
def test_slow_clients_hold_no_worker_a_phones_page_still_answers(sheet, proxy):
    page = reverse("entry:page", kwargs={"token": sheet.entry_token})
    record = reverse("entry:record", kwargs={"token": sheet.entry_token})
    # gunicorn alone holds for sure against fewer slow senders than one worker has threads
    # (one worker may accept them all): 5 + 5 there, 10 + 10 behind a proxy.
    count = SLOW if proxy else 5
    with (
        deployed(proxy=proxy, redis_url=REDIS) as site,
        slow_clients(site.url, page, record, count),
    ):
        answers = [get(site.url + page) for _ in range(3)]
    for status, body, _ in answers:
        assert status == 200
        assert "Clara" in body and f'data-version="{version_of(deal_rows(sheet.pk))}"' in body


@pytest.mark.parametrize("proxy", PROXIES[:2])
def test_with_the_push_server_stopped_the_proxy_sends_the_version_paths_to_the_site(sheet, proxy):
    """Both version paths, the private link's and the table's (here asked signed out),
    answer from gunicorn at once, as gunicorn itself answers them."""
    version = version_of(deal_rows(sheet.pk))
    entry = reverse("entry:version", kwargs={"token": sheet.entry_token})
    table = reverse("sheet:version", kwargs={"pk": sheet.pk})
    with deployed(proxy=proxy, redis_url=REDIS) as site:
        site.push.stop()
        answers = [get(f"{site.url}{entry}?seen={version}") for _ in range(3)]
        signed_out = get(f"{site.url}{table}?seen={version}")
        direct = get(f"{site.site.url}{table}?seen={version}")
        site.push.start()
    for status, body, headers in answers:
        assert status == 200
        assert body == version
        assert HELD_HEADER not in headers  # a poll's answer: the site's, not a held one
    assert signed_out[0] == direct[0] == 302
    assert signed_out[2]["Location"] == direct[2]["Location"]
