"""Every field of every entry is checked, also where it does not change the points
(RULES.md 1: Augen are 0..120; 2: who closed, claimed or revoked is a seat): ``manage.py
score``, the import and the rule core refuse such a value and name the deal and field."""

import io
import json
import uuid

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse

from scoring import reading
from scoring.models import Deal
from scoring.rules import EndedDeal, RuleError, score_schnapsen_deal
from scoring.rules.presets import preset
from scoring.sheetjson import score_document
from tests import factories

WIKI = preset("wiki")


def score(tmp_path, deals, players=("Anna", "Ben"), rule_set="wiki") -> dict:
    variant = "schnapsen" if len(players) == 2 else "dreierschnapsen"
    document = {"variant": variant, "rule_set": rule_set, "players": list(players), "deals": deals}
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    out = io.StringIO()
    call_command("score", str(path), stdout=out)
    return json.loads(out.getvalue())


def refusal(tmp_path, deals, players=("Anna", "Ben"), rule_set="wiki") -> str:
    with pytest.raises(CommandError) as caught:
        score(tmp_path, deals, players, rule_set)
    return str(caught.value)


AUGEN = "Augen must be a whole number from 0 to 120."
NO_SUCH_FIELD = "Leave this out: a deal of this kind has no such field."
OK = {"winner": "Ben", "points": 1}


@pytest.mark.parametrize("end", ["closed_failed", "false_claim", "renonce"])
@pytest.mark.parametrize("augen", [200, -1, 121])
def test_augen_out_of_range_are_refused_where_the_end_does_not_count_them(tmp_path, end, augen):
    deal = {"end": end, "by": "Anna", "other_augen": augen, "other_had_trick": True}
    assert refusal(tmp_path, [OK, deal]) == f"deal 2, other_augen: {AUGEN}"


@pytest.mark.parametrize("end", ["closed_failed", "false_claim", "renonce"])
def test_augen_without_a_trick_are_refused_where_the_end_does_not_count_them(tmp_path, end):
    deal = {"end": end, "by": "Anna", "other_augen": 20, "other_had_trick": False}
    assert refusal(tmp_path, [deal]) == (
        "deal 1, other_augen: Without a trick a player has no Augen (announcements need a trick)."
    )


def test_augen_without_a_trick_stand_when_announcements_need_no_trick(tmp_path):
    rule_set = {"preset": "wiki", "options": {"announcements_need_trick": False}}
    deal = {"end": "renonce", "by": "Anna", "other_augen": 20, "other_had_trick": False}
    assert score(tmp_path, [deal], rule_set=rule_set)["tally"] == {"Anna": 0, "Ben": 0}


def test_a_renonce_with_a_fitting_showing_scores_three_for_the_other(tmp_path):
    deal = {"end": "renonce", "by": "Anna", "other_augen": 40, "other_had_trick": True}
    assert score(tmp_path, [deal])["deals"][0]["points"] == {"Anna": 0, "Ben": 3}


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (
            {"end": "renonce", "by": "Anna", "other_had_trick": "yes"},
            "deal 1, other_had_trick: Must be true or false.",
        ),
        (
            {"end": "closed_failed", "by": "Zoe", "other_had_trick": True},
            "deal 1, by: 'Zoe' is not a player of this sheet.",
        ),
        (
            {"end": "renonce", "by": "Anna", "other_augen": 12.5},
            "deal 1, other_augen: Must be a whole number.",
        ),
        ({"end": "renonce", "by": "Anna", "points": 3}, f"deal 1, points: {NO_SUCH_FIELD}"),
        ({"end": "renonce", "by": "Anna", "winner": "Ben"}, f"deal 1, winner: {NO_SUCH_FIELD}"),
        (
            {"winner": "Ben", "points": 2, "other_augen": 200},
            f"deal 1, other_augen: {NO_SUCH_FIELD}",
        ),
        ({"winner": "Ben", "points": 2, "by": "Anna"}, f"deal 1, by: {NO_SUCH_FIELD}"),
        ({"winner": "Ben", "points": 2, "spritzen": 1}, f"deal 1, spritzen: {NO_SUCH_FIELD}"),
        ({"winner": "Ben", "points": 2, "redeal": False}, f"deal 1, redeal: {NO_SUCH_FIELD}"),
    ],
)
def test_every_field_of_a_two_player_deal_is_checked(tmp_path, deal, message):
    assert refusal(tmp_path, [deal]) == message


THREE = ("Anna", "Ben", "Clara")


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (
            {"contract": "gang", "declarer": "Anna", "won": True, "normal_points": 2},
            "deal 1, normal_points: Only the normal game is worth 1, 2 or 3: "
            "Gang has no such points.",
        ),
        (
            {"contract": "gang", "declarer": "Anna", "won": True, "spritzen": 4},
            "deal 1, spritzen: Spritzen is a level from 0 to 3.",
        ),
        (
            {"contract": "gang", "declarer": "Anna", "won": True, "other_augen": 30},
            f"deal 1, other_augen: {NO_SUCH_FIELD}",
        ),
        (
            {"contract": "gang", "declarer": "Anna", "won": True, "winner": "Ben"},
            f"deal 1, winner: {NO_SUCH_FIELD}",
        ),
        ({"redeal": True, "contract": "gang"}, f"deal 1, contract: {NO_SUCH_FIELD}"),
        ({"redeal": True, "spritzen": 0}, f"deal 1, spritzen: {NO_SUCH_FIELD}"),
        ({"redeal": "yes"}, "deal 1, redeal: Must be true or false."),
        ({"tiebreak_winner": "Anna", "won": True}, f"deal 1, won: {NO_SUCH_FIELD}"),
    ],
)
def test_every_field_of_a_dreierschnapsen_deal_is_checked(tmp_path, deal, message):
    assert refusal(tmp_path, [deal], players=THREE) == message


def test_a_deal_that_says_it_is_no_redeal_is_scored(tmp_path):
    deal = {"redeal": False, "contract": "gang", "declarer": "Anna", "won": True}
    assert score(tmp_path, [deal], players=THREE)["deals"][0]["points"]["Anna"] == 9


def test_a_scored_document_scores_again_unchanged(tmp_path):
    deals = [
        {"end": "renonce", "by": "Anna", "other_augen": 40, "other_had_trick": True},
        {"end": "closed_failed", "by": "Ben", "other_had_trick": False},
        {"winner": "Anna", "points": 2},
    ]
    scored = score(tmp_path, deals)
    assert score_document(scored) == scored


def test_the_rule_core_checks_the_showing_of_every_end():
    for end in ("closed_failed", "false_claim", "renonce"):
        with pytest.raises(RuleError) as caught:
            score_schnapsen_deal(EndedDeal(end, 0, 200, True), WIKI)
        assert str(caught.value) == f"other_augen: {AUGEN}"
        with pytest.raises(RuleError) as caught:
            score_schnapsen_deal(EndedDeal(end, 0, None, "no"), WIKI)
        assert str(caught.value) == "other_had_trick: Must be true or false."
    assert score_schnapsen_deal(EndedDeal("renonce", 0), WIKI) == (1, 3)


@pytest.mark.django_db
def test_the_sheet_form_refuses_augen_without_a_trick_on_a_renonce(client):
    club = factories.signed_in_club(client, role="scorer")
    sheet = factories.sheet(club, names=("Anna", "Ben"))
    url = reverse("sheet:record", kwargs={"pk": sheet.pk})
    data = {"key": str(uuid.uuid4()), "kind": "ended", "end": "renonce", "by": "0"}
    response = client.post(url, data | {"other_augen": "20", "other_had_trick": "0"})
    assert "Ohne Stich hat ein Spieler keine Augen" in response.content.decode()
    assert not Deal.objects.filter(sheet=sheet).exists()


@pytest.mark.django_db
def test_the_migration_clears_values_the_scoring_ignored_and_keeps_the_points():
    club = factories.club()
    two = factories.sheet(club, names=("Anna", "Ben"))
    three = factories.sheet(club, names=("Dora", "Emil", "Fritz"))
    ended = {"end": "renonce", "by": 0, "other_augen": 200, "other_had_trick": True}
    dreier = {"contract": "gang", "declarer": 1, "won": True, "spritzen": 0, "normal_points": 2}
    for sheet, kind, inputs, points in (
        (two, "ended", ended, [0, 3]),
        (three, "dreier", dreier, [0, 9, 0]),
    ):
        Deal.objects.create(
            sheet=sheet, position=1, kind=kind, inputs=inputs, points=points, key=uuid.uuid4()
        )
        with pytest.raises(RuleError):
            reading.read_sheet(sheet)
    module = __import__(
        "scoring.migrations.0003_clear_ignored_deal_inputs", fromlist=["clear_ignored_inputs"]
    )
    module.clear_ignored_inputs(apps, connection.schema_editor())  # its connection only
    assert Deal.objects.get(sheet=two).inputs == ended | {"other_augen": None}
    assert Deal.objects.get(sheet=three).inputs == dreier | {"normal_points": None}
    assert reading.read_sheet(two).state.tally == (0, 0)
    assert reading.read_sheet(two).state.totals == (0, 3)
    assert reading.read_sheet(three).state.totals == (0, 9, 0)


@pytest.mark.parametrize(
    ("rule_set", "message"),
    [
        (
            {"preset": "wiki", "option": {"spritzen_on_normal": True}},
            "rule_set: Unknown field option.",
        ),
        (
            {"preset": "wiki", "catalog": {"gang": {"base": 10, "value": 11}}},
            "catalog.gang: Unknown field value.",
        ),
        (
            {"preset": "wiki", "catalog": {"gang": {"enabled": "no"}}},
            "catalog.gang: Must be true or false.",
        ),
        (
            {"preset": "wiki", "catalog": {"normal": 5}},
            "catalog.normal: The normal game is worth 1, 2 or 3 by the deal: no value.",
        ),
        (
            {"preset": "wiki", "catalog": {"normal": {"may_declare": "anyone"}}},
            "catalog.normal: The Rufer declares and leads the normal game "
            "(see the option normal_game).",
        ),
        (
            {"preset": "wiki", "catalog": {"normal": False}},
            "catalog.normal: The normal game cannot be disabled.",
        ),
    ],
)
def test_every_field_of_a_rule_set_is_checked(tmp_path, rule_set, message):
    assert refusal(tmp_path, [OK], rule_set=rule_set) == message


def test_a_whole_rule_set_as_exported_scores(tmp_path):
    whole = preset("spielregeln").to_dict() | {"label": "Spielregeln"}
    assert score(tmp_path, [OK], rule_set=whole)["tally"] == {"Anna": 0, "Ben": 0}
    assert refusal(tmp_path, [OK], rule_set=whole | {"preset": "wiki"}) == (
        "rule_set: Unknown field preset."
    )
