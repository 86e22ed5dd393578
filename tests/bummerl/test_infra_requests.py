"""Requests no page can take are refused early and clearly: an import's size, deals and
strings are limited; a NUL or a broken character anywhere in an import names its field;
a form sent in another charset than UTF-8 gets a 400, never a server error."""

import json
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scoring.models import Sheet
from tests import factories

NOT_TEXT = "enthält ein Zeichen, das kein Text ist (ein NUL oder ein kaputtes)."


def document(**extra) -> dict:
    return {
        "variant": "schnapsen",
        "rule_set": "wiki",
        "players": ["Anna", "Ben"],
        "deals": [{"winner": "Anna", "points": 2}],
        **extra,
    }


@pytest.fixture
def club_client(db):
    club = factories.club()
    factories.presets()
    client = Client()
    client.force_login(factories.user(club, role="scorer"))
    return club, client


def post_import(club_client, text: str, **files):
    club, client = club_client
    url = reverse("import_table", kwargs={"slug": club.slug})
    data = {"document": text, "key": factories.key(), **files}
    return client.post(url, data)


def errors(response) -> list[str]:
    form = response.context["form"]
    return [str(e) for e in form.errors.get("document", [])] + [
        str(e) for e in form.errors.get("file", [])
    ]


def test_a_plain_import_still_works(club_client):
    response = post_import(club_client, json.dumps(document(about="Ein Abend")))
    assert response.status_code == 302
    assert Sheet.objects.count() == 1


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        (document(about="a\x00b"), "about"),
        (document(about="\ud800"), "about"),
        (document(title="Abend\x00"), "title"),
        (document(players=["Anna", "Be\x00n"]), "players[1]"),
        (document(players=["Anna", "Ben\udfff"]), "players[1]"),
        (
            document(deals=[{"winner": "Anna", "points": 2}, {"winner": "\ud83d"}]),
            "deals[1].winner",
        ),
        (document(tally={"An\x00na": 1, "Ben": 0}), "tally.An?na"),
        (document(expect={"x": ["ok", "\x00"]}), "expect.x[1]"),
        (document(rule_set={"preset": "wiki", "options": {"\ud800": 1}}), "rule_set.options.?"),
        (document(current={"dealer": "Anna", "totals": {"Anna": "\x00"}}), "current.totals.Anna"),
    ],
)
def test_a_nul_or_a_lone_surrogate_anywhere_is_refused_naming_the_field(club_client, doc, field):
    response = post_import(club_client, json.dumps(doc))
    assert response.status_code == 200
    assert errors(response) == [f"{field} {NOT_TEXT}"]
    assert not Sheet.objects.exists()


def test_every_string_of_an_import_is_limited_in_length(club_client, settings):
    settings.BUMMERL_MAX_TEXT = 50
    response = post_import(club_client, json.dumps(document(about="x" * 51)))
    assert errors(response) == ["about ist länger als 50 Zeichen."]
    response = post_import(club_client, json.dumps(document(expect={"y" * 51: 1})))
    assert errors(response) == [f"expect.{'y' * 51} ist länger als 50 Zeichen."]
    response = post_import(club_client, json.dumps(document(about="x" * 50)))
    assert response.status_code == 302


def test_a_sheet_has_at_most_the_set_number_of_deals(club_client, settings):
    settings.BUMMERL_MAX_DEALS = 3
    deals = [{"winner": "Anna", "points": 1}, {"winner": "Ben", "points": 1}] * 2
    response = post_import(club_client, json.dumps(document(deals=deals)))
    assert errors(response) == ["Ein Blatt hat höchstens 3 Spiele; dieses hat 4."]
    assert not Sheet.objects.exists()
    response = post_import(club_client, json.dumps(document(deals=deals[:3])))
    assert response.status_code == 302


def test_the_default_limits_refuse_a_huge_sheet_before_scoring_it(club_client):
    deals = [{"winner": "Anna", "points": 1}, {"winner": "Ben", "points": 1}] * 550
    response = post_import(club_client, json.dumps(document(deals=deals)))
    assert errors(response) == ["Ein Blatt hat höchstens 1000 Spiele; dieses hat 1100."]


def test_an_import_larger_than_the_limit_is_refused_by_the_form(club_client, settings):
    settings.BUMMERL_IMPORT_MAX_BYTES = 4 * 1024
    text = json.dumps(document(about="x" * 900, expect=["y" * 900] * 4))
    assert len(text) > 4 * 1024
    response = post_import(club_client, text)
    assert errors(response) == ["Ein Blatt zum Importieren hat höchstens 4 kB."]
    upload = SimpleUploadedFile("blatt.json", text.encode(), content_type="application/json")
    response = post_import(club_client, "", file=upload)
    assert errors(response) == ["Ein Blatt zum Importieren hat höchstens 4 kB."]
    assert not Sheet.objects.exists()


def test_a_file_within_the_limit_is_read_whole(club_client):
    text = json.dumps(document(about="x" * 900))
    upload = SimpleUploadedFile("blatt.json", text.encode(), content_type="application/json")
    response = post_import(club_client, "", file=upload)
    assert response.status_code == 302


def test_a_request_over_the_limits_is_refused_before_its_body_is_read(club_client, settings):
    """The 1.8 MB sheet of 110,000 deals: refused at the door with the limit named."""
    club, client = club_client
    players = ["Anna", "Ben", "Clara"]
    doc = document(variant="dreierschnapsen", players=players, deals=[{"redeal": True}] * 110_000)
    text = json.dumps(doc, separators=(",", ":"))
    assert 1_700_000 < len(text) < 1_900_000
    url = reverse("import_table", kwargs={"slug": club.slug})
    response = client.post(url, {"document": text, "key": factories.key()})
    assert response.status_code == 413
    body = response.content.decode()
    size = -(-int(response.wsgi_request.META["CONTENT_LENGTH"]) // 1024)
    assert body == (
        f"Die Anfrage ist zu groß ({size} kB): ein Blatt zum Importieren hat höchstens 1024 kB."
    )
    upload = SimpleUploadedFile("blatt.json", text.encode(), content_type="application/json")
    response = client.post(url, {"document": "", "key": factories.key(), "file": upload})
    assert response.status_code == 413
    assert not Sheet.objects.exists()


def test_a_file_just_over_the_import_limit_is_refused_by_the_form(club_client):
    text = json.dumps(document(about="x" * 1000, expect=["y" * 1000] * 1100))
    assert 1024 * 1024 < len(text) < 1088 * 1024
    upload = SimpleUploadedFile("blatt.json", text.encode(), content_type="application/json")
    response = post_import(club_client, "", file=upload)
    assert errors(response) == ["Ein Blatt zum Importieren hat höchstens 1024 kB."]


def test_the_score_command_applies_the_same_limits(tmp_path, settings):
    from django.core.management import CommandError, call_command

    settings.BUMMERL_MAX_DEALS = 1
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(document(deals=[{"winner": "Anna", "points": 1}] * 2)))
    with pytest.raises(CommandError, match="deals: A sheet has at most 1 deals; this one has 2"):
        call_command("score", str(path))


@pytest.mark.django_db
def test_an_export_of_a_sheet_over_the_deal_limit_still_works(settings):
    from scoring import services
    from scoring.rules import QuickDeal

    club = factories.club()
    sheet = factories.sheet(club, names=("Anna", "Ben"))
    actor = services.Actor(factories.user(club, role="scorer"))
    for winner in (0, 1, 0):
        services.record_entry(sheet, QuickDeal(winner=winner, points=1), uuid.uuid4(), actor)
    settings.BUMMERL_MAX_DEALS = 2
    client = Client()
    client.force_login(actor.user)
    response = client.get(reverse("sheet:export", kwargs={"pk": sheet.pk}))
    assert response.status_code == 200
    assert len(response.json()["deals"]) == 3


# The charset of a form ------------------------------------------------------------------

CHARSET_BODY = (
    b'--xx\r\nContent-Disposition: form-data; name="name"\r\n\r\nJ\xc3\xbcrgen\r\n--xx--\r\n'
)


@pytest.mark.parametrize(
    "content_type",
    [
        "multipart/form-data; boundary=xx; charset=base64",
        "multipart/form-data; boundary=xx; charset=x-nonsense",
        "multipart/form-data; boundary=xx; charset=utf-16",
        "multipart/form-data; boundary=xx; charset=latin-1",
        "application/x-www-form-urlencoded; charset=rot13",
        "application/x-www-form-urlencoded; charset=x-nonsense",
        "text/plain; charset=zlib",
    ],
)
def test_a_form_in_another_charset_than_utf8_gets_400(club_client, content_type):
    club, client = club_client
    client.raise_request_exception = False
    url = reverse("players", kwargs={"slug": club.slug})
    response = client.generic("POST", url, data=CHARSET_BODY, content_type=content_type)
    assert response.status_code == 400
    assert response.content.decode() == (
        "Das Formular wurde nicht in UTF-8 gesendet (anderer Zeichensatz)."
    )
    assert not club.players.filter(name="Jürgen").exists()


@pytest.mark.parametrize("charset", ["utf-8", "UTF-8", "utf8", '"utf-8"'])
def test_a_form_in_utf8_named_any_way_is_taken(club_client, charset):
    club, client = club_client
    url = reverse("players", kwargs={"slug": club.slug})
    content_type = f"multipart/form-data; boundary=xx; charset={charset}"
    response = client.generic("POST", url, data=CHARSET_BODY, content_type=content_type)
    assert response.status_code == 302
    assert club.players.filter(name="Jürgen").exists()
