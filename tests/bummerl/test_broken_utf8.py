"""A form whose text is not valid UTF-8 is refused as a whole (400, in the visitor's
language: ``bummerl.middleware.RefuseBrokenTextMiddleware``), urlencoded or multipart,
instead of being stored with U+FFFD where the broken bytes were."""

from urllib.parse import urlencode

import pytest
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
from django.urls import reverse

from tests import factories
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
REFUSED_DE = (
    "Das Formular enthielt Zeichen, die kein UTF-8 sind: nichts wurde gespeichert. "
    "Lade die Seite neu und schick es noch einmal."
)
REFUSED_EN = (
    "The form held characters that are not UTF-8: nothing was saved. Reload the page and "
    "send it again."
)
NIGHT = {
    "name": "NAME",
    "day": "2026-12-04",
    "time": "19:00",
    "cards": 16,
    "max_cards": 1,
    "match_bummerl": 2,
    "entry_fee": "5",
    "prizes": "1: Korb",
}


def organiser():
    club = factories.club()
    return club, factories.signed_in(factories.user(club))


def urlencoded(client, url, name: bytes):
    body = urlencode(NIGHT).encode().replace(b"NAME", name)
    return client.generic("POST", url, body, "application/x-www-form-urlencoded")


def multipart(client, url, name: bytes):
    body = encode_multipart(BOUNDARY, NIGHT).replace(b"NAME", name)
    return client.generic("POST", url, body, MULTIPART_CONTENT)


@pytest.mark.parametrize(
    ("send", "name"),
    [
        (urlencoded, b"Abend%FF%FE"),  # an escape of bytes that are no UTF-8
        (urlencoded, b"Abend\xe4"),  # Latin-1 sent as it is
        (urlencoded, b"Abend%C3"),  # a character cut in half
        (multipart, b"Abend\xe4"),
        (multipart, b"Abend\xc3"),
    ],
)
def test_a_title_that_is_not_utf8_is_refused_and_nothing_stored(send, name):
    club, client = organiser()
    response = send(client, reverse("tournaments", kwargs={"slug": club.slug}), name)
    assert response.status_code == 400
    assert response.content.decode() == REFUSED_DE
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert not Tournament.objects.exists()


def test_the_refusal_speaks_the_visitors_language():
    club, client = organiser()
    client.cookies["django_language"] = "en"
    url = reverse("tournaments", kwargs={"slug": club.slug})
    assert urlencoded(client, url, b"Abend%FF").content.decode() == REFUSED_EN


@pytest.mark.parametrize("send", [urlencoded, multipart])
def test_utf8_titles_are_stored_as_typed_even_a_replacement_character(send):
    club, client = organiser()
    url = reverse("tournaments", kwargs={"slug": club.slug})
    typed = "Preisschnapsen Größing \ufffd"
    name = typed.encode() if send is multipart else urlencode({"n": typed}).encode()[2:]
    assert send(client, url, name).status_code == 302
    assert Tournament.objects.get().name == typed
