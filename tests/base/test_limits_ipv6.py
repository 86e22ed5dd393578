"""The sign-in lock counts an IPv6 visitor by his /64 network (``base.clientip.
limit_address``): one connection gets a whole /64, so rotating addresses in it earns no
fresh guesses. IPv4 addresses are counted one by one, as before."""

import pytest
from axes.models import AccessAttempt
from django.test import Client, RequestFactory
from django.urls import reverse

from base.clientip import limit_address
from tests import factories

pytestmark = pytest.mark.django_db
PROXY = "::1"


def sign_in(password: str, address: str, **extra):
    return Client().post(
        reverse("login"), {"username": "anna", "password": password}, REMOTE_ADDR=address, **extra
    )


@pytest.fixture
def anna():
    return factories.user(username="anna")


def test_five_wrong_passwords_from_five_addresses_of_one_64_lock_the_sixth(anna):
    for n in range(1, 5):
        assert sign_in("wrong", f"2001:db8:1:2::{n:x}").status_code == 200
    sign_in("wrong", "2001:db8:1:2::5")  # the fifth: the lock closes
    # The sixth address of the same /64, even with the right password, is locked out.
    locked = sign_in("pw-anna", "2001:db8:1:2:ffff:ffff:ffff:fffe")
    assert locked.status_code == 429
    assert "Die Anmeldung für diesen Namen ist für 15 Minuten gesperrt." in locked.content.decode()
    # One count for the /64 (the locked sixth try counts too), kept under its first address.
    attempt = AccessAttempt.objects.get()
    assert (attempt.username, attempt.ip_address, attempt.failures_since_start) == (
        "anna",
        "2001:db8:1:2::",
        6,
    )


def test_two_64s_are_counted_apart(anna):
    for n in range(1, 6):
        sign_in("wrong", f"2001:db8:1:2::{n}")
    assert sign_in("wrong", "2001:db8:1:2::99").status_code == 429
    # The neighbouring /64 (another connection) signs in.
    assert sign_in("pw-anna", "2001:db8:1:3::1").status_code == 302
    assert sorted(AccessAttempt.objects.values_list("ip_address", flat=True)) == ["2001:db8:1:2::"]


def test_ipv4_addresses_are_still_counted_one_by_one(anna):
    for n in range(1, 6):
        assert sign_in("wrong", f"203.0.113.{n}").status_code == 200
    # Five addresses with one wrong password each: a sixth address signs in.
    assert sign_in("pw-anna", "203.0.113.6").status_code == 302
    assert AccessAttempt.objects.filter(ip_address="203.0.113.1").get().failures_since_start == 1
    # Five wrong passwords from one address lock that address only.
    for _ in range(5):
        sign_in("wrong", "198.51.100.7")
    assert sign_in("pw-anna", "198.51.100.7").status_code == 429
    assert sign_in("pw-anna", "198.51.100.8").status_code == 302


def test_behind_a_trusted_proxy_the_forwarded_ipv6_address_is_counted_by_its_64(anna, settings):
    settings.TRUSTED_PROXIES = [PROXY]
    for n in range(1, 6):
        sign_in("wrong", PROXY, HTTP_X_FORWARDED_FOR=f"2001:db8:aa:bb::{n}")
    assert sign_in("pw-anna", PROXY, HTTP_X_FORWARDED_FOR="2001:db8:aa:bb::77").status_code == 429
    assert sign_in("pw-anna", PROXY, HTTP_X_FORWARDED_FOR="2001:db8:aa:bc::1").status_code == 302


@pytest.mark.parametrize(
    ("remote", "counted"),
    [
        ("2001:db8:1:2:a:b:c:d", "2001:db8:1:2::"),
        ("2001:DB8:1:2::1", "2001:db8:1:2::"),
        ("2001:db8::1", "2001:db8::"),
        ("fe80::1%eth0", "fe80::"),
        ("::ffff:203.0.113.9", "203.0.113.9"),
        ("203.0.113.9", "203.0.113.9"),
        ("not an address", "not an address"),
        ("", ""),
    ],
)
def test_the_counted_address(remote, counted, settings):
    settings.TRUSTED_PROXIES = []
    request = RequestFactory().get("/", REMOTE_ADDR=remote)
    assert limit_address(request) == counted


def test_the_lock_is_told_to_count_by_limit_address(settings):
    assert settings.AXES_CLIENT_IP_CALLABLE == "base.clientip.limit_address"
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]


# -- the other limit on the client's address: new printouts of an anonymous visitor ------


def test_new_printouts_of_anonymous_visitors_are_counted_by_their_64(settings):
    """A public ranking's PDF (no link, no account) is counted per address
    (``base.printing.render_lanes``): an IPv6 visitor by his /64."""
    import datetime

    from seasons.models import RankingSettings, Season

    settings.TRUSTED_PROXIES = []
    settings.PRINT_RENDERS = 2
    club = factories.club()
    RankingSettings.objects.create(club=club, public=True)
    seasons = [
        Season.objects.create(
            club=club,
            name=str(year),
            first_day=datetime.date(year, 1, 1),
            last_day=datetime.date(year, 12, 31),
        )
        for year in range(2021, 2027)
    ]

    def printed(season, address):
        url = reverse("seasons:print", kwargs={"slug": club.slug, "season_id": season.pk})
        return Client().get(url, REMOTE_ADDR=address).status_code

    # Two new printouts from two addresses of one /64 ...
    assert printed(seasons[0], "2001:db8:5:6::1") == 200
    assert printed(seasons[1], "2001:db8:5:6::2") == 200
    # ... and a third address of it is refused a third, the next /64 is not.
    assert printed(seasons[2], "2001:db8:5:6::3") == 429
    assert printed(seasons[2], "2001:db8:5:7::1") == 200
    # IPv4: each address counts alone.
    assert printed(seasons[3], "203.0.113.1") == 200
    assert printed(seasons[4], "203.0.113.1") == 200
    assert printed(seasons[5], "203.0.113.1") == 429
    assert printed(seasons[5], "203.0.113.2") == 200
