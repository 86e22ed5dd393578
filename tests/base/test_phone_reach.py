"""QR codes and links for phones that start with an address no phone reaches (the laptop
opened by 127.0.0.1 or localhost) say so on every page and printout that carries them
(``base.links.unreachable_host``, ``phones_warning``); opened by the laptop's network
address, or with ``DJANGO_SITE_URL`` a real host, nothing is said."""

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from base.links import is_loopback, phones_warning, unreachable_host
from clubs.models import Membership
from scoring.services import Actor
from tests import factories
from tests.base.test_printing import pdf_of, text_of
from tournaments.services.draws import draw_round

pytestmark = pytest.mark.django_db

WARNING = (
    "Diese QR-Codes und Links zeigen auf 127.0.0.1: Handys erreichen diese Adresse nicht. "
    "Die Seite über die Netzwerkadresse des Laptops öffnen (z. B. http://192.168.1.20:8000/)."
)
LAN = "192.168.1.20:8000"
LOOPBACK = "127.0.0.1:8000"


@pytest.fixture(autouse=True)
def laptop(settings):
    """The pub laptop (``make run``): any host allowed, no site address."""
    settings.ALLOWED_HOSTS = ["*"]
    settings.SITE_URL = ""


def request_by(host: str):
    return RequestFactory().get("/", HTTP_HOST=host)


@pytest.mark.parametrize(
    ("host", "unreachable"),
    [
        ("127.0.0.1:8000", "127.0.0.1"),
        ("127.0.1.1", "127.0.1.1"),
        ("localhost:8000", "localhost"),
        ("LOCALHOST", "localhost"),
        ("bummerl.localhost:8000", "bummerl.localhost"),
        ("[::1]:8000", "::1"),
        ("[::ffff:127.0.0.1]:8000", "::ffff:127.0.0.1"),
        ("0.0.0.0:8000", "0.0.0.0"),
        ("192.168.1.20:8000", None),
        ("10.0.0.5", None),
        ("[fe80::1]:8000", None),
        ("bummerl.example.org", None),
        ("localhost.example.org", None),
    ],
)
def test_the_host_a_page_was_opened_by_decides(host, unreachable):
    assert unreachable_host(request_by(host)) == unreachable


def test_a_real_site_address_is_reached_whatever_host_the_page_was_opened_by(settings):
    settings.SITE_URL = "https://bummerl.example.org"
    assert unreachable_host(request_by(LOOPBACK)) is None
    assert phones_warning(request_by(LOOPBACK)) is None


def test_a_site_address_on_localhost_is_not_reached_even_from_the_network(settings):
    settings.SITE_URL = "http://localhost:8001"
    assert unreachable_host(request_by(LAN)) == "localhost"
    assert phones_warning(request_by(LAN)) == WARNING.replace("127.0.0.1", "localhost").replace(
        ":8000/", ":8001/"
    )


def test_no_address_is_no_loopback():
    assert not is_loopback(None) and not is_loopback("") and not is_loopback("[]")


def test_the_warning_names_the_host_and_the_port_of_the_page():
    assert phones_warning(request_by(LOOPBACK)) == WARNING
    without_port = phones_warning(request_by("localhost"))
    assert without_port.startswith("Diese QR-Codes und Links zeigen auf localhost: ")
    assert without_port.endswith("(z. B. http://192.168.1.20/).")


def as_organiser(user, host: str) -> Client:
    client = Client(HTTP_HOST=host)
    client.force_login(user)
    return client


@pytest.fixture
def night_drawn():
    """An organiser and a drawn 8-card night with its club."""
    factories.presets()
    club = factories.club()
    t = factories.night(club)
    draw_round(t, Actor(), seed=1)
    return factories.user(club, role="owner"), club, t


def pages(club, t, sheet) -> dict[str, str]:
    """Every page with QR codes or links for phones, by what it is."""
    pairing = factories.first_match(t)
    return {
        "table link": reverse("sheet:link", kwargs={"pk": sheet.pk}),
        "players' links": reverse("side_links", args=(club.slug, t.pk, pairing.pk)),
        "round": reverse("round", args=(club.slug, t.pk, 1)),
        "desk": reverse("tournament", args=(club.slug, t.pk)),
        "members": reverse("members", kwargs={"slug": club.slug}),
        "room screen": reverse("room_screen", kwargs={"token": t.public_token}),
    }


@pytest.mark.parametrize(("host", "warned"), [(LOOPBACK, True), (LAN, False)])
def test_every_page_with_links_for_phones_warns_when_opened_by_127_0_0_1(night_drawn, host, warned):
    owner, club, t = night_drawn
    sheet = factories.sheet(club)
    client = as_organiser(owner, host)
    for what, url in pages(club, t, sheet).items():
        response = client.get(url)
        assert response.status_code == 200, what
        html = response.content.decode()
        shown = f'<p class="banner warn phones-unreachable" role="alert">{WARNING}</p>'
        assert (shown in html) is warned, what
        assert html.count("phones-unreachable") == (1 if warned else 0), what


def test_the_reset_link_page_warns(night_drawn):
    owner, club, _t = night_drawn
    member = factories.user(club, role="scorer", username="max")
    membership = Membership.objects.get(user=member)
    url = reverse("member_reset", kwargs={"slug": club.slug, "membership_id": membership.pk})
    html = as_organiser(owner, "localhost:8000").post(url).content.decode()
    assert "http://localhost:8000/accounts/reset/" in html
    assert WARNING.replace("127.0.0.1", "localhost") in html


def test_the_site_address_set_to_a_real_host_warns_nowhere(night_drawn, settings):
    settings.SITE_URL = "https://bummerl.example.org"
    owner, club, t = night_drawn
    client = as_organiser(owner, LOOPBACK)
    for what, url in pages(club, t, factories.sheet(club)).items():
        html = client.get(url).content.decode()
        assert "phones-unreachable" not in html, what
        assert "Handys erreichen diese Adresse nicht" not in html, what


def first_page(response) -> str:
    return " ".join(pdf_of(response).pages[0].extract_text().split())


@pytest.mark.parametrize(("host", "warned"), [(LOOPBACK, True), (LAN, False)])
def test_every_printout_with_qr_codes_warns_on_its_first_page(night_drawn, host, warned):
    owner, club, t = night_drawn
    client = as_organiser(owner, host)
    sheet = factories.sheet(club)
    for url in (
        reverse("sheet:print_blank", kwargs={"pk": sheet.pk}),
        reverse("print_match_sheets", args=(club.slug, t.pk, 1)),
    ):
        text = first_page(client.get(url))
        assert (WARNING in text) is warned, url


def test_a_printout_without_qr_codes_says_nothing(night_drawn):
    owner, club, t = night_drawn
    client = as_organiser(owner, LOOPBACK)
    scorer = as_organiser(factories.user(club, role="member", username="mia"), LOOPBACK)
    sheet = factories.sheet(club)
    blank = text_of(pdf_of(scorer.get(reverse("sheet:print_blank", kwargs={"pk": sheet.pk}))))
    assert "Handys" not in blank
    draw = text_of(pdf_of(client.get(reverse("print_draw", args=(club.slug, t.pk, 1)))))
    assert "Handys" not in draw
