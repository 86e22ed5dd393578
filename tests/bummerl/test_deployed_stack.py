"""The site as a club's server runs it (``tests.serving.deployed``: gunicorn with
``bummerl/gunicorn.conf.py``, the push server, Redis, and Caddy or nginx with the shipped
``deploy/`` files in front), on the test database:

- ten slow clients, sending their headers or their bodies one byte a second, hold their
  connections while a phone's page still answers, behind Caddy, behind nginx and with
  gunicorn alone;
- with the push server stopped, the proxy sends a sheet's version path to the site."""

import urllib.request

import pytest
from django.urls import reverse

from tests import factories
from tests.serving import deployed, why_not_deployed

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
    """GET ``url``: the status, the body and the headers (an error status too)."""
    try:
        with urllib.request.urlopen(url, timeout=PATIENCE) as response:
            return response.status, response.read().decode(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), dict(error.headers)


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
