"""Hostile and clumsy input: no server error, every refusal names what is wrong."""

import json
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.urls import reverse

from scoring import services
from scoring.models import Deal
from scoring.rules import DreierDeal, RuleError
from scoring.sheetjson import parse_document
from tests import factories

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def table(client):
    club = factories.signed_in_club(client)
    return factories.sheet(club)


def test_every_form_on_the_sheet_has_its_own_key(client, table):
    html = client.get(reverse("sheet:page", kwargs={"pk": table.pk})).content.decode()
    keys = re.findall(r'name="key" value="([0-9a-f-]{36})"', html)
    assert len(keys) == 2 and len(set(keys)) == 2  # the deal form and the redeal form


def test_a_spritzen_level_left_over_from_another_contract_is_dropped_on_the_normal_game(
    client, table
):
    client.post(
        reverse("sheet:record", kwargs={"pk": table.pk}),
        {
            "key": factories.key(),
            "kind": "dreier",
            "declarer": 1,
            "contract": "normal",
            "normal_points": 2,
            "spritzen": 1,
            "won": 1,
        },
        headers={"HX-Request": "true"},
    )
    assert [d.points for d in Deal.objects.filter(sheet=table)] == [[0, 2, 0]]


def test_a_refused_tiebreak_correction_says_why(client, table):
    # Ben (Rufer) wins a Trumpfringerl: Anna and Clara tie at 0; Clara wins the tie-break.
    services.record_entry(
        table, DreierDeal("trumpfringerl", 1, True), uuid.uuid4(), services.Actor()
    )
    from scoring.rules import TieBreak

    services.record_entry(table, TieBreak(2), uuid.uuid4(), services.Actor())
    first = Deal.objects.get(sheet=table, position=1)
    url = reverse("sheet:correct", kwargs={"pk": table.pk, "deal_id": first.pk})
    # Corrected into a lost Trumpfringerl, nobody ties any more: the tie-break (deal 2)
    # no longer fits, and the page must say so.
    response = client.post(
        url,
        {
            "key": factories.key(),
            "kind": "dreier",
            "declarer": 1,
            "contract": "trumpfringerl",
            "won": 0,
        },
    )
    assert response.status_code == 200
    assert "Spiel 2: Es gibt keinen Gleichstand zu entscheiden." in response.content.decode()


def test_names_that_differ_only_in_spaces_are_one_name():
    with pytest.raises(RuleError) as error:
        parse_document(
            {"variant": "dreierschnapsen", "players": ["Anna Maria", "Anna  Maria", "C"]}
        )
    assert error.value.field == "players"


@pytest.mark.parametrize(
    "document, field",
    [
        (
            {"variant": "schnapsen", "rule_set": {"preset": ["wiki"]}, "players": ["A", "B"]},
            "rule_set",
        ),
        ({"variant": "schnapsen", "players": ["A\x00", "B"]}, "players"),
        ({"variant": "schnapsen", "players": ["A", "B"], "rule_sets": "x"}, "rule_sets"),
        (
            {
                "variant": "dreierschnapsen",
                "players": ["A", "B", "C"],
                "deals": [{"contract": "gang", "declarer": "A", "won": True, "spritzn": 1}],
            },
            "spritzn",
        ),
    ],
)
def test_malformed_documents_name_the_field(document, field):
    with pytest.raises(RuleError) as error:
        parse_document(document)
    assert error.value.field == field


def test_a_nul_character_gets_a_plain_400(client, table):
    assert client.get("/e/a%00b/").status_code == 400
    url = reverse("players", kwargs={"slug": table.club.slug})
    assert client.get(url, {"q": "a\x00"}).status_code == 400


def test_a_page_number_that_is_not_there_shows_the_first_page(client, table):
    url = reverse("club", kwargs={"slug": table.club.slug})
    for page in ("abc", "0", "-1", "999"):
        assert client.get(url, {"t-page": page}).status_code == 200
    url = reverse("players", kwargs={"slug": table.club.slug})
    assert client.get(url, {"page": "abc"}).status_code == 200


def test_a_copy_without_a_rule_set_is_404_not_500(client, table):
    response = client.post(reverse("rule_sets", kwargs={"slug": table.club.slug}), {"copy": ""})
    assert response.status_code == 404


def test_an_unreadable_import_is_a_form_error(client, table):
    url = reverse("import_table", kwargs={"slug": table.club.slug})
    for text in ("[" * 100_000, "1" * 5000):
        response = client.post(url, {"document": text})
        assert response.status_code == 200
        assert response.context["form"].errors["document"]


def test_the_score_command_never_prints_a_traceback(tmp_path):
    cases = {
        "latin1.json": '{"players": ["M\xfcller"]}'.encode("latin-1"),
        "deep.json": b"[" * 100_000,
        "preset.json": json.dumps(
            {"variant": "schnapsen", "rule_set": {"preset": ["wiki"]}, "players": ["A", "B"]}
        ).encode(),
    }
    for name, content in cases.items():
        path = tmp_path / name
        path.write_bytes(content)
        done = subprocess.run(
            [sys.executable, "manage.py", "score", str(path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode != 0
        assert "Traceback" not in done.stderr, done.stderr
