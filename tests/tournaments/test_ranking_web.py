"""The ranking past the prize matches, categories, the consolation and the auditable
draw through the pages and services (RULES.md 5.8, 5.9, 5.11, 5.12)."""

import io
import json
import random
import uuid

import pytest
from django.core.management import call_command
from django.urls import reverse
from pypdf import PdfReader

from clubs.models import Category, Player
from scoring.services import Actor
from tests import factories
from tournaments import verify
from tournaments.categories import category_lists
from tournaments.export import export
from tournaments.models import Pairing, Round, TieBreak, Tournament
from tournaments.services.cards import sell_cards
from tournaments.services.draws import draw_round
from tournaments.services.physical_draws import add_pull, start_physical_draw
from tournaments.services.reading import load_state, physical_session
from tournaments.simulation import play_open_matches, simulate

pytestmark = pytest.mark.django_db
ACTOR = Actor()


def organiser(client, club):
    client.force_login(factories.user(club, role="organiser"))
    return client


def url(name, t, **kwargs):
    return reverse(name, kwargs={"slug": t.club.slug, "tournament_id": t.pk, **kwargs})


# --- RULES.md 5.12: the auditable draw ---------------------------------------------------


def test_the_desk_and_the_room_screen_show_the_commitment_and_the_draw_keeps_its_seed(client):
    club = factories.club()
    t = factories.tournament(club, cards=8, sold=5)
    organiser(client, club)
    desk = client.get(url("tournament", t))
    number, shown, name = desk.context["next_commitment"]
    holders = [(f"P{i}", [i + 1]) for i in range(5)]
    assert (number, shown) == (1, verify.commit(t.draw_nonce, t.draw_seed, 1, 4, holders))
    assert name == "Viertelfinale"  # 5 of 8 cards: pots of 4
    screen = client.get(reverse("bracket", kwargs={"token": t.public_token}))
    assert shown in screen.content.decode()
    assert "Festlegung der Auslosung, Viertelfinale (SHA-256):" in screen.content.decode()
    response = client.post(
        url("draw_next", t), {"mode": "digital", "round": "1", "commitment": shown}
    )
    assert response.status_code == 302
    drawn = Round.objects.get(tournament=t)
    assert (drawn.seed, drawn.nonce, drawn.commitment) == (t.draw_seed, t.draw_nonce, shown)
    fresh = Tournament.objects.get(pk=t.pk)
    assert (fresh.draw_seed, fresh.draw_nonce) != (t.draw_seed, t.draw_nonce)
    screen = client.get(reverse("bracket", kwargs={"token": t.public_token})).content.decode()
    assert str(t.draw_seed) in screen and shown in screen


def test_a_draw_is_refused_when_the_cards_changed_since_the_commitment_shown(client):
    club = factories.club()
    t = factories.tournament(club, cards=8, sold=5)
    organiser(client, club)
    shown = client.get(url("tournament", t)).context["next_commitment"][1]
    sell_cards(t, "Spät", 1, ACTOR, uuid.uuid4(), paid=True)
    response = client.post(
        url("draw_next", t), {"mode": "digital", "round": "1", "commitment": shown}, follow=True
    )
    assert not Round.objects.filter(tournament=t).exists()
    assert [str(m) for m in response.context["messages"]] == [
        "Die Karten im Spiel haben sich geändert, seit diese Seite gezeigt wurde, und mit "
        "ihnen die Festlegung: prüfe die neue und lose noch einmal aus."
    ]
    again = client.get(url("tournament", t)).context["next_commitment"][1]
    assert again != shown


def test_the_verify_command_replays_a_whole_night_and_names_a_wrong_seed(tmp_path):
    club = factories.club()
    t = simulate(club, cards=32, players=20, max_cards=3, seed=11)
    document = export(t)
    path = tmp_path / "night.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out = io.StringIO()
    call_command("tournament", "verify", str(path), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "round 1, digital, commitment ok: ok"
    assert lines[-2] == "the draw of the matches for places 5-8, digital: ok"
    assert lines[-1] == "6 draws checked, 0 failed"
    document["rounds"][2]["seed"] += 1
    path.write_text(json.dumps(document), encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("tournament", "verify", str(path), stdout=out)
    assert exited.value.code == 1
    lines = out.getvalue().splitlines()
    assert lines[2].startswith("round 3, digital, COMMITMENT WRONG: FAILED")
    assert lines[-1] == "6 draws checked, 1 failed"


def test_the_draw_for_places_5_to_8_keeps_its_seed_and_replays(db):
    t = simulate(factories.club(), cards=16, players=12, max_cards=2, seed=5)
    document = export(t)
    drawn = [p for p in document["placement"] if p.get("label") == "5-8"]
    assert len(drawn) == 2 and drawn[0]["seed"] == drawn[1]["seed"] is not None
    assert drawn[0]["seed"] == Pairing.objects.get(tournament=t, label="5-8", number=1).seed
    (check,) = [c for c in verify.check_export(document) if c.what == "placement"]
    assert check.ok and check.problems == []
    # The same four cards paired otherwise than the seed pairs them: found.
    first, second = drawn
    first["right"], second["left"] = second["left"], first["right"]
    (check,) = [c for c in verify.check_export(document) if c.what == "placement"]
    assert not check.ok and "differ from the replay" in check.problems[0]
    # A night whose "5-8" draw kept no seed (made before seeds were kept) says so.
    for p in drawn:
        del p["seed"]
    (check,) = [c for c in verify.check_export(document) if c.what == "placement"]
    assert not check.ok and check.problems == [
        "no seed kept for this draw (made before seeds were kept)"
    ]


def test_a_draw_at_the_venue_is_replayed_from_its_pulls(db):
    t = factories.tournament(factories.club(), cards=8, sold=6)
    round_ = start_physical_draw(t, ACTOR)
    while True:
        session = physical_session(load_state(t), round_)
        if session.done:
            break
        add_pull(t, round_.pk, session.allowed()[-1], ACTOR)
    checks = verify.check_export(export(t))
    assert [(c.what, c.digital, c.commitment, c.ok) for c in checks] == [
        ("round", False, None, True)
    ]
    document = export(t)
    first = document["rounds"][0]["pairings"][0]
    first["kind"] = "walkover" if first["kind"] == "bye" else "bye"
    assert verify.check_export(document)[0].problems == ["pairing 1 differs from the replay"]


def test_anyone_with_the_public_link_checks_the_draws_and_gets_the_export(client):
    t = simulate(factories.club(), cards=16, players=10, max_cards=2, seed=4)
    page = client.get(reverse("verify_draws", kwargs={"token": t.public_token}))
    assert page.status_code == 200
    assert page.context["failed"] == 0
    rows = [(c.what, c.number) for c, _r in page.context["rows"]]
    assert rows == [("round", 1), ("round", 2), ("round", 3), ("round", 4), ("placement", 5)]
    assert "Jede Auslosung stimmt." in page.content.decode()
    assert "Auslosung der Spiele um Platz 5–8" in page.content.decode()
    data = client.get(reverse("public_export", kwargs={"token": t.public_token}))
    assert json.loads(data.content) == json.loads(json.dumps(export(t, payments=False)))
    assert "cash" in export(t) and "cash" not in json.loads(data.content)  # no payment
    assert client.get("/p/not-a-token/verify/").status_code == 404


# --- RULES.md 5.8: the ranking past the prize matches ------------------------------------


def shared_range(t, first):
    state = load_state(t)
    return [c for f, _last, c in state.placed()[1] if f == first], state


def test_lots_order_every_shared_range_once_and_replay_from_the_export(client):
    club = factories.club()
    t = simulate(club, cards=32, players=24, max_cards=2, seed=5)
    Tournament.objects.filter(pk=t.pk).update(ranking_ties="lot")
    t.refresh_from_db()
    organiser(client, club)
    assert client.post(url("draw_lots", t)).status_code == 302
    ties = list(TieBreak.objects.filter(tournament=t).order_by("first"))
    assert [tb.first for tb in ties] == [9, 17]
    client.post(url("draw_lots", t))  # a second tap draws nothing more
    assert TieBreak.objects.filter(tournament=t).count() == 2
    document = export(t)
    assert all(c.ok for c in verify.check_export(document))
    assert [(x["first"], x["kind"]) for x in document["ties"]] == [(9, "lot"), (17, "lot")]
    ranked = document["ranking"]
    assert [(r["place"], r["to"]) for r in ranked] == [(p, p) for p in range(1, len(ranked) + 1)]
    assert [r["card"] for r in ranked[8:16]] == document["ties"][0]["order"]


def test_a_stechen_orders_its_range_and_a_correction_keeps_the_first(client):
    club = factories.club()
    t = simulate(club, cards=16, players=16, max_cards=1, seed=8)
    Tournament.objects.filter(pk=t.pk).update(ranking_ties="stechen")
    t.refresh_from_db()
    cards, state = shared_range(t, 9)
    numbers = sorted(state.cards[c].number for c in cards)
    assert len(numbers) >= 2
    organiser(client, club)
    order = list(reversed(numbers))
    key = str(uuid.uuid4())
    post = {"key": key, "first": 9, "seen": 0, "order": ", ".join(map(str, order))}
    assert client.post(url("stechen", t), post).status_code == 302
    assert client.post(url("stechen", t), post).status_code == 302  # the same tap again
    assert TieBreak.objects.filter(tournament=t).count() == 1
    ranked = export(t)["ranking"][8 : 8 + len(order)]
    assert [(r["place"], r["to"], r["card"]) for r in ranked] == [
        (9 + i, 9 + i, n) for i, n in enumerate(order)
    ]
    stale = {**post, "key": str(uuid.uuid4()), "order": " ".join(map(str, numbers))}
    refused = client.post(url("stechen", t), stale)
    assert refused.status_code == 400
    assert "Inzwischen" in refused.content.decode()
    first = TieBreak.objects.get(tournament=t)
    fixed = {**stale, "key": str(uuid.uuid4()), "seen": first.pk}
    assert client.post(url("stechen", t), fixed).status_code == 302
    assert [r["card"] for r in export(t)["ranking"][8 : 8 + len(order)]] == numbers
    first.refresh_from_db()
    assert first.voided_at is not None  # kept, voided
    wrong = {**fixed, "key": str(uuid.uuid4()), "seen": TieBreak.objects.live().get().pk}
    wrong["order"] = "1, 2"
    refused = client.post(url("stechen", t), wrong)
    assert refused.status_code == 400
    assert ", ".join(map(str, numbers)) in refused.content.decode()


def test_prizes_past_place_eight_wait_for_the_shared_range_and_the_desk_offers_to_decide(client):
    club = factories.club()
    t = simulate(club, cards=16, players=16, max_cards=1, seed=8)
    t.prizes = [
        *t.prizes,
        {"place": 9, "description": "Kaffee"},
        {"place": 10, "description": "Tee"},
    ]
    t.save(update_fields=["prizes"])
    assert t.ranking_ties == "shared"
    cards, state = shared_range(t, 9)
    lines = {x.place: (x.card, x.open, x.range) for x in state.prize_lines}
    assert lines[9] == lines[10] == (None, "shared", (9, 16))  # never by card number
    organiser(client, club)
    desk = client.get(url("tournament", t)).content.decode()
    assert "Preise 9, 10 fallen in die geteilten Plätze 9–16" in desk
    assert url("tournament_ranking", t) + "#range-9" in desk
    page = client.get(url("tournament_ranking", t)).content.decode()
    assert 'id="range-9"' in page and "offen: Plätze 9–16 sind geteilt" in page
    numbers = [state.cards[c].number for c in cards]
    order = list(reversed(numbers))
    post = {"key": str(uuid.uuid4()), "first": 9, "seen": 0, "order": ", ".join(map(str, order))}
    assert client.post(url("stechen", t), post).status_code == 302
    state = load_state(t)
    by_number = {c.number: c.pk for c in state.cards.values()}
    awards = {a.place: (a.card, a.finished) for a in state.awards()}
    assert awards[9] == (by_number[order[0]], 9) and awards[10] == (by_number[order[1]], 10)
    assert "fallen in die geteilten" not in client.get(url("tournament", t)).content.decode()


def test_the_tournament_form_takes_prizes_up_to_the_cards_laid_out(client):
    club = factories.club()
    organiser(client, club)
    form = {
        "name": "Groß",
        "day": "2026-05-01",
        "time": "19:00",
        "cards": 16,
        "max_cards": 3,
        "match_bummerl": 2,
        "entry_fee": "10",
        "ranking_ties": "lot",
        "prizes": "1: Korb\n12: Kaffee",
    }
    assert client.post(reverse("tournaments", kwargs={"slug": club.slug}), form).status_code == 302
    t = Tournament.objects.get(club=club)
    assert (t.ranking_ties, [p["place"] for p in t.prizes]) == ("lot", [1, 12])
    refused = client.post(
        reverse("tournaments", kwargs={"slug": club.slug}), {**form, "prizes": "17: Zu weit"}
    )
    assert refused.context["form"].errors["prizes"] == [
        "Platz 17 liegt hinter den 16 aufgelegten Karten."
    ]


def test_the_ranking_page_lists_every_player_by_his_best_card(client):
    club = factories.club()
    t = simulate(club, cards=16, players=9, max_cards=3, seed=2)
    client.force_login(factories.user(club, role="member"))
    page = client.get(url("tournament_ranking", t))
    assert page.status_code == 200
    state = load_state(t)
    players = page.context["players"]
    assert len(players) == len({c.player_id for c in state.cards.values()})
    for first, last, name, card in players:
        mine = [r for r in state.ranking() if state.cards[r.card].player.name == name]
        assert (first, last, card.pk) == (mine[0].first, mine[0].last, mine[0].card)


# --- RULES.md 5.9: categories -------------------------------------------------------------


def test_organisers_keep_the_clubs_categories_and_members_only_read_them(client):
    club = factories.club()
    factories.players(club, "Anna Ö")
    page = reverse("categories", kwargs={"slug": club.slug})
    member = factories.user(club, role="member")
    client.force_login(member)
    assert client.get(page).status_code == 200
    assert client.post(page, {"name": "Damen"}).status_code == 403
    organiser(client, club)
    client.post(page, {"name": "Damen"})
    client.post(page, {"name": "damen"})  # the same category
    damen = Category.objects.get(club=club)
    client.post(page, {"category": damen.pk, "name": "anna ö"})
    client.post(page, {"category": damen.pk, "name": "anna ö"})
    assert [p.name for p in damen.players.all()] == ["Anna Ö"]
    refused = client.post(page, {"category": damen.pk, "name": "Niemand"})
    assert refused.status_code == 400
    assert "Der Verein hat keinen Spieler namens Niemand." in refused.content.decode()
    client.post(page, {"category": damen.pk, "name": "Anna Ö", "member": "0"})
    assert damen.players.count() == 0


def category_night(with_overall: bool):
    club = factories.club()
    t = simulate(club, cards=16, players=16, max_cards=1, seed=8)
    t.prizes = t.prizes[:4]  # places 5 and 6 win no overall prize
    t.save(update_fields=["prizes"])
    damen = Category.objects.create(club=club, name="Damen")
    state = load_state(t)
    places = state.player_places()
    champion = next(p for p, (first, _last) in places.items() if first == 1)
    out = [p for p, (first, _last) in places.items() if first in (5, 6)]
    for player in (champion, *out):
        Player.objects.get(pk=player).categories.add(damen)
    t.category_prizes = [
        {"category": damen.pk, "place": 1, "description": "Blumen"},
        {"category": damen.pk, "place": 2, "description": "Buch"},
    ]
    t.category_with_overall = with_overall
    t.save()
    names = {p: Player.objects.get(pk=p).name for p in (champion, *out)}
    return t, [names[champion], *(names[p] for p in out)]


def test_a_category_list_skips_overall_prize_winners_by_default(db):
    t, (champion, first_out, second_out) = category_night(with_overall=False)
    (lst,) = category_lists(load_state(t))
    assert [(line.place, line.card.player.name) for line in lst.lines] == [
        (1, first_out),
        (2, second_out),
    ]
    assert [(x["category"], x["place"], x["player"]) for x in export(t)["category_prizes"]] == [
        ("Damen", 1, first_out),
        ("Damen", 2, second_out),
    ]


def test_a_category_list_with_overall_winners_starts_at_the_best_of_the_category(client):
    t, (champion, first_out, _second) = category_night(with_overall=True)
    (lst,) = category_lists(load_state(t))
    assert [(line.place, line.card.player.name) for line in lst.lines] == [
        (1, champion),
        (2, first_out),
    ]
    client.force_login(factories.user(t.club, role="member"))
    pdf = client.get(url("print_prizes", t))
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Preise Damen" in text and "Blumen" in text and first_out in text
    screen = client.get(reverse("bracket", kwargs={"token": t.public_token})).content.decode()
    assert "Preise Damen" in screen and champion in screen


def test_the_tournament_form_reads_category_prizes_and_names_an_unknown_category(client):
    club = factories.club()
    damen = Category.objects.create(club=club, name="Damen")
    organiser(client, club)
    form = {
        "name": "Mit Damen",
        "day": "2026-05-01",
        "time": "19:00",
        "cards": 16,
        "max_cards": 3,
        "match_bummerl": 2,
        "entry_fee": "10",
        "ranking_ties": "shared",
        "prizes": "1: Korb",
        "category_prizes": "damen 1: Blumen\nDamen 2: Buch",
    }
    assert client.post(reverse("tournaments", kwargs={"slug": club.slug}), form).status_code == 302
    assert Tournament.objects.get(club=club).category_prizes == [
        {"category": damen.pk, "place": 1, "description": "Blumen"},
        {"category": damen.pk, "place": 2, "description": "Buch"},
    ]
    refused = client.post(
        reverse("tournaments", kwargs={"slug": club.slug}),
        {**form, "category_prizes": "Jugend 1: Buch"},
    )
    assert refused.context["form"].errors["category_prizes"] == [
        "Zeile 1: Der Verein hat keine Kategorie „Jugend“ (unter Kategorien anlegen)."
    ]


# --- RULES.md 5.11: the consolation -------------------------------------------------------


def test_a_consolation_for_the_round_one_losers_runs_as_a_night_of_its_own(client):
    club = factories.club()
    main = simulate(club, cards=16, players=12, max_cards=2, seed=3, stop_after=2)
    organiser(client, club)
    too_early = client.post(url("open_consolation", main), {"rounds": 2, "by": "cards"})
    assert too_early.status_code == 400
    assert "Runde 3" in too_early.content.decode()
    opened = client.post(
        url("open_consolation", main), {"rounds": 1, "by": "cards", "prizes": "1: Wein"}
    )
    consolation = Tournament.objects.get(parent=main)
    assert opened["Location"] == url("tournament", consolation)
    client.post(url("open_consolation", main), {"rounds": 1, "by": "cards", "prizes": "1: Wein"})
    assert Tournament.objects.filter(parent=main).count() == 1  # a double tap opens one
    document = export(main)
    losers = []
    for p in document["rounds"][0]["pairings"]:
        if p["kind"] == "match":
            lost = p["right"] if p["winner_card"] == p["left"]["card"] else p["left"]
            losers.append(lost["player"])
    held = sorted(c.player.name for c in consolation.card_set.select_related("player"))
    assert held == sorted(losers)
    assert consolation.cards == max(2, 1 << (len(losers) - 1).bit_length())
    desk = client.get(url("tournament", main)).content.decode()
    assert consolation.name in desk
    rng = random.Random(1)
    while load_state(consolation).next_pot_size() is not None:
        draw_round(consolation, ACTOR)
        play_open_matches(consolation, rng)
    play_open_matches(consolation, rng)
    prizes = export(consolation)["prizes"]
    assert [(p["place"], p["description"]) for p in prizes] == [(1, "Wein")]
    assert prizes[0]["player"] in losers
    assert export(consolation)["consolation_of"] == {"name": main.name, "rounds": 1}
    assert all(c.ok for c in verify.check_export(export(consolation)))
