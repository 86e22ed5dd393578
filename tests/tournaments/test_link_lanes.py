"""Links stay in their lane (issue section 3, and the tournament desk of section 2): a
standing result is changed only by organisers, an undone draw closes its match sheets,
and a result form refuses to write over a result it did not show."""

import random
import threading
import uuid

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from scoring import services as scoring
from scoring.models import Deal, Sheet
from scoring.rules import QuickDeal
from scoring.services import Actor
from tests import factories
from tournaments.models import Pairing, Result
from tournaments.services.draws import draw_round, undo_draw
from tournaments.services.reading import load_state
from tournaments.services.result_texts import StaleResult
from tournaments.services.results import correct_result, record_result, void_result
from tournaments.services.sheets import SHEET_REMADE, open_match_sheet
from tournaments.simulation import play_open_matches, simulate

pytestmark = pytest.mark.django_db
ACTOR = Actor()
LINK = scoring.Actor(None, via_link=True)
# Seat 1 (the right card) wins 7 points twice: two Bummerl, a Partie of 2:0.
RIGHT_WINS = [QuickDeal(1, 3), QuickDeal(1, 3), QuickDeal(1, 1)] * 2


def hhmm(result):
    return timezone.localtime(result.recorded_at).strftime("%H:%M")


def played_on_its_sheet(club):
    """Round 1 drawn; the first match played to 2:0 for the right card on its sheet."""
    factories.presets()
    t = factories.night(club)
    draw_round(t, ACTOR, seed=1)
    pairing = factories.first_match(t)
    sheet = open_match_sheet(pairing, ACTOR)
    for entry in RIGHT_WINS:
        scoring.record_entry(sheet, entry, uuid.uuid4(), LINK)
    pairing.refresh_from_db()
    return t, pairing, sheet


def names(pairing):
    return pairing.left.player.name, pairing.right.player.name


# -- 1. once a result stands, only an organiser changes it ------------------------------


def test_a_standing_result_makes_the_match_sheet_read_only_for_the_link(client):
    t, pairing, sheet = played_on_its_sheet(factories.club())
    result = Result.objects.live().get(pairing=pairing)
    left, right = names(pairing)
    page = client.get(f"/e/{sheet.entry_token}/").content.decode()
    stands = (
        f"Das Ergebnis steht: {right} 2:0, auf dem Blatt entschieden um {hhmm(result)}; "
        "nur die Turnierleitung kann es ändern."
    )
    assert stands in page
    assert 'name="kind"' not in page and "Streichen" not in page  # no form, no strike-out
    last = Deal.objects.filter(sheet=sheet).order_by("-position").first()
    struck = client.post(f"/e/{sheet.entry_token}/deals/{last.pk}/void/")
    assert stands in struck.content.decode()
    correct = client.get(f"/e/{sheet.entry_token}/deals/{last.pk}/correct/", follow=True)
    assert correct.redirect_chain == [(f"/e/{sheet.entry_token}/", 302)]
    assert stands in correct.content.decode()
    recorded = client.post(
        f"/e/{sheet.entry_token}/record/",
        {"key": str(uuid.uuid4()), "kind": "quick", "winner": 0, "points": 3},
    )
    assert recorded.status_code == 200
    assert Deal.objects.filter(sheet=sheet, voided_at__isnull=True).count() == 6
    live = Result.objects.live().get(pairing=pairing)
    assert (live.pk, live.winner_id, live.score) == (result.pk, pairing.right_id, "2:0")


def test_a_scorer_cannot_change_the_sheet_of_a_standing_result_but_an_organiser_can(client):
    club = factories.club()
    t, pairing, sheet = played_on_its_sheet(club)
    last = Deal.objects.filter(sheet=sheet).order_by("-position").first()
    client.force_login(factories.user(club, role="scorer"))
    page = client.get(f"/tables/{sheet.pk}/")
    assert page.context["access"].can_write is False
    client.post(f"/tables/{sheet.pk}/deals/{last.pk}/void/")
    assert Deal.objects.get(pk=last.pk).voided_at is None
    organiser = factories.user(club, role="organiser", username="leitung")
    client.force_login(organiser)
    page = client.get(f"/tables/{sheet.pk}/")
    assert page.context["access"].can_write is True
    assert 'id="sheet-locked"' in page.content.decode()  # the organiser sees why others can't
    client.post(f"/tables/{sheet.pk}/deals/{last.pk}/void/")
    assert Deal.objects.get(pk=last.pk).voided_at is not None
    # The Partie is open again: the result the sheet made is voided, the link writes again.
    assert not Result.objects.live().filter(pairing=pairing).exists()
    assert Sheet.objects.get(pk=sheet.pk).locked_at is None


def test_a_result_entered_on_the_desk_locks_the_sheet_and_names_who_and_when(client):
    club = factories.club()
    factories.presets()
    t = factories.night(club)
    draw_round(t, ACTOR, seed=1)
    pairing = factories.first_match(t)
    sheet = open_match_sheet(pairing, ACTOR)
    scoring.record_entry(sheet, QuickDeal(0, 3), uuid.uuid4(), LINK)
    desk = factories.user(club, role="organiser", username="anna.desk")
    client.force_login(desk)
    url = reverse(
        "result", kwargs={"slug": club.slug, "tournament_id": t.pk, "pairing_id": pairing.pk}
    )
    client.post(
        url, {"key": str(uuid.uuid4()), "winner": pairing.left_id, "score": "2:1", "seen": "none"}
    )
    result = Result.objects.live().get(pairing=pairing)
    client.logout()
    left, _right = names(pairing)
    page = client.get(f"/e/{sheet.entry_token}/").content.decode()
    assert (
        f"Das Ergebnis steht: {left} 2:1, eingetragen von anna.desk um {hhmm(result)}; "
        "nur die Turnierleitung kann es ändern."
    ) in page
    with pytest.raises(scoring.RuleError) as refused:
        scoring.record_entry(sheet, QuickDeal(0, 3), uuid.uuid4(), LINK)
    assert refused.value.field == "sheet"
    assert Deal.objects.filter(sheet=sheet).count() == 1
    # Voiding the result on the desk opens the sheet again.
    void_result(pairing, ACTOR)
    scoring.record_entry(sheet, QuickDeal(0, 3), uuid.uuid4(), LINK)
    assert Deal.objects.filter(sheet=sheet).count() == 2


def test_a_sheet_that_contradicts_the_result_is_flagged_on_the_round_page_and_the_desk(client):
    club = factories.club()
    t, pairing, sheet = played_on_its_sheet(club)
    left, right = names(pairing)
    client.force_login(factories.user(club, role="organiser"))
    live = Result.objects.live().get(pairing=pairing)
    correct_result(pairing, pairing.left_id, "2:1", uuid.uuid4(), ACTOR, seen=live.pk)
    flag = f"Blatt sagt {right} 2:0, Ergebnis sagt {left} 2:1."
    round_page = client.get(
        reverse("round", kwargs={"slug": club.slug, "tournament_id": t.pk, "number": 1})
    )
    assert flag in round_page.content.decode()
    desk = client.get(reverse("tournament", kwargs={"slug": club.slug, "tournament_id": t.pk}))
    assert flag in desk.content.decode()
    # Voided on the desk: the sheet still says who won, and the desk says so.
    void_result(pairing, ACTOR)
    desk = client.get(reverse("tournament", kwargs={"slug": club.slug, "tournament_id": t.pk}))
    assert f"Blatt sagt {right} 2:0, es steht kein Ergebnis." in desk.content.decode()
    # A sheet that agrees with the result is not flagged.
    record_result(pairing, pairing.right_id, "2:0", uuid.uuid4(), ACTOR)
    desk = client.get(reverse("tournament", kwargs={"slug": club.slug, "tournament_id": t.pk}))
    assert "Blatt sagt" not in desk.content.decode()


# -- 2. an undone pairing closes its sheet ---------------------------------------------


def test_a_match_sheet_of_an_undone_draw_says_so_and_takes_nothing_more(client):
    factories.presets()
    t = factories.night(factories.club())
    round_ = draw_round(t, ACTOR, seed=1)
    pairing = factories.first_match(t)
    sheet = open_match_sheet(pairing, ACTOR)
    scoring.record_entry(sheet, QuickDeal(0, 3), uuid.uuid4(), LINK)
    page = client.get(f"/e/{sheet.entry_token}/")  # opened before the undo
    assert 'name="kind"' in page.content.decode()
    undo_draw(t, round_.pk, ACTOR)
    undone = (
        "Diese Auslosung wurde zurückgenommen: die Partie gibt es nicht mehr, dieses Blatt "
        "nimmt keine Spiele mehr an."
    )
    response = client.post(
        f"/e/{sheet.entry_token}/record/",
        {"key": str(uuid.uuid4()), "kind": "quick", "winner": 1, "points": 3},
    )
    assert undone in response.content.decode()
    last = Deal.objects.get(sheet=sheet)
    response = client.post(f"/e/{sheet.entry_token}/deals/{last.pk}/void/")
    assert undone in response.content.decode()
    assert list(Deal.objects.filter(sheet=sheet).values_list("voided_at", flat=True)) == [None]
    organiser = scoring.Actor(factories.user(t.club, role="organiser"), organiser=True)
    with pytest.raises(scoring.RuleError):  # nobody writes on a closed sheet
        scoring.record_entry(sheet, QuickDeal(1, 3), uuid.uuid4(), organiser)


def test_a_sheet_of_a_placement_match_made_again_takes_nothing_more(db):
    factories.presets()
    t = simulate(factories.club(), cards=16, players=16, max_cards=1, seed=5, stop_after=3)
    for pairing in load_state(t).placement:
        if pairing.label == "5-8" and not pairing.results.live().exists():
            pairing.tournament = t
            record_result(pairing, pairing.left_id, "2:0", uuid.uuid4(), ACTOR)
    state = load_state(t)
    five = next(p for p in state.placement if p.label == "5")
    five.tournament = t
    sheet = open_match_sheet(five, ACTOR)
    first = next(p for p in state.placement if p.label == "5-8")
    first.tournament = t
    void_result(first, ACTOR)
    with pytest.raises(scoring.RuleError) as refused:
        scoring.record_entry(sheet, QuickDeal(0, 3), uuid.uuid4(), LINK)
    assert refused.value.template == SHEET_REMADE


# -- 3. the desk and a phone at the same moment -----------------------------------------


def _post_result(client, url, pairing, winner, score, seen, **extra):
    data = {"key": str(uuid.uuid4()), "winner": winner, "score": score, "seen": seen, **extra}
    return client.post(url, data)


def test_the_phone_that_loses_the_race_sees_the_desk_result_with_who_and_when(client):
    club = factories.club()
    t = factories.night(club)
    draw_round(t, ACTOR, seed=1)
    pairing = factories.first_match(t)
    left, right = names(pairing)
    link = reverse("match_link", kwargs={"token": pairing.token})
    phone_page = client.get(link)  # rendered with no result
    assert 'name="seen" value="none"' in phone_page.content.decode()
    desk_user = factories.user(club, role="organiser", username="kassa")
    desk = record_result(
        pairing,
        pairing.left_id,
        "2:0",
        uuid.uuid4(),
        Actor(desk_user, organiser=True),
        seen=None,
    )
    response = _post_result(client, link, pairing, pairing.right_id, "2:1", "none")
    html = response.content.decode()
    assert response.status_code == 409
    assert f"Inzwischen hat kassa um {hhmm(desk)} {left} 2:0 eingetragen." in html
    assert (
        f"Das Ergebnis steht: {left} 2:0, eingetragen von kassa um {hhmm(desk)}; "
        "nur die Turnierleitung kann es ändern."
    ) in html
    assert "korrigieren" not in html and "Danke" not in html
    assert list(Result.objects.filter(pairing=pairing).values_list("winner_id", "score")) == [
        (pairing.left_id, "2:0")
    ]


def test_the_desk_that_loses_the_race_sees_the_phone_result_and_can_correct_in_one_tap(client):
    club = factories.club()
    t = factories.night(club)
    draw_round(t, ACTOR, seed=1)
    pairing = factories.first_match(t)
    left, right = names(pairing)
    client.force_login(factories.user(club, role="organiser"))
    url = reverse(
        "result", kwargs={"slug": club.slug, "tournament_id": t.pk, "pairing_id": pairing.pk}
    )
    round_url = reverse("round", kwargs={"slug": club.slug, "tournament_id": t.pk, "number": 1})
    assert 'name="seen" value="none"' in client.get(round_url).content.decode()
    phone = record_result(pairing, pairing.right_id, "2:1", uuid.uuid4(), LINK, seen=None)
    response = _post_result(client, url, pairing, pairing.left_id, "2:0", "none")
    html = response.content.decode()
    assert response.status_code == 409
    assert f"Inzwischen wurde um {hhmm(phone)} {right} 2:1 mit dem Partie-Link eingetragen." in html
    offer = f"Auf meine Eingabe korrigieren: {left} 2:0"
    assert offer in html
    assert f'name="seen" value="{phone.pk}"' in html
    assert Result.objects.live().get(pairing=pairing).pk == phone.pk
    # The one tap: a correction from the state the refusal showed.
    _post_result(client, url, pairing, pairing.left_id, "2:0", phone.pk, correct="1")
    live = Result.objects.live().get(pairing=pairing)
    assert (live.winner_id, live.score) == (pairing.left_id, "2:0")
    assert Result.objects.filter(pairing=pairing).count() == 2


def test_two_posts_from_one_rendered_state_leave_the_first_and_refuse_the_second(client):
    club = factories.club()
    t = factories.night(club)
    draw_round(t, ACTOR, seed=1)
    pairing = factories.first_match(t)
    client.force_login(factories.user(club, role="organiser"))
    url = reverse(
        "result", kwargs={"slug": club.slug, "tournament_id": t.pk, "pairing_id": pairing.pk}
    )
    first = _post_result(client, url, pairing, pairing.left_id, "2:0", "none")
    assert first.status_code == 302
    second = _post_result(client, url, pairing, pairing.right_id, "2:1", "none")
    assert second.status_code == 409
    same = _post_result(client, url, pairing, pairing.left_id, "2:0", "none")
    assert same.status_code == 302  # the same result again changes nothing
    assert list(Result.objects.filter(pairing=pairing).values_list("winner_id", "score")) == [
        (pairing.left_id, "2:0")
    ]


def test_a_correction_or_void_from_an_older_state_is_refused(client):
    club = factories.club()
    t = factories.night(club)
    draw_round(t, ACTOR, seed=1)
    pairing = factories.first_match(t)
    client.force_login(factories.user(club, role="organiser"))
    url = reverse(
        "result", kwargs={"slug": club.slug, "tournament_id": t.pk, "pairing_id": pairing.pk}
    )
    old = record_result(pairing, pairing.left_id, "2:0", uuid.uuid4(), ACTOR)
    new = correct_result(pairing, pairing.left_id, "2:1", uuid.uuid4(), ACTOR, seen=old.pk)
    response = client.post(url, {"void": "1", "seen": old.pk})
    assert response.status_code == 409
    response = _post_result(client, url, pairing, pairing.right_id, "2:0", old.pk, correct="1")
    assert response.status_code == 409
    live = Result.objects.live().get(pairing=pairing)
    assert (live.pk, live.score) == (new.pk, "2:1")
    # A form without its state is refused too.
    response = client.post(
        url, {"key": str(uuid.uuid4()), "winner": pairing.right_id, "score": "2:0"}
    )
    assert Result.objects.live().get(pairing=pairing).pk == new.pk


def test_two_threads_sending_results_from_one_state_leave_one_and_name_it(transactional_db):
    club = factories.club()
    t = factories.night(club)
    draw_round(t, ACTOR, seed=1)
    pairing = factories.first_match(t)
    outcomes = {}

    def send(winner):
        try:
            record_result(pairing, winner, "2:0", uuid.uuid4(), ACTOR, seen=None)
            outcomes[winner] = "ok"
        except StaleResult as error:
            outcomes[winner] = error.live.winner_id
        finally:
            connection.close()

    threads = [
        threading.Thread(target=send, args=(w,)) for w in (pairing.left_id, pairing.right_id)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    live = Result.objects.live().get(pairing=pairing)
    loser = pairing.right_id if live.winner_id == pairing.left_id else pairing.left_id
    assert outcomes == {live.winner_id: "ok", loser: live.winner_id}


def test_a_deal_on_the_sheet_after_a_desk_result_is_refused_with_that_result(db):
    factories.presets()
    club = factories.club()
    t = factories.night(club)
    draw_round(t, ACTOR, seed=1)
    pairing = factories.first_match(t)
    sheet = open_match_sheet(pairing, ACTOR)
    page_access = Sheet.objects.get(pk=sheet.pk)  # the phone's page, rendered before
    desk = record_result(pairing, pairing.right_id, "2:1", uuid.uuid4(), ACTOR, seen=None)
    with pytest.raises(scoring.RuleError) as refused:
        scoring.record_entry(page_access, QuickDeal(0, 3), uuid.uuid4(), LINK)
    _left, right = names(pairing)
    assert refused.value.params == {"winner": right, "score": "2:1", "by": "", "time": hhmm(desk)}
    assert not Deal.objects.filter(sheet=sheet).exists()


def test_no_new_sheet_opens_for_a_match_whose_result_stands(client):
    factories.presets()
    t = factories.night(factories.club())
    draw_round(t, ACTOR, seed=1)
    pairing = factories.first_match(t)
    desk = record_result(pairing, pairing.left_id, "2:0", uuid.uuid4(), ACTOR)
    response = client.post(reverse("match_sheet", kwargs={"token": pairing.token}), follow=True)
    left, _right = names(pairing)
    assert (
        f"Das Ergebnis steht: {left} 2:0, mit dem Partie-Link eingetragen um {hhmm(desk)}; "
        "nur die Turnierleitung kann es ändern."
    ) in response.content.decode()
    assert Pairing.objects.get(pk=pairing.pk).sheet_id is None


def _deciding_deal_against_the_desk(club, seed):
    """One race: the phone sends the deal that decides the Partie on the match's sheet
    while the desk enters another result by hand; (outcomes, live result, pairing)."""
    t = factories.night(club)
    draw_round(t, ACTOR, seed=seed)
    pairing = factories.first_match(t)
    sheet = open_match_sheet(pairing, ACTOR)
    for entry in RIGHT_WINS[:-1]:
        scoring.record_entry(sheet, entry, uuid.uuid4(), LINK)
    barrier = threading.Barrier(2)
    outcomes = {}

    def phone():
        barrier.wait()
        try:
            scoring.record_entry(sheet, RIGHT_WINS[-1], uuid.uuid4(), LINK)
            outcomes["phone"] = "ok"
        except scoring.RuleError as error:
            outcomes["phone"] = error.field
        finally:
            connection.close()

    def desk():
        barrier.wait()
        try:
            record_result(pairing, pairing.left_id, "2:1", uuid.uuid4(), ACTOR, seen=None)
            outcomes["desk"] = "ok"
        except StaleResult as error:
            outcomes["desk"] = error.field
        finally:
            connection.close()

    threads = [threading.Thread(target=phone), threading.Thread(target=desk)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Result.objects.filter(pairing=pairing).count() == 1
    return outcomes, Result.objects.live().get(pairing=pairing), pairing


def test_a_deciding_deal_and_a_desk_result_at_once_leave_one_result_and_one_refusal(
    transactional_db,
):
    # The sheet's write locks the sheet, then the tournament; the desk's the same way
    # round (its sheet first): neither waits on the other (no deadlock on PostgreSQL).
    factories.presets()
    club = factories.club()
    for seed in range(3):
        outcomes, live, pairing = _deciding_deal_against_the_desk(club, seed)
        if live.from_sheet:
            assert outcomes == {"phone": "ok", "desk": "pairing"}
            assert (live.winner_id, live.score) == (pairing.right_id, "2:0")
        else:
            assert outcomes == {"phone": "sheet", "desk": "ok"}
            assert (live.winner_id, live.score) == (pairing.left_id, "2:1")


def test_a_draw_button_from_an_older_desk_page_draws_nothing(client):
    club = factories.signed_in_club(client)
    t = factories.night(club)
    url = reverse("draw_next", kwargs={"slug": club.slug, "tournament_id": t.pk})
    desk = reverse("tournament", kwargs={"slug": club.slug, "tournament_id": t.pk})
    assert 'name="round" value="1"' in client.get(desk).content.decode()
    client.post(url, {"mode": "digital", "round": "1"})
    play_open_matches(t, random.Random(1))
    response = client.post(url, {"mode": "digital", "round": "1"}, follow=True)
    assert "Runde 1 ist schon ausgelost: diese Seite war veraltet." in response.content.decode()
    assert t.rounds.live().count() == 1
