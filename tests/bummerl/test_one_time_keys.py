"""One-time keys on every write path: the same key with the same content (a double tap,
a retried request) gives the first result, written once; the same key with other
content (an old page's form, after Back) is refused on ``key`` and writes nothing,
never answered with the earlier result."""

import json
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from clubs import invitations
from clubs import services as club_services
from clubs.audit import SYSTEM
from clubs.models import AuditEntry, Club, Invitation, Membership
from scoring import rulesets, services, transfer, upkeep
from scoring.models import Deal, RuleSet, Sheet
from scoring.rules import DreierDeal, RuleError
from tests import factories
from tournaments.models import Card, Pairing, Result
from tournaments.services import results
from tournaments.services.cards import sell_cards
from tournaments.services.draws import draw_round
from tournaments.services.results import record_result, void_result

pytestmark = pytest.mark.django_db
ACTOR = services.Actor()
REFUSED_DE = "Dieses Formular wurde schon für einen anderen Eintrag verwendet"
REFUSED_FULL_DE = (
    REFUSED_DE + ": Nichts wurde gespeichert. Bitte die Seite neu laden und nochmals eingeben."
)
BETTLER_BEN = DreierDeal("bettler", 1, True)  # Ben +4 (wiki: Bettler 4, anyone may play)
GANG_ANNA = DreierDeal("gang", 0, True)  # Anna +9


def live_points(sheet):
    return [d.points for d in Deal.objects.filter(sheet=sheet).live().order_by("position")]


@pytest.fixture
def organiser(client):
    return factories.signed_in_club(client)


# -- deals ----------------------------------------------------------------------------


def test_a_deal_sent_again_with_its_key_is_recorded_once():
    sheet = factories.sheet(factories.club())
    key = uuid.uuid4()
    _view, first = services.record_entry(sheet, BETTLER_BEN, key, ACTOR)
    _view, again = services.record_entry(sheet, BETTLER_BEN, key, ACTOR)
    assert again.pk == first.pk
    assert live_points(sheet) == [[0, 4, 0]]


def test_a_key_sent_again_with_another_deal_is_refused_and_writes_nothing():
    sheet = factories.sheet(factories.club())
    key = uuid.uuid4()
    services.record_entry(sheet, BETTLER_BEN, key, ACTOR)
    with pytest.raises(RuleError) as error:
        services.record_entry(sheet, GANG_ANNA, key, ACTOR)
    assert error.value.field == "key"
    assert live_points(sheet) == [[0, 4, 0]]


def test_a_key_used_on_another_sheet_is_refused():
    club = factories.club()
    sheet, other = factories.sheet(club), factories.sheet(club, names=("Dora", "Emil", "Fritz"))
    key = uuid.uuid4()
    services.record_entry(other, BETTLER_BEN, key, ACTOR)
    with pytest.raises(RuleError) as error:
        services.record_entry(sheet, BETTLER_BEN, key, ACTOR)
    assert error.value.field == "key"
    assert live_points(sheet) == []


def test_the_sheet_page_refuses_an_old_key_with_another_deal_and_offers_a_new_key(
    client, organiser
):
    sheet = factories.sheet(organiser)
    key = factories.key()
    url = reverse("sheet:record", kwargs={"pk": sheet.pk})
    fields = {"key": key, "kind": "dreier", "declarer": 1, "contract": "bettler", "won": 1}
    first = client.post(url, fields, headers={"HX-Request": "true"})
    assert "Gespeichert: Bettler · Ben · gewonnen" in first.content.decode()
    # The old page's form, sent with the same key: Anna's Gang is refused, not
    # answered with "Saved: Bettler".
    response = client.post(
        url, {**fields, "declarer": 0, "contract": "gang"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert REFUSED_DE in html
    assert "Gespeichert" not in html
    assert live_points(sheet) == [[0, 4, 0]]
    # The form comes back with Anna's Gang and a new key: one more tap records it.
    form = response.context["form"]
    assert form["key"].value() != key
    assert form["contract"].value() == "gang"
    client.post(url, {**fields, "declarer": 0, "contract": "gang", "key": form["key"].value()})
    assert live_points(sheet) == [[0, 4, 0], [9, 0, 0]]


def test_a_correction_sent_twice_corrects_once_and_says_so(client, organiser):
    sheet = factories.sheet(organiser)
    _view, deal = services.record_entry(sheet, GANG_ANNA, uuid.uuid4(), ACTOR)
    url = reverse("sheet:correct", kwargs={"pk": sheet.pk, "deal_id": deal.pk})
    fields = {"key": factories.key(), "kind": "dreier", "declarer": 1, "contract": "bettler"}
    fields["won"] = 1
    said = "Spiel 1 korrigiert: Bettler · Ben · gewonnen"
    first = client.post(url, fields, follow=True)
    assert [str(m) for m in first.context["messages"]] == [said]
    # The double tap: the deal is no longer live, yet the answer is the correction.
    again = client.post(url, fields, follow=True)
    assert [str(m) for m in again.context["messages"]] == [said]
    assert live_points(sheet) == [[0, 4, 0]]
    assert Deal.objects.filter(sheet=sheet).count() == 2  # the struck Gang and the Bettler


def test_a_key_sent_again_with_another_correction_is_refused():
    sheet = factories.sheet(factories.club())
    _view, deal = services.record_entry(sheet, GANG_ANNA, uuid.uuid4(), ACTOR)
    key = uuid.uuid4()
    services.correct_deal(sheet, deal.pk, BETTLER_BEN, key, ACTOR)
    with pytest.raises(RuleError) as error:
        services.correct_deal(sheet, deal.pk, DreierDeal("bettler", 2, True), key, ACTOR)
    assert error.value.field == "key"
    # The same entry recorded (not as a correction) with the correction's key is
    # another write, too.
    with pytest.raises(RuleError) as error:
        services.record_entry(sheet, BETTLER_BEN, key, ACTOR)
    assert error.value.field == "key"
    assert live_points(sheet) == [[0, 4, 0]]


def test_a_deals_key_does_not_correct_a_deal():
    sheet = factories.sheet(factories.club())
    key = uuid.uuid4()
    _view, deal = services.record_entry(sheet, GANG_ANNA, key, ACTOR)
    with pytest.raises(RuleError) as error:
        services.correct_deal(sheet, deal.pk, GANG_ANNA, key, ACTOR)
    assert error.value.field == "key"
    assert Deal.objects.filter(sheet=sheet).count() == 1


# -- tables ---------------------------------------------------------------------------


def test_opening_a_table_twice_with_one_key_opens_it_once():
    club = factories.club()
    people = factories.players(club, "Anna", "Ben", "Clara")
    wiki = factories.presets()["wiki"]
    key = uuid.uuid4()
    first = upkeep.open_sheet(club, "dreierschnapsen", people, wiki, key=key, title="Tisch 1")
    again = upkeep.open_sheet(club, "dreierschnapsen", people, wiki, key=key, title="Tisch 1")
    assert again.pk == first.pk
    assert Sheet.objects.filter(club=club).count() == 1


@pytest.mark.parametrize("change", ["players", "title", "variant", "rule_set", "first_dealer"])
def test_a_key_that_opened_a_table_does_not_open_another(change):
    club = factories.club()
    people = factories.players(club, "Anna", "Ben", "Clara", "Dora")
    presets = factories.presets()
    key = uuid.uuid4()
    args = {
        "club": club,
        "variant": "dreierschnapsen",
        "players": people[:3],
        "rule_set": presets["wiki"],
        "title": "Tisch 1",
        "first_dealer": 0,
    }
    upkeep.open_sheet(**args, key=key)
    other = {
        "players": [people[3], *people[1:3]],
        "title": "Tisch 2",
        "variant": "schnapsen",
        "rule_set": presets["spielregeln"],
        "first_dealer": 1,
    }[change]
    if change == "variant":
        args["players"] = people[:2]
    with pytest.raises(RuleError) as error:
        upkeep.open_sheet(**{**args, change: other}, key=key)
    assert error.value.field == "key"
    assert Sheet.objects.count() == 1


def test_the_open_table_page_refuses_an_old_key_for_other_players(client, organiser):
    people = factories.players(organiser, "Anna", "Ben", "Clara", "Dora")
    wiki = factories.presets()["wiki"]
    url = reverse("open_table", kwargs={"slug": organiser.slug})
    key = factories.key()
    fields = {"key": key, "variant": "dreierschnapsen", "rule_set": wiki.pk}
    fields.update(player_1=people[0].pk, player_2=people[1].pk, player_3=people[2].pk)
    assert client.post(url, fields).status_code == 302
    response = client.post(url, {**fields, "player_3": people[3].pk})
    assert response.status_code == 200
    assert REFUSED_DE in response.content.decode()
    assert Sheet.objects.filter(club=organiser).count() == 1
    assert response.context["form"]["key"].value() != key  # sent again: a new table
    assert client.post(url, {**fields, "player_3": people[3].pk, "key": key}).status_code == 200


DOCUMENT = {
    "variant": "dreierschnapsen",
    "rule_set": "wiki",
    "players": ["Anna", "Ben", "Clara"],
    "deals": [{"contract": "bettler", "declarer": "Ben", "won": True}],
}


def test_an_import_sent_twice_with_one_key_imports_once():
    club = factories.club()
    factories.presets()
    key = uuid.uuid4()
    first = transfer.import_document(club, DOCUMENT, ACTOR, "Abend", key)
    again = transfer.import_document(club, json.loads(json.dumps(DOCUMENT)), ACTOR, "Abend", key)
    assert again.pk == first.pk
    assert Sheet.objects.filter(club=club).count() == 1


@pytest.mark.parametrize("change", ["deal", "player", "title"])
def test_a_key_that_imported_a_sheet_does_not_import_another(change):
    club = factories.club()
    factories.presets()
    key = uuid.uuid4()
    transfer.import_document(club, DOCUMENT, ACTOR, "Abend", key)
    document, title = json.loads(json.dumps(DOCUMENT)), "Abend"
    if change == "deal":
        document["deals"][0]["declarer"] = "Clara"
    elif change == "player":
        document["players"][2] = "Dora"
    else:
        title = "Anderer Abend"
    with pytest.raises(RuleError) as error:
        transfer.import_document(club, document, ACTOR, title, key)
    assert error.value.field == "key"
    assert Sheet.objects.filter(club=club).count() == 1


def test_the_import_page_refuses_an_old_key_for_another_document(client, organiser):
    factories.presets()
    url = reverse("import_table", kwargs={"slug": organiser.slug})
    key = factories.key()
    assert client.post(url, {"key": key, "document": json.dumps(DOCUMENT)}).status_code == 302
    other = {**DOCUMENT, "deals": []}
    response = client.post(url, {"key": key, "document": json.dumps(other)})
    assert REFUSED_DE in response.content.decode()
    assert Sheet.objects.filter(club=organiser).count() == 1


# -- rule sets ------------------------------------------------------------------------


def test_copying_a_rule_set_twice_with_one_key_copies_once():
    club = factories.club()
    wiki = factories.presets()["wiki"]
    key = uuid.uuid4()
    first = rulesets.copy_rule_set(club, wiki, key, actor=SYSTEM)
    assert rulesets.copy_rule_set(club, wiki, key, actor=SYSTEM).pk == first.pk
    assert RuleSet.objects.filter(club=club).count() == 1


def test_a_key_that_copied_one_rule_set_does_not_copy_another():
    club = factories.club()
    presets = factories.presets()
    key = uuid.uuid4()
    rulesets.copy_rule_set(club, presets["wiki"], key, actor=SYSTEM)
    with pytest.raises(RuleError) as error:
        rulesets.copy_rule_set(club, presets["spielregeln"], key, actor=SYSTEM)
    assert error.value.field == "key"
    with pytest.raises(RuleError):  # nor one for another club
        rulesets.copy_rule_set(factories.club(), presets["wiki"], key, actor=SYSTEM)
    assert RuleSet.objects.filter(club__isnull=False).count() == 1


def test_the_rule_sets_page_refuses_an_old_key_for_another_copy(client, organiser):
    presets = factories.presets()
    url = reverse("rule_sets", kwargs={"slug": organiser.slug})
    key = factories.key()
    assert client.post(url, {"key": key, "copy": presets["wiki"].pk}).status_code == 302
    response = client.post(url, {"key": key, "copy": presets["spielregeln"].pk}, follow=True)
    assert REFUSED_DE in response.content.decode()
    assert [r.copied_from_id for r in RuleSet.objects.filter(club=organiser)] == [
        presets["wiki"].pk
    ]


# -- tournaments ------------------------------------------------------------------------


def test_a_sale_sent_twice_with_one_key_sells_once():
    t = factories.tournament(factories.club())
    key = uuid.uuid4()
    first = sell_cards(t, "Anna", 2, ACTOR, key, paid=True)
    again = sell_cards(t, "Anna", 2, ACTOR, key, paid=True)
    assert [c.pk for c in again] == [c.pk for c in first]
    assert Card.objects.filter(tournament=t).count() == 2


@pytest.mark.parametrize("change", [("Ben", 2, True), ("Anna", 1, True), ("Anna", 2, False)])
def test_a_key_that_sold_cards_does_not_sell_others(change):
    t = factories.tournament(factories.club())
    key = uuid.uuid4()
    sell_cards(t, "Anna", 2, ACTOR, key, paid=True)
    name, count, paid = change
    with pytest.raises(RuleError) as error:
        sell_cards(t, name, count, ACTOR, key, paid=paid)
    assert error.value.field == "key"
    assert Card.objects.filter(tournament=t).count() == 2


def test_the_desk_refuses_an_old_sale_key_for_another_player(client, organiser):
    t = factories.tournament(organiser)
    url = reverse("sell", kwargs={"slug": organiser.slug, "tournament_id": t.pk})
    key = factories.key()
    sold = client.post(url, {"key": key, "name": "Anna", "count": 1, "paid": "on"})
    assert sold.status_code == 302
    response = client.post(url, {"key": key, "name": "Ben", "count": 1, "paid": "on"})
    assert REFUSED_DE in response.content.decode()
    assert [c.player.name for c in Card.objects.filter(tournament=t)] == ["Anna"]
    assert response.context["sell_form"]["key"].value() != key


@pytest.fixture
def match(db):
    club = factories.club()
    t = factories.tournament(club)
    for i in range(8):
        sell_cards(t, f"P{i}", 1, ACTOR, uuid.uuid4(), paid=True)
    draw_round(t, ACTOR, seed=1)
    return Pairing.objects.filter(tournament=t, kind="match").order_by("number").first()


def test_a_result_sent_twice_with_one_key_is_recorded_once(match):
    key = uuid.uuid4()
    first = record_result(match, match.left_id, "2:1", key, ACTOR)
    again = record_result(match, match.left_id, "2:1", key, ACTOR)
    assert again.pk == first.pk
    assert Result.objects.filter(pairing=match).count() == 1


@pytest.mark.parametrize("write", ["record_result", "correct_result"])
def test_a_key_that_recorded_a_result_does_not_record_another(match, write):
    key = uuid.uuid4()
    record_result(match, match.left_id, "2:1", key, ACTOR)
    with pytest.raises(RuleError) as error:
        getattr(results, write)(match, match.right_id, "2:0", key, ACTOR)
    assert error.value.field == "key"
    (result,) = Result.objects.filter(pairing=match)
    assert (result.winner_id, result.score, result.voided_at) == (match.left_id, "2:1", None)


def test_a_key_of_one_match_does_not_decide_another(match):
    key = uuid.uuid4()
    record_result(match, match.left_id, "2:1", key, ACTOR)
    other = Pairing.objects.filter(tournament=match.tournament, kind="match").last()
    with pytest.raises(RuleError) as error:
        record_result(other, other.left_id, "2:1", key, ACTOR)
    assert error.value.field == "key"
    assert not Result.objects.filter(pairing=other).exists()


def test_the_match_link_refuses_an_old_key_for_another_result(client, match):
    url = reverse("match_link", kwargs={"token": match.token})
    key = factories.key()
    client.post(url, {"key": key, "winner": match.left_id, "score": "2:1", "seen": "none"})
    void_result(match, ACTOR)  # the organiser voids it meanwhile
    # The old page again: it was rendered without a result, as the match is again now.
    response = client.post(
        url, {"key": key, "winner": match.right_id, "score": "2:0", "seen": "none"}
    )
    assert REFUSED_DE in response.content.decode()
    assert not Result.objects.live().filter(pairing=match).exists()


# -- clubs and invitations ------------------------------------------------------------------


def test_founding_a_club_twice_with_one_key_founds_it_once():
    founder = factories.user()
    key = uuid.uuid4()
    first = club_services.create_club("Die Bummerl-Buam", founder, key)
    again = club_services.create_club(" Die  Bummerl-Buam ", founder, key)
    assert again.pk == first.pk
    assert Club.objects.filter(key=key).count() == 1
    assert AuditEntry.objects.filter(action="club created", club=first).count() == 1


@pytest.mark.parametrize("change", ["name", "account"])
def test_a_key_that_founded_a_club_does_not_found_or_answer_another(change):
    founder, other = factories.user(), factories.user()
    key = uuid.uuid4()
    first = club_services.create_club("Die Bummerl-Buam", founder, key)
    name, account = {
        "name": ("Die Kartler", founder),
        "account": ("Die Bummerl-Buam", other),
    }[change]
    with pytest.raises(RuleError) as error:
        club_services.create_club(name, account, key)
    assert error.value.field == "key"
    assert list(Club.objects.values_list("pk", flat=True)) == [first.pk]
    assert list(Membership.objects.values_list("user_id", "club_id")) == [(founder.pk, first.pk)]


@pytest.mark.parametrize("change", ["name", "account"])
def test_the_found_page_refuses_an_old_key_for_another_club_and_offers_a_new_key(change):
    founder, other = factories.user(), factories.user()
    key = factories.key()
    url = reverse("club_new")
    first = Client()
    first.force_login(founder)
    assert first.post(url, {"name": "Die Bummerl-Buam", "key": key}).status_code == 302
    client = Client()
    client.force_login(founder if change == "name" else other)
    name = "Die Kartler" if change == "name" else "Die Bummerl-Buam"
    response = client.post(url, {"name": name, "key": key})
    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == [REFUSED_FULL_DE]
    assert REFUSED_DE in response.content.decode()
    fresh = response.context["form"]["key"].value()
    assert fresh != key and f'value="{fresh}"' in response.content.decode()
    assert Club.objects.count() == 1
    # Sent again with the fresh key, the form founds the club it shows.
    assert client.post(url, {"name": name, "key": fresh}).status_code == 302
    assert sorted(Club.objects.values_list("name", flat=True)) == sorted(["Die Bummerl-Buam", name])


@pytest.fixture
def owners():
    """A club with two owners, and a second club of the first owner."""
    club = factories.club()
    olga = factories.user(club, role="owner")
    otto = factories.user(club, role="owner")
    second = factories.club()
    Membership.objects.create(user=olga, club=second, role="owner")
    return club, second, olga, otto


def test_an_invitation_sent_twice_with_one_key_is_made_once(owners):
    club, _second, olga, _otto = owners
    key = uuid.uuid4()
    first = invitations.create_invitation(club, "scorer", olga, key)
    assert invitations.create_invitation(club, "scorer", olga, key).pk == first.pk
    assert Invitation.objects.count() == 1


@pytest.mark.parametrize("change", ["role", "club", "account"])
def test_a_key_that_made_an_invitation_does_not_make_or_answer_another(owners, change):
    club, second, olga, otto = owners
    key = uuid.uuid4()
    first = invitations.create_invitation(club, "scorer", olga, key)
    where, role, by = {
        "role": (club, "organiser", olga),
        "club": (second, "scorer", olga),
        "account": (club, "scorer", otto),
    }[change]
    with pytest.raises(RuleError) as error:
        invitations.create_invitation(where, role, by, key)
    assert error.value.field == "key"
    assert list(Invitation.objects.values_list("pk", "club_id", "role")) == [
        (first.pk, club.pk, "scorer")
    ]


@pytest.mark.parametrize("change", ["role", "club", "account"])
def test_the_members_page_refuses_an_old_key_for_another_invitation(owners, change):
    club, second, olga, otto = owners
    key = factories.key()
    first = Client()
    first.force_login(olga)
    url = reverse("members", kwargs={"slug": club.slug})
    assert first.post(url, {"role": "scorer", "key": key}).status_code == 302
    client = Client()
    client.force_login(otto if change == "account" else olga)
    where = second if change == "club" else club
    role = "organiser" if change == "role" else "scorer"
    response = client.post(
        reverse("members", kwargs={"slug": where.slug}), {"role": role, "key": key}
    )
    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == [REFUSED_FULL_DE]
    assert REFUSED_DE in response.content.decode()
    fresh = response.context["form"]["key"].value()
    assert fresh != key and f'value="{fresh}"' in response.content.decode()
    assert list(Invitation.objects.values_list("club_id", "role")) == [(club.pk, "scorer")]
