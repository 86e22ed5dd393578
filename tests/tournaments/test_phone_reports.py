"""Results from the players' phones (``Tournament.result_check`` "confirm"): a result
entered with a player's own link is reported, and counts when the other player
confirms it or the desk accepts it; two reports that differ wait for the desk.

The night: 8 cards, round 1 drawn, three matches still open (``simulate``)."""

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import AuditEntry
from tests import factories
from tournaments.models import Outcome, Pairing, Report, Result
from tournaments.services.reading import load_state
from tournaments.services.reports import renew_side_link, revoke_side_link
from tournaments.services.sheets import Actor
from tournaments.simulation import simulate

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    factories.presets()
    club = factories.club()
    t = simulate(club, cards=8, players=6, max_cards=2, seed=1, stop_after=1)
    t.result_check = "confirm"
    t.save(update_fields=["result_check"])
    state = load_state(t)
    open_matches = [
        p
        for p in state.pairings[state.current.pk]
        if p.kind == "match" and p.pk not in state.results
    ]
    return club, t, open_matches


def side(pairing, which):
    token = pairing.left_token if which == "left" else pairing.right_token
    return reverse("side_link", kwargs={"token": token})


def report(client, pairing, which, winner, score="2:1", key=None):
    return client.post(
        side(pairing, which),
        {"key": str(key or uuid.uuid4()), "winner": winner, "score": score},
    )


def confirm(client, pairing, which, report_id, key=None):
    return client.post(
        side(pairing, which),
        {"key": str(key or uuid.uuid4()), "confirm": "1", "report": report_id},
    )


def test_a_result_from_a_players_link_is_reported_and_counts_when_the_other_confirms(night):
    _club, t, (pairing, *_rest) = night
    anna, ben = Client(), Client()
    assert report(anna, pairing, "left", pairing.left_id).status_code == 302
    assert Result.objects.live_for(pairing) is None
    waiting = Report.objects.open().get(pairing=pairing)
    assert (waiting.side, waiting.winner_id, waiting.score) == ("left", pairing.left_id, "2:1")
    page = ben.get(side(pairing, "right")).content.decode()
    assert f'name="report" value="{waiting.pk}"' in page
    assert confirm(ben, pairing, "right", waiting.pk).status_code == 302
    result = Result.objects.live_for(pairing)
    assert (result.winner_id, result.score) == (pairing.left_id, "2:1")
    waiting.refresh_from_db()
    assert waiting.outcome == Outcome.CONFIRMED and waiting.closed_at is not None
    actions = list(
        AuditEntry.objects.filter(scope="tournament", scope_id=t.pk)
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions[-2:] == ["result reported", "result confirmed"]


def test_a_player_cannot_confirm_his_own_report(night):
    _club, _t, (pairing, *_rest) = night
    anna = Client()
    report(anna, pairing, "left", pairing.left_id)
    mine = Report.objects.open().get(pairing=pairing)
    response = confirm(anna, pairing, "left", mine.pk)
    assert response.status_code == 409
    assert Result.objects.live_for(pairing) is None


def test_a_stale_page_never_confirms_a_report_its_user_did_not_see(night):
    _club, _t, (pairing, *_rest) = night
    anna, ben = Client(), Client()
    report(anna, pairing, "left", pairing.left_id, "2:1")
    seen = Report.objects.open().get(pairing=pairing)
    # Anna changes her report before Ben taps Confirm on the page he loaded.
    report(anna, pairing, "left", pairing.right_id, "2:0")
    response = confirm(ben, pairing, "right", seen.pk)
    assert response.status_code == 409
    # He is shown what stands now: Anna's new report, not the one he saw.
    assert f"hat gemeldet: {pairing.right.player.name} gewinnt 2:0." in response.content.decode()
    assert Result.objects.live_for(pairing) is None
    seen.refresh_from_db()
    assert seen.outcome == Outcome.REPLACED


def test_a_double_confirm_records_once(night):
    _club, _t, (pairing, *_rest) = night
    anna, ben = Client(), Client()
    report(anna, pairing, "left", pairing.left_id)
    waiting = Report.objects.open().get(pairing=pairing)
    key = uuid.uuid4()
    assert confirm(ben, pairing, "right", waiting.pk, key).status_code == 302
    assert confirm(ben, pairing, "right", waiting.pk, key).status_code == 302
    assert Result.objects.filter(pairing=pairing).count() == 1


def test_a_double_report_records_once(night):
    _club, _t, (pairing, *_rest) = night
    anna = Client()
    key = uuid.uuid4()
    report(anna, pairing, "left", pairing.left_id, key=key)
    report(anna, pairing, "left", pairing.left_id, key=key)
    assert Report.objects.filter(pairing=pairing).count() == 1


def test_two_equal_reports_are_the_result(night):
    _club, _t, (pairing, *_rest) = night
    report(Client(), pairing, "left", pairing.right_id, "2:0")
    report(Client(), pairing, "right", pairing.right_id, "2:0")
    result = Result.objects.live_for(pairing)
    assert (result.winner_id, result.score) == (pairing.right_id, "2:0")
    assert set(Report.objects.filter(pairing=pairing).values_list("outcome", flat=True)) == {
        Outcome.CONFIRMED
    }


def test_a_disagreement_is_flagged_on_the_desk_with_both_reports_and_the_organiser_picks(night):
    club, t, (pairing, *_rest) = night
    report(Client(), pairing, "left", pairing.left_id, "2:1")
    report(Client(), pairing, "right", pairing.right_id, "2:1")
    assert Result.objects.live_for(pairing) is None
    organiser = Client()
    organiser.force_login(factories.user(club, role="organiser"))
    desk = reverse("tournament", kwargs={"slug": club.slug, "tournament_id": t.pk})
    page = organiser.get(desk).content.decode()
    assert f'id="reports-{pairing.pk}"' in page and "disagreement" in page
    left, right = Report.objects.open().filter(pairing=pairing).order_by("side")
    accept = reverse(
        "accept_report",
        kwargs={"slug": club.slug, "tournament_id": t.pk, "pairing_id": pairing.pk},
    )
    key = str(uuid.uuid4())
    organiser.post(accept, {"key": key, "report": right.pk})
    organiser.post(accept, {"key": key, "report": right.pk})  # a double tap
    result = Result.objects.live_for(pairing)
    assert (result.winner_id, result.score) == (pairing.right_id, "2:1")
    assert Result.objects.filter(pairing=pairing).count() == 1
    left.refresh_from_db()
    right.refresh_from_db()
    assert (left.outcome, right.outcome) == (Outcome.SET_ASIDE, Outcome.ACCEPTED)
    assert f'id="reports-{pairing.pk}"' not in organiser.get(desk).content.decode()
    last = AuditEntry.objects.filter(scope="tournament", scope_id=t.pk).latest("pk")
    assert last.action == "report accepted" and last.after["winner_card"] is not None


def test_only_organisers_accept_a_report(night):
    club, t, (pairing, *_rest) = night
    report(Client(), pairing, "left", pairing.left_id)
    waiting = Report.objects.open().get(pairing=pairing)
    scorer = Client()
    scorer.force_login(factories.user(club, role="scorer"))
    accept = reverse(
        "accept_report",
        kwargs={"slug": club.slug, "tournament_id": t.pk, "pairing_id": pairing.pk},
    )
    assert scorer.post(accept, {"key": str(uuid.uuid4()), "report": waiting.pk}).status_code == 403
    assert Result.objects.live_for(pairing) is None


def test_a_result_entered_on_the_round_page_sets_the_waiting_reports_aside(night):
    club, t, (pairing, *_rest) = night
    report(Client(), pairing, "left", pairing.left_id)
    organiser = Client()
    organiser.force_login(factories.user(club, role="organiser"))
    url = reverse(
        "result", kwargs={"slug": club.slug, "tournament_id": t.pk, "pairing_id": pairing.pk}
    )
    organiser.post(
        url, {"key": str(uuid.uuid4()), "seen": "none", "winner": pairing.right_id, "score": "2:0"}
    )
    assert Result.objects.live_for(pairing).winner_id == pairing.right_id
    assert not Report.objects.open().filter(pairing=pairing).exists()


def test_the_shared_match_link_only_points_to_the_players_links_while_results_are_checked(night):
    _club, _t, (pairing, *_rest) = night
    url = reverse("match_link", kwargs={"token": pairing.token})
    page = Client().get(url).content.decode()
    assert 'id="report-only"' in page and 'name="winner"' not in page
    Client().post(
        url, {"key": str(uuid.uuid4()), "seen": "none", "winner": pairing.left_id, "score": "2:0"}
    )
    assert Result.objects.live_for(pairing) is None


def test_with_single_entry_a_players_link_records_the_result_at_once(night):
    _club, t, (pairing, *_rest) = night
    t.result_check = "single"
    t.save(update_fields=["result_check"])
    report(Client(), pairing, "right", pairing.right_id, "2:0")
    assert Result.objects.live_for(pairing).winner_id == pairing.right_id
    assert not Report.objects.filter(pairing=pairing).exists()


def test_a_side_link_reaches_only_its_match_and_side(night):
    _club, _t, (pairing, other, *_rest) = night
    # A card of another match as winner: refused.
    response = report(Client(), pairing, "left", other.left_id)
    assert response.status_code == 409
    page = Client().get(side(pairing, "left")).content.decode()
    for token in (pairing.token, pairing.right_token, other.left_token, other.right_token):
        assert token not in page
    assert Client().get("/s/nonsense/").status_code == 404


def test_a_side_link_is_revoked_and_renewed_like_a_table_link(night):
    club, t, (pairing, *_rest) = night
    old = pairing.left_token
    organiser = factories.user(club, role="organiser")
    revoke_side_link(pairing, "left", Actor(organiser))
    assert Client().get(side(pairing, "left")).status_code == 404
    assert Client().get(side(pairing, "right")).status_code == 200
    renew_side_link(pairing, "left", Actor(organiser))
    pairing.refresh_from_db()
    assert pairing.left_token != old and pairing.left_revoked_at is None
    assert Client().get(side(pairing, "left")).status_code == 200
    assert Client().get(reverse("side_link", kwargs={"token": old})).status_code == 404
    actions = AuditEntry.objects.filter(scope="tournament", scope_id=t.pk).values_list(
        "action", flat=True
    )
    assert {"side link revoked", "side link renewed"} <= set(actions)
    entries = AuditEntry.objects.filter(action__startswith="side link")
    assert all(old not in str(e.after) and pairing.left_token not in str(e.after) for e in entries)


def test_the_side_links_page_is_for_organisers(night):
    club, t, (pairing, *_rest) = night
    url = reverse(
        "side_links", kwargs={"slug": club.slug, "tournament_id": t.pk, "pairing_id": pairing.pk}
    )
    scorer, organiser = Client(), Client()
    scorer.force_login(factories.user(club, role="scorer"))
    organiser.force_login(factories.user(club, role="organiser"))
    assert scorer.get(url).status_code == 403
    page = organiser.get(url).content.decode()
    assert pairing.left_token in page and pairing.right_token in page


def test_the_match_sheets_carry_both_players_links_while_results_are_checked(night):
    from tournaments import printing

    _club, t, (pairing, *_rest) = night
    round_ = load_state(t).current
    context = printing.match_sheets_context(t, round_, lambda path: "http://testserver" + path)
    sheet = next(r for r in context["rows"] if r.pairing.pk == pairing.pk)
    assert len(sheet.side_qrs) == 2 and sheet.qr == ""
    t.result_check = "single"
    context = printing.match_sheets_context(t, round_, lambda path: "http://testserver" + path)
    sheet = next(r for r in context["rows"] if r.pairing.pk == pairing.pk)
    assert sheet.side_qrs == () and sheet.qr


def test_the_setting_defaults_to_single_entry(night):
    club, *_ = night
    assert factories.tournament(club).result_check == "single"
    assert Pairing._meta.get_field("left_token").unique


def test_the_players_link_and_the_desk_speak_german(night):
    club, t, (pairing, *_rest) = night
    report(Client(), pairing, "left", pairing.left_id, "2:1")
    page = Client().get(side(pairing, "right")).content.decode()
    assert "hat gemeldet" in page and "Bestätigen:" in page and "Ergebnis melden" in page
    organiser = Client()
    organiser.force_login(factories.user(club, role="organiser"))
    desk = organiser.get(reverse("tournament", kwargs={"slug": club.slug, "tournament_id": t.pk}))
    html = desk.content.decode()
    assert "Ergebnisse von den Handys der Spieler" in html and "Dieses Ergebnis übernehmen" in html
    assert "reported" not in html


def test_two_confirmations_and_an_acceptance_at_once_leave_one_result(transactional_db):
    import threading

    from django.db import connection

    from scoring.rules import RuleError
    from tournaments.services.reports import accept_report, confirm_report, report_result

    factories.presets()
    club = factories.club()
    t = simulate(club, cards=8, players=6, max_cards=2, seed=1, stop_after=1)
    t.result_check = "confirm"
    t.save(update_fields=["result_check"])
    state = load_state(t)
    pairing = next(
        p
        for p in state.pairings[state.current.pk]
        if p.kind == "match" and p.pk not in state.results
    )
    waiting = report_result(pairing, "left", pairing.left_id, "2:1", uuid.uuid4())
    organiser = Actor(factories.user(club, role="organiser"), organiser=True)
    errors = []

    def run(write):
        try:
            write()
        except RuleError as error:
            errors.append(error)
        finally:
            connection.close()

    writes = [
        lambda: confirm_report(pairing, "right", waiting.pk, uuid.uuid4()),
        lambda: confirm_report(pairing, "right", waiting.pk, uuid.uuid4()),
        lambda: accept_report(pairing, waiting.pk, uuid.uuid4(), organiser),
    ]
    threads = [threading.Thread(target=run, args=(w,)) for w in writes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Result.objects.filter(pairing=pairing).count() == 1
    assert len(errors) == 2  # the report no longer waits for the later two


def test_a_points_event_takes_a_reported_and_confirmed_result_into_its_standing():
    """RULES.md 6 with the check of the players' results: a report counts once the other
    player confirms it, and the standing gives each player his Bummerl as points."""
    from tournaments import formats
    from tournaments.services.draws import draw_round
    from tournaments.simulation import simulate_format

    factories.presets()
    t = simulate_format(factories.club(), "points", 4, 2, rounds=3, stop_after=0)
    t.result_check = "confirm"
    t.save(update_fields=["result_check"])
    draw_round(t, Actor(), seed=9)
    pairing = Pairing.objects.filter(tournament=t, kind="match").order_by("number").first()
    anna, ben = Client(), Client()
    assert report(anna, pairing, "left", pairing.left_id, "2:1").status_code == 302
    assert Result.objects.live_for(pairing) is None
    waiting = Report.objects.open().get(pairing=pairing)
    assert confirm(ben, pairing, "right", waiting.pk).status_code == 302
    result = Result.objects.live_for(pairing)
    assert (result.winner_id, result.score) == (pairing.left_id, "2:1")
    points = {line.card.pk: line.points for line in formats.board(load_state(t)).lines}
    assert (points[pairing.left_id], points[pairing.right_id]) == (2, 1)


REFUSED_FULL_DE = (
    "Dieses Formular wurde schon für einen anderen Eintrag verwendet: Nichts wurde "
    "gespeichert. Bitte die Seite neu laden und nochmals eingeben."
)


def test_a_key_that_confirmed_one_match_confirms_nothing_in_another(night):
    _club, _t, (first, second, *_rest) = night
    report(Client(), first, "left", first.left_id)
    report(Client(), second, "left", second.left_id)
    one, two = (Report.objects.open().get(pairing=p) for p in (first, second))
    key = uuid.uuid4()
    assert confirm(Client(), first, "right", one.pk, key).status_code == 302
    response = confirm(Client(), second, "right", two.pk, key)
    assert response.status_code == 409
    assert REFUSED_FULL_DE in response.content.decode()
    assert "?sent=" not in response.get("Location", "")
    assert Result.objects.live_for(second) is None
    assert list(Report.objects.open().filter(pairing=second)) == [two]


def test_the_desk_does_not_accept_a_report_with_a_key_of_another_match(night):
    club, t, (first, second, *_rest) = night
    report(Client(), first, "left", first.left_id)
    report(Client(), second, "left", second.right_id, "2:0")
    one, two = (Report.objects.open().get(pairing=p) for p in (first, second))
    organiser = Client()
    organiser.force_login(factories.user(club, role="organiser"))

    def accept(pairing, report_id):
        url = reverse(
            "accept_report",
            kwargs={"slug": club.slug, "tournament_id": t.pk, "pairing_id": pairing.pk},
        )
        return organiser.post(url, {"key": key, "report": report_id}, follow=True)

    key = str(uuid.uuid4())
    accept(first, one.pk)
    page = accept(second, two.pk).content.decode()
    assert REFUSED_FULL_DE in page
    assert Result.objects.live_for(second) is None
    assert list(Report.objects.open().filter(pairing=second)) == [two]
    assert Result.objects.live_for(first).winner_id == first.left_id


def test_a_key_that_confirmed_a_report_does_not_accept_the_other_report_of_the_match(night):
    club, t, (pairing, *_rest) = night
    report(Client(), pairing, "left", pairing.left_id, "2:1")
    report(Client(), pairing, "right", pairing.right_id, "2:1")
    left, right = Report.objects.open().filter(pairing=pairing).order_by("side")
    organiser = Client()
    organiser.force_login(factories.user(club, role="organiser"))
    url = reverse(
        "accept_report", kwargs={"slug": club.slug, "tournament_id": t.pk, "pairing_id": pairing.pk}
    )
    key = str(uuid.uuid4())
    organiser.post(url, {"key": key, "report": left.pk})
    # The same key with the other report (an old tab's form): refused, the result stands.
    page = organiser.post(url, {"key": key, "report": right.pk}, follow=True).content.decode()
    assert REFUSED_FULL_DE in page
    result = Result.objects.live_for(pairing)
    assert (result.winner_id, Result.objects.filter(pairing=pairing).count()) == (
        pairing.left_id,
        1,
    )


def test_a_report_key_of_one_match_reports_nothing_in_another(night):
    _club, _t, (first, second, *_rest) = night
    key = uuid.uuid4()
    report(Client(), first, "left", first.left_id, key=key)
    response = report(Client(), second, "left", second.left_id, key=key)
    assert response.status_code == 409
    assert REFUSED_FULL_DE in response.content.decode()
    assert not Report.objects.filter(pairing=second).exists()


def pairing_names(pairing) -> tuple[str, str]:
    pairing = Pairing.objects.select_related("left__player", "right__player").get(pk=pairing.pk)
    return pairing.left.player.name, pairing.right.player.name


def test_a_confirmed_report_is_credited_to_the_two_players_not_the_match_link(night):
    club, t, (pairing, *_rest) = night
    anna, ben = pairing_names(pairing)
    report(Client(), pairing, "left", pairing.left_id, "2:1")
    waiting = Report.objects.open().get(pairing=pairing)
    confirm(Client(), pairing, "right", waiting.pk)
    result = Result.objects.live_for(pairing)
    assert (result.reported_side, result.confirmed_side) == ("left", "right")
    stands = Client().get(side(pairing, "right")).content.decode()
    text = re.search(r'id="result-stands">([^<]*)<', stands).group(1)
    assert text.startswith(
        f"Das Ergebnis steht: {anna} 2:1, gemeldet von {anna} und bestätigt von {ben} um "
    )
    assert "Partie-Link" not in text
    organiser = Client()
    organiser.force_login(factories.user(club, role="organiser"))
    url = reverse("round", kwargs={"slug": club.slug, "tournament_id": t.pk, "number": 1})
    page = organiser.get(url).content.decode()
    assert re.search(rf'<small class="entered">gemeldet von {anna}, bestätigt von {ben} um ', page)


def test_two_equal_reports_credit_the_first_reporter_and_the_second_as_confirming(night):
    _club, _t, (pairing, *_rest) = night
    anna, ben = pairing_names(pairing)
    report(Client(), pairing, "right", pairing.right_id, "2:0")
    report(Client(), pairing, "left", pairing.right_id, "2:0")
    stands = Client().get(side(pairing, "left")).content.decode()
    assert f"gemeldet von {ben} und bestätigt von {anna} um " in stands


def test_an_accepted_report_names_the_reporter_and_the_organiser(night):
    club, t, (pairing, *_rest) = night
    anna, _ben = pairing_names(pairing)
    report(Client(), pairing, "left", pairing.left_id, "2:1")
    waiting = Report.objects.open().get(pairing=pairing)
    organiser = Client()
    organiser.force_login(factories.user(club, role="organiser", username="olga"))
    accept = reverse(
        "accept_report",
        kwargs={"slug": club.slug, "tournament_id": t.pk, "pairing_id": pairing.pk},
    )
    organiser.post(accept, {"key": str(uuid.uuid4()), "report": waiting.pk})
    stands = Client().get(side(pairing, "right")).content.decode()
    assert f"gemeldet von {anna} und angenommen von olga um " in stands


def test_with_single_entry_the_result_is_credited_to_the_players_own_link(night):
    _club, t, (pairing, *_rest) = night
    t.result_check = "single"
    t.save(update_fields=["result_check"])
    _anna, ben = pairing_names(pairing)
    report(Client(), pairing, "right", pairing.right_id, "2:0")
    stands = Client().get(side(pairing, "left")).content.decode()
    assert f"2:0, mit dem Link von {ben} eingetragen um " in stands


@pytest.mark.parametrize("format", ["leben", "points"])
def test_every_format_s_desk_lists_the_players_reports_and_offers_how_they_are_checked(format):
    """Issue 38: a Leben or points event whose results from the phones wait for the
    other player: two differing reports are listed on the desk as a disagreement with an
    accept button each, as on a card night's desk; the desk's select offers the choices
    and saving one keeps it."""
    from tournaments.models import ResultCheck
    from tournaments.services.draws import draw_round
    from tournaments.simulation import simulate_format

    factories.presets()
    club = factories.club()
    t = simulate_format(club, format, 4, 2, rounds=3, stop_after=0)
    t.result_check = "confirm"
    t.save(update_fields=["result_check"])
    draw_round(t, Actor(), seed=9)
    pairing = Pairing.objects.filter(tournament=t, kind="match").order_by("number").first()
    report(Client(), pairing, "left", pairing.left_id, "2:0")
    report(Client(), pairing, "right", pairing.right_id, "2:1")
    organiser = Client()
    organiser.force_login(factories.user(club, role="organiser"))
    desk = reverse("tournament", kwargs={"slug": club.slug, "tournament_id": t.pk})
    page = organiser.get(desk).content.decode()
    listed = re.search(rf'<li class="banner warn disagreement"\s+id="reports-{pairing.pk}">', page)
    assert listed is not None
    assert page.count('name="report"') == 2
    options = re.findall(r'<option value="([a-z]+)"', page.split('name="result_check"')[1])
    assert options == list(ResultCheck.values)
    check = reverse("result_check", kwargs={"slug": club.slug, "tournament_id": t.pk})
    organiser.post(check, {"result_check": "single"})
    t.refresh_from_db()
    assert t.result_check == "single"
    # the organiser picks the right one, as on a card night
    right = Report.objects.open().get(pairing=pairing, side="right")
    accept = reverse(
        "accept_report",
        kwargs={"slug": club.slug, "tournament_id": t.pk, "pairing_id": pairing.pk},
    )
    organiser.post(accept, {"key": str(uuid.uuid4()), "report": right.pk})
    result = Result.objects.live_for(pairing)
    assert (result.winner_id, result.score) == (pairing.right_id, "2:1")
