"""One person is one player: a name typed in another case, spacing or Unicode form is
the club's existing player, at the door, in the players form, in the import; the card
limit, walkovers, one prize per player and the tally hold per person; organisers rename
and merge players; every name column sorts in German order."""

import json
import random
import threading
import uuid

import pytest
from django.contrib.messages import get_messages
from django.db import IntegrityError, connection, transaction
from django.urls import reverse
from django.utils import timezone

from clubs import players as clubs
from clubs.models import AuditEntry, Player
from scoring import services as scoring
from scoring import transfer, upkeep
from scoring.models import Seat, Sheet
from scoring.rules import RuleError
from scoring.services import Actor
from tests import factories
from tournaments.export import export
from tournaments.models import Card, Kind, Pull
from tournaments.services.draws import draw_round
from tournaments.services.reading import load_state
from tournaments.simulation import play_open_matches

pytestmark = pytest.mark.django_db
ACTOR = Actor()
# The nights here: eight prizes, "Preis 1" to "Preis 8".
NIGHT = {"name": "Preisschnapsen", "prizes": 8, "prize_text": "Preis {}"}


@pytest.fixture
def club(client):
    return factories.signed_in_club(client)


def banner(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


# -- the stored name and the identity ---------------------------------------------------


def test_a_name_is_stored_in_nfc_with_one_space_and_a_folded_identity(club):
    # "Ö" typed as O + combining diaeresis, a no-break space and a double space inside.
    player = Player.objects.create(club=club, name="  Anna\u00a0 O\u0308sterreicher ")
    player.refresh_from_db()
    assert player.name == "Anna \u00d6sterreicher"
    assert player.name_fold == "anna \u00f6sterreicher"
    assert player.name_key == "anna osterreicher"


def test_the_database_refuses_a_second_player_with_the_same_folded_name(club):
    Player.objects.create(club=club, name="Brigitte Öhlinger")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=club, name="BRIGITTE  ÖHLINGER")
    # Another club may have its own Brigitte Öhlinger; umlauts are not folded.
    Player.objects.create(club=factories.club(), name="brigitte öhlinger")
    Player.objects.create(club=club, name="Brigitte Ohlinger")
    assert Player.objects.filter(club=club).count() == 2


def test_player_named_finds_the_player_in_any_case_spacing_and_unicode_form(club):
    anna = clubs.add_player(club, "Anna Österreicher")
    for typed in ("anna österreicher", " ANNA  ÖSTERREICHER ", "Anna O\u0308sterreicher"):
        assert clubs.player_named(club, typed).pk == anna.pk
    assert Player.objects.filter(club=club).count() == 1


# -- at the door ---------------------------------------------------------------------------


def test_a_sale_in_another_case_goes_to_the_known_player_and_the_card_limit_holds(club, client):
    t = factories.tournament(club, max_cards=3, **NIGHT)
    url = reverse("sell", kwargs={"slug": club.slug, "tournament_id": t.pk})

    def post(name, count):
        data = {"key": str(uuid.uuid4()), "name": name, "count": count, "paid": "on"}
        return client.post(url, data, follow=True)

    post("Brigitte Öhlinger", 2)
    brigitte = Player.objects.get(club=club)
    response = post("brigitte öhlinger", 1)
    assert banner(response) == [
        "Brigitte Öhlinger: Karte 3 (eingegeben als brigitte öhlinger: schon Spieler des Vereins)"
    ]
    assert (
        list(Card.objects.filter(tournament=t).values_list("player_id", flat=True))
        == [brigitte.pk] * 3
    )
    refused = post("BRIGITTE ÖHLINGER", 1)
    assert refused.context["sell_form"].errors["count"] == [
        "Brigitte Öhlinger hat schon 3 von höchstens 3 Karten."
    ]
    assert Card.objects.filter(tournament=t).count() == 3
    assert Player.objects.filter(club=club).count() == 1


# -- the players form -------------------------------------------------------------------


def test_adding_a_known_name_in_another_case_names_the_existing_player(club, client):
    anna = clubs.add_player(club, "Anna Österreicher")
    url = reverse("players", kwargs={"slug": club.slug})
    response = client.post(url, {"name": "anna österreicher"})
    assert response.context["form"].errors["name"] == [
        "Anna Österreicher spielt schon in diesem Verein."
    ]
    assert response.context["existing"] == anna
    assert reverse("player", kwargs={"slug": club.slug, "player_id": anna.pk}) in (
        response.content.decode()
    )
    assert Player.objects.filter(club=club).count() == 1


def test_a_known_name_typed_at_the_table_sends_back_to_the_table_naming_the_player(club, client):
    clubs.add_player(club, "Anna Österreicher")
    table = reverse("open_table", kwargs={"slug": club.slug})
    url = reverse("players", kwargs={"slug": club.slug})
    response = client.post(url, {"name": "anna österreicher", "next": table})
    assert response.status_code == 302 and response["Location"] == table
    assert banner(response) == ["Anna Österreicher spielt schon in diesem Verein."]
    assert Player.objects.filter(club=club).count() == 1


def test_a_model_form_such_as_the_admin_refuses_a_known_name_on_the_name_field(club):
    from django.forms import modelform_factory

    clubs.add_player(club, "Anna Österreicher")
    form = modelform_factory(Player, fields=["club", "name"])(
        {"club": club.pk, "name": "ANNA  ÖSTERREICHER"}
    )
    assert form.errors == {"name": ["Anna Österreicher spielt schon in diesem Verein."]}
    fresh = modelform_factory(Player, fields=["club", "name"])(
        {"club": club.pk, "name": " Ben\u00a0 Huber "}
    )
    assert fresh.is_valid()
    assert fresh.save().name == "Ben Huber"


def test_two_desks_adding_one_person_at_once_in_two_cases_get_one_player(transactional_db):
    club = factories.club()
    found, errors = [], []
    barrier = threading.Barrier(2)

    def add(typed):
        try:
            barrier.wait()
            with transaction.atomic():
                found.append(clubs.player_named(club, typed).pk)
        except Exception as error:  # noqa: BLE001 - the test reports any failure
            errors.append(error)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=add, args=(n,)) for n in ("Brigitte Öhlinger", "brigitte öhlinger")
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(found) == 2 and len(set(found)) == 1
    assert list(Player.objects.filter(club=club).values_list("name", flat=True)) in (
        ["Brigitte Öhlinger"],
        ["brigitte öhlinger"],
    )


# -- the JSON import ----------------------------------------------------------------------


DOC = {
    "variant": "dreierschnapsen",
    "rule_set": "wiki",
    "players": ["anna", "BEN", "Clara"],
    # The deals name the players as the club spells them: the same people.
    "deals": [{"contract": "normal", "declarer": "Ben", "won": True, "normal_points": 1}],
}


def test_the_import_matches_players_in_any_case_and_lists_those_spelled_otherwise(club, client):
    factories.presets()
    anna, ben = factories.players(club, "Anna", "Ben")
    url = reverse("import_table", kwargs={"slug": club.slug})
    response = client.post(
        url, {"document": json.dumps(DOC), "key": str(uuid.uuid4()), "title": ""}, follow=True
    )
    sheet = Sheet.objects.get(club=club)
    seats = list(Seat.objects.filter(sheet=sheet).order_by("position"))
    clara = Player.objects.get(club=club, name="Clara")
    assert [s.player_id for s in seats] == [anna.pk, ben.pk, clara.pk]
    assert banner(response) == [
        "Blatt importiert. Neu angelegt: Clara. "
        "Bekannte Spieler in anderer Schreibweise: anna ist Anna; BEN ist Ben."
    ]


def test_the_import_refuses_one_person_named_twice_in_two_cases(club):
    factories.presets()
    document = DOC | {"players": ["Anna", "anna", "Ben"]}
    with pytest.raises(RuleError) as error:
        transfer.import_document(club, document, scoring.Actor())
    assert (error.value.field, error.value.template) == (
        "players",
        "Every player needs a different name.",
    )
    assert not Player.objects.filter(club=club).exists()


# -- walkovers, prizes and the tally per person -------------------------------------------


def test_a_player_meeting_himself_under_another_case_is_a_walkover(club):
    t = factories.tournament(club, cards=8, max_cards=5, **NIGHT)
    for typed in ("Anna", "anna", "ANNA", "anna ", "Anna"):
        factories.sell(t, typed)
    for typed in ("Ben", "ben", "BEN"):
        factories.sell(t, typed)
    assert Player.objects.filter(club=club).count() == 2
    draw_round(t, ACTOR, seed=7)
    pairings = list(t.pairings.select_related("left", "right"))
    # Five cards of one person in four pairings: at least one meets himself.
    same = [p for p in pairings if p.left and p.right and p.left.player_id == p.right.player_id]
    assert len(same) >= 1
    assert all(p.kind == Kind.WALKOVER for p in same)
    assert all(p.kind == Kind.MATCH for p in pairings if p not in same)


def test_one_prize_per_player_holds_for_cards_sold_in_other_cases(club):
    t = factories.tournament(club, cards=8, max_cards=3, one_prize_per_player=True, **NIGHT)
    for typed in ("Anna", "anna", "ANNA", "Ben", "ben", "Clara", "Dora", "Emil"):
        factories.sell(t, typed)
    assert Player.objects.filter(club=club).count() == 5
    rng = random.Random(5)
    while load_state(t).next_pot_size() is not None:
        draw_round(t, ACTOR, seed=rng.getrandbits(32))
        play_open_matches(t, rng)
    play_open_matches(t, rng)
    state = load_state(t)
    winners = [state.cards[a.card].player_id for a in state.awards()]
    assert sorted(winners) == sorted(Player.objects.filter(club=club).values_list("pk", flat=True))


def test_the_tally_counts_one_person_once_whatever_the_case_typed(club, client):
    factories.presets()
    factories.sheet(club, names=("Anna", "Ben", "Clara"))
    sheet = transfer.import_document(club, DOC, scoring.Actor())
    response = client.get(reverse("club", kwargs={"slug": club.slug}))
    rows = {r["name"]: r["sheets"] for r in response.context["tally_table"].data.data}
    assert rows == {"Anna": 2, "Ben": 2, "Clara": 2}
    assert Seat.objects.filter(sheet=sheet).count() == 3


# -- German order in every name column ---------------------------------------------------


def test_the_tally_sorts_names_in_german_order_both_ways(club, client):
    wiki = factories.presets()["wiki"]
    people = factories.players(club, "Zita", "anna", "Ömer", "Ole", "Otto", "Ärger")
    upkeep.open_sheet(club, "dreierschnapsen", people[:3], wiki)
    upkeep.open_sheet(club, "dreierschnapsen", people[3:], wiki)
    url = reverse("club", kwargs={"slug": club.slug})

    def names(sort):
        table = client.get(url, {"b-sort": sort}).context["tally_table"]
        return [row.record["name"] for row in table.rows]

    assert names("name") == ["anna", "Ärger", "Ole", "Ömer", "Otto", "Zita"]
    assert names("-name") == ["Zita", "Otto", "Ömer", "Ole", "Ärger", "anna"]


def test_the_players_list_sorts_names_in_german_order_both_ways(club, client):
    factories.players(club, "Zita", "anna", "Ömer", "Ole", "Otto")
    url = reverse("players", kwargs={"slug": club.slug})

    def names(sort):
        return [row.record.name for row in client.get(url, {"sort": sort}).context["table"].rows]

    assert names("name") == ["anna", "Ole", "Ömer", "Otto", "Zita"]
    assert names("-name") == ["Zita", "Otto", "Ömer", "Ole", "anna"]


def test_the_tournament_export_lists_players_in_german_order(club):
    t = factories.tournament(club, **NIGHT)
    for name in ("Zita", "anna", "Ömer", "Ole", "Otto"):
        factories.sell(t, name)
    assert [p["name"] for p in export(t)["players"]] == [
        "anna",
        "Ole",
        "Ömer",
        "Otto",
        "Zita",
    ]


# -- renaming --------------------------------------------------------------------------


def test_an_organiser_renames_a_player_and_the_history_keeps_it(club, client):
    anna = clubs.add_player(club, "anna österreicher")
    url = reverse("player_rename", kwargs={"slug": club.slug, "player_id": anna.pk})
    response = client.post(url, {"name": "Anna  Österreicher"}, follow=True)
    anna.refresh_from_db()
    assert anna.name == "Anna Österreicher"
    assert banner(response) == ["anna österreicher heißt jetzt Anna Österreicher."]
    entry = AuditEntry.objects.get(club=club, scope="club", action="player renamed")
    assert (entry.scope_id, entry.before, entry.after) == (
        club.pk,
        {"player_id": anna.pk, "name": "anna österreicher"},
        {"player_id": anna.pk, "name": "Anna Österreicher"},
    )


def test_renaming_to_another_players_name_in_any_case_is_refused(club, client):
    anna, ben = factories.players(club, "Anna", "Ben")
    url = reverse("player_rename", kwargs={"slug": club.slug, "player_id": ben.pk})
    response = client.post(url, {"name": "ANNA"})
    assert response.status_code == 400
    assert response.context["rename_form"].errors["name"] == [
        "Anna ist ein anderer Spieler des Vereins: die beiden stattdessen zusammenführen."
    ]
    ben.refresh_from_db()
    assert ben.name == "Ben"
    assert not AuditEntry.objects.filter(club=club, scope="club").exists()


def test_only_organisers_see_and_use_rename_and_merge(client):
    club = factories.club()
    anna, ben = factories.players(club, "Anna", "Ben")
    client.force_login(factories.user(club, role="scorer"))
    page = client.get(reverse("player", kwargs={"slug": club.slug, "player_id": anna.pk}))
    assert reverse("player_rename", kwargs={"slug": club.slug, "player_id": anna.pk}) not in (
        page.content.decode()
    )
    rename = reverse("player_rename", kwargs={"slug": club.slug, "player_id": anna.pk})
    merge = reverse("player_merge", kwargs={"slug": club.slug, "player_id": anna.pk})
    assert client.post(rename, {"name": "Anni"}).status_code == 403
    assert client.post(merge, {"other": ben.pk}).status_code == 403
    assert Player.objects.filter(club=club).count() == 2


# -- merging ------------------------------------------------------------------------------


def test_merging_moves_seats_cards_and_pulls_and_is_in_the_history(club, client):
    wiki = factories.presets()["wiki"]
    anna, typo, ben, clara = factories.players(
        club, "Anna Österreicher", "Anna Östereicher", "Ben", "Clara"
    )
    upkeep.open_sheet(club, "dreierschnapsen", [anna, ben, clara], wiki)
    second = upkeep.open_sheet(club, "dreierschnapsen", [typo, ben, clara], wiki)
    t = factories.tournament(club, cards=8, max_cards=3, **NIGHT)
    factories.sell(t, "Anna Österreicher", count=2)
    factories.sell(t, "Anna Östereicher", count=2)
    for name in ("Ben", "Clara", "Dora", "Emil"):
        factories.sell(t, name)
    draw_round(t, ACTOR, seed=2)  # the two spellings meet in no match
    typo_pulls = Pull.objects.filter(player=typo).count()
    assert typo_pulls == 2

    url = reverse("player_merge", kwargs={"slug": club.slug, "player_id": anna.pk})
    confirm = client.get(url, {"name": "anna östereicher"})
    assert confirm.status_code == 200
    assert confirm.context["gone"] == typo
    assert [(str(label), n) for label, n in confirm.context["moves"]] == [
        ("Plätze an Tischen (mit Ergebnissen und Wertung)", 1),
        ("Turnierkarten", 2),
        ("Ziehungen aus den Töpfen", 2),
    ]
    response = client.post(url, {"other": typo.pk}, follow=True)
    assert banner(response) == [
        "Anna Östereicher und Anna Österreicher sind jetzt ein Spieler: Anna Österreicher."
    ]
    assert not Player.objects.filter(pk=typo.pk).exists()
    assert Seat.objects.get(sheet=second, position=0).player_id == anna.pk
    # Four cards of at most three: the organiser's decision, the cards move all the same.
    assert Card.objects.filter(tournament=t, player=anna).count() == 4
    assert Pull.objects.filter(player=anna).count() == 4
    tally = client.get(reverse("club", kwargs={"slug": club.slug})).context["tally_table"]
    row = next(r for r in tally.data.data if r["player_id"] == anna.pk)
    assert (row["sheets"], row["games"]) == (2, 0)
    entry = AuditEntry.objects.get(club=club, scope="club", action="players merged")
    assert (entry.scope_id, entry.before, entry.after) == (
        club.pk,
        {
            "player_id": anna.pk,
            "name": "Anna Österreicher",
            "merged_id": typo.pk,
            "merged": "Anna Östereicher",
        },
        {"player_id": anna.pk, "name": "Anna Österreicher", "seat": 1, "card": 2, "pull": 2},
    )
    history = client.get(reverse("club_history", kwargs={"slug": club.slug}))
    rows = history.context["rows"]
    assert [row.action for row in rows] == ["Spieler zusammengeführt"]
    # PostgreSQL's JSON keeps no key order: the fields are compared as a set.
    assert set(rows[0].before.split(" · ")) == {
        f"Nummer des Spielers: {anna.pk}",
        "Name: Anna Österreicher",
        f"Nummer des zusammengeführten Spielers: {typo.pk}",
        "zusammengeführt: Anna Östereicher",
    }
    assert {"Sitzplätze: 1", "Karte: 2", "Ziehung: 2"} <= set(rows[0].after.split(" · "))
    # The same merge sent again: a clear answer, nothing else changes.
    again = client.post(url, {"other": typo.pk}, follow=True)
    assert banner(again) == ["Anna Östereicher ist schon mit Anna Österreicher zusammengeführt."]
    assert AuditEntry.objects.filter(club=club, action="players merged").count() == 1


def test_merging_two_players_who_sat_at_one_table_is_refused_naming_the_table(club, client):
    wiki = factories.presets()["wiki"]
    hans, junior, ben = factories.players(club, "Hans Huber", "Hans Hüber", "Ben")
    sheet = upkeep.open_sheet(
        club, "dreierschnapsen", [hans, junior, ben], wiki, title="Stammtisch"
    )
    url = reverse("player_merge", kwargs={"slug": club.slug, "player_id": hans.pk})
    response = client.post(url, {"other": junior.pk})
    assert response.status_code == 400
    day = timezone.localtime(sheet.created_at).strftime("%d.%m.%Y")
    assert response.context["clash"] == (
        f"Hans Huber und Hans Hüber haben an einem Tisch gespielt (Stammtisch ({day})): "
        "das sind zwei Personen, nicht eine."
    )
    assert Player.objects.filter(club=club).count() == 3
    assert not AuditEntry.objects.filter(club=club, action="players merged").exists()
    with pytest.raises(RuleError) as error:
        clubs.merge_players(hans, junior, ACTOR)
    assert error.value.field == "other"


def test_merging_two_players_who_met_in_a_match_is_refused_naming_the_match(club, client):
    t = factories.played_night(club, ["Hans Huber", "Hans Hüber"], name="Cupabend")
    hans, junior = (Player.objects.get(club=club, name=n) for n in ("Hans Huber", "Hans Hüber"))
    url = reverse("player_merge", kwargs={"slug": club.slug, "player_id": hans.pk})
    response = client.post(url, {"other": junior.pk})
    assert response.status_code == 400
    day = timezone.localtime(t.starts_at).strftime("%d.%m.%Y")
    assert response.context["clash"] == (
        f"Hans Huber und Hans Hüber haben gegeneinander gespielt (Cupabend ({day}), Finale): "
        "das sind zwei Personen, nicht eine."
    )
    assert Card.objects.filter(tournament=t, player=junior).exists()
    assert not AuditEntry.objects.filter(club=club, action="players merged").exists()
    with pytest.raises(RuleError) as error:
        clubs.merge_players(junior, hans, ACTOR)
    assert error.value.field == "other"


def test_the_merge_page_names_an_unknown_other_player(club, client):
    anna = clubs.add_player(club, "Anna")
    url = reverse("player_merge", kwargs={"slug": club.slug, "player_id": anna.pk})
    response = client.get(url, {"name": "  sepp  "})
    assert response.status_code == 400
    assert response.context["merge_error"] == "Kein Spieler des Vereins heißt sepp."
    assert response.context["merge_name"] == "  sepp  "


def test_a_player_cannot_be_merged_with_himself_or_another_clubs_player(club):
    anna = clubs.add_player(club, "Anna")
    stranger = clubs.add_player(factories.club(), "Anna")
    for other in (anna, stranger):
        with pytest.raises(RuleError) as error:
            clubs.merge_players(anna, other, ACTOR)
        assert error.value.template == "Choose another player of this club."
    assert Player.objects.filter(pk__in=[anna.pk, stranger.pk]).count() == 2


# -- invisible characters, odd spaces and full-width letters --------------------------------

# Each kind of look-alike of "Brigitte Öhlinger" that is the same person.
LOOK_ALIKES = {
    "zero-width space": "Brigitte Öhlinger\u200b",
    "soft hyphen": "Brigitte Öh\u00adlinger",
    "left-to-right mark": "\u200eBrigitte Öhlinger",
    "byte-order mark": "\ufeffBrigitte Öhlinger",
    "control character": "Brigitte\tÖhlinger\x7f",
    "no-break space": "Brigitte\u00a0Öhlinger",
    "thin space": "Brigitte \u2009Öhlinger",
    "ideographic space": "Brigitte\u3000Öhlinger",
    "full-width letters": "\uff22\uff52\uff49\uff47\uff49\uff54\uff54\uff45 Öhlinger",
}
# Names of nothing visible: refused as empty.
INVISIBLE = ["\u200b", "\u00ad \u200e", "\ufeff\u3000\u2009"]


def test_a_name_drops_invisible_characters_and_keeps_its_letters_as_typed(club):
    player = Player.objects.create(club=club, name="\ufeffAn\u00adna\u200b\u3000\uff2c\uff49")
    player.refresh_from_db()
    # The stored name is NFC, not NFKC: the full-width "Ｌｉ" stays as typed.
    assert player.name == "Anna \uff2c\uff49"
    assert player.name_fold == "anna li"
    # A zero-width joiner that glues an emoji family stays in the name.
    family = Player.objects.create(club=club, name="Li \U0001f468\u200d\U0001f469\u200d\U0001f467")
    assert family.name == "Li \U0001f468\u200d\U0001f469\u200d\U0001f467"
    ligature = Player.objects.create(club=club, name="\ufb01nk")  # "ﬁnk": the fi ligature
    assert (ligature.name, ligature.name_fold) == ("\ufb01nk", "fink")


@pytest.mark.parametrize("typed", LOOK_ALIKES.values(), ids=LOOK_ALIKES.keys())
def test_a_look_alike_name_at_the_door_is_the_known_player_and_the_card_limit_holds(
    club, client, typed
):
    t = factories.tournament(club, max_cards=3, **NIGHT)
    url = reverse("sell", kwargs={"slug": club.slug, "tournament_id": t.pk})
    factories.sell(t, "Brigitte Öhlinger", count=3)
    brigitte = Player.objects.get(club=club)
    data = {"key": str(uuid.uuid4()), "name": typed, "count": 1, "paid": "on"}
    refused = client.post(url, data)
    assert refused.context["sell_form"].errors["count"] == [
        "Brigitte Öhlinger hat schon 3 von höchstens 3 Karten."
    ]
    assert list(Card.objects.filter(tournament=t).values_list("player_id", flat=True)) == (
        [brigitte.pk] * 3
    )
    assert list(Player.objects.filter(club=club).values_list("name", flat=True)) == [
        "Brigitte Öhlinger"
    ]


@pytest.mark.parametrize("typed", LOOK_ALIKES.values(), ids=LOOK_ALIKES.keys())
def test_a_look_alike_name_in_the_players_form_names_the_existing_player(club, client, typed):
    brigitte = clubs.add_player(club, "Brigitte Öhlinger")
    response = client.post(reverse("players", kwargs={"slug": club.slug}), {"name": typed})
    assert response.context["form"].errors["name"] == [
        "Brigitte Öhlinger spielt schon in diesem Verein."
    ]
    assert response.context["existing"] == brigitte
    assert Player.objects.filter(club=club).count() == 1


# The import refuses control characters outright ("not text"); every other kind is the
# known player.
IN_IMPORT = {kind: name for kind, name in LOOK_ALIKES.items() if kind != "control character"}


@pytest.mark.parametrize("typed", IN_IMPORT.values(), ids=IN_IMPORT.keys())
def test_a_look_alike_name_in_the_import_seats_the_known_player(club, typed):
    factories.presets()
    brigitte = clubs.add_player(club, "Brigitte Öhlinger")
    document = DOC | {"players": [typed, "Ben", "Clara"]}
    sheet = transfer.import_document(club, document, scoring.Actor())
    seat = Seat.objects.get(sheet=sheet, position=0)
    assert seat.player_id == brigitte.pk
    assert Player.objects.filter(club=club).count() == 3


@pytest.mark.parametrize("typed", INVISIBLE)
def test_a_name_of_nothing_visible_is_refused_as_empty_everywhere(club, client, typed):
    factories.presets()
    anna = clubs.add_player(club, "Anna")
    t = factories.tournament(club, **NIGHT)
    door = client.post(
        reverse("sell", kwargs={"slug": club.slug, "tournament_id": t.pk}),
        {"key": str(uuid.uuid4()), "name": typed, "count": 1, "paid": "on"},
    )
    assert door.context["sell_form"].errors["name"] == ["Bitte einen Namen eingeben."]
    form = client.post(reverse("players", kwargs={"slug": club.slug}), {"name": typed})
    assert form.context["form"].errors["name"] == ["Bitte einen Namen eingeben."]
    rename = client.post(
        reverse("player_rename", kwargs={"slug": club.slug, "player_id": anna.pk}),
        {"name": typed},
    )
    assert rename.context["rename_form"].errors["name"] == ["Bitte einen Namen eingeben."]
    for write in (
        lambda: clubs.add_player(club, typed),
        lambda: clubs.player_named(club, typed),
        lambda: clubs.rename_player(anna, typed, ACTOR),
    ):
        with pytest.raises(RuleError) as error:
            write()
        assert (error.value.field, error.value.template) == ("name", "Enter a name.")
    with pytest.raises(RuleError) as error:
        transfer.import_document(club, DOC | {"players": [typed, "Ben", "Clara"]}, scoring.Actor())
    assert (error.value.field, error.value.template) == (
        "players",
        "Name %(count)s players in seating order.",
    )
    anna.refresh_from_db()
    assert anna.name == "Anna"
    assert list(Player.objects.filter(club=club).values_list("name", flat=True)) == ["Anna"]
    assert not Card.objects.filter(tournament=t).exists()
    assert not AuditEntry.objects.filter(club=club, action="player renamed").exists()
