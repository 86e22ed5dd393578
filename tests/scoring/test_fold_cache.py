"""The fold kept with a sheet (``scoring.foldcache``) gives exactly what a fresh fold of
every deal gives, for Schnapsen, Dreier- and Bauernschnapsen, whatever happened to the sheet:
deals, redeals, tie-breaks, corrections, strike-outs and undos in any order.

Two properties: the rule core going on from any ``Mark`` (written as JSON and read
back) equals the whole fold; and through the services, after every step of a random
evening, the recent part read on the kept fold equals the same part of a fresh read of
the whole sheet (totals, tally, games, dealer, Rufer, tie-break, Partie, each line),
in its 2 queries.
"""

import copy
import json
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import foldcache, reading, services
from scoring.models import Sheet
from scoring.rules import (
    DreierDeal,
    End,
    EndedDeal,
    QuickDeal,
    Redeal,
    RuleError,
    TieBreak,
    Variant,
    score_sheet,
)
from scoring.rules.presets import preset
from tests import factories

WIKI = preset("wiki")
CONTRACTS = ["normal", "normal", "normal", "bettler", "schnapser", "gang", "kontraschnapser"]
BAUERN_CONTRACTS = [*CONTRACTS, "bauernschnapser", "kontrabauernschnapser", "zehnergang"]
RULES = {
    Variant.SCHNAPSEN: WIKI,
    Variant.DREIERSCHNAPSEN: WIKI,
    Variant.BAUERNSCHNAPSEN: preset("bauern"),
}
VARIANTS = list(RULES)
NAMES = {2: ("Anna", "Ben"), 3: ("Anna", "Ben", "Clara"), 4: ("Anna", "Ben", "Clara", "Dora")}
CHOICES = st.lists(st.integers(0, 2**30), min_size=1, max_size=60)


def next_entry(variant: Variant, state, choice: int):
    """A valid next entry of the sheet in ``state``, decoded from ``choice``."""
    if variant is Variant.SCHNAPSEN:
        if choice % 7 == 0:
            return EndedDeal(End.AUSMELDEN, choice // 7 % 2, choice // 14 % 120, True)
        return QuickDeal(choice % 2, 1 + choice // 2 % 3)
    if state.awaiting_tiebreak:
        return TieBreak(state.awaiting_tiebreak[choice % 2])
    if choice % 9 == 0:
        return Redeal()
    seats = variant.seats
    contracts = BAUERN_CONTRACTS if variant is Variant.BAUERNSCHNAPSEN else CONTRACTS
    contract = contracts[choice // 9 % len(contracts)]
    won = choice // 100 % 3 != 0
    if contract == "normal":
        return DreierDeal("normal", state.rufer, won, 0, 1 + choice // 300 % 3)
    declarer = state.rufer if contract == "schnapser" else choice // 300 % seats
    if contract.startswith("kontra") and declarer == state.rufer:
        declarer = (declarer + 1) % seats
    return DreierDeal(contract, declarer, won, choice // 900 % 2)


def grow(variant: Variant, choices: list[int]) -> list:
    entries: list = []
    state = score_sheet(variant, RULES[variant], 0, entries)
    for choice in choices:
        if state.partie_winner is not None:
            break
        entry = next_entry(variant, state, choice)
        try:
            state = score_sheet(variant, RULES[variant], 0, [*entries, entry])
        except RuleError:
            continue
        entries.append(entry)
    return entries


def assert_same(part, whole) -> None:
    """``part`` (a fold from a mark) is the matching part of ``whole`` (a fresh fold)."""
    assert part.lines == whole.lines[part.first_line :]
    for name in ("totals", "tally", "games", "dealer", "rufer", "awaiting_tiebreak"):
        assert getattr(part, name) == getattr(whole, name), name
    assert part.partie_winner == whole.partie_winner


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=150, deadline=None)
@given(choices=CHOICES)
def test_going_on_from_a_kept_mark_is_the_whole_fold(variant, choices):
    entries = grow(variant, choices)
    rules = RULES[variant]
    whole = score_sheet(variant, rules, 0, entries)
    assert [m.count for m in whole.marks] == sorted({m.count for m in whole.marks})
    for mark in whole.marks:
        kept = json.loads(json.dumps(foldcache.dump(mark.state)))  # as the database keeps it
        read = foldcache.load(kept)
        assert read == mark.state
        part = score_sheet(variant, rules, 0, entries[mark.count :], type(mark)(mark.count, read))
        assert part.first_line == mark.count
        assert_same(part, whole)
        # Folding on from a mark leaves it as it was: it can be gone on from again.
        before = copy.deepcopy(mark.state)
        for _ in range(2):
            assert_same(score_sheet(variant, rules, 0, entries[mark.count :], mark), whole)
            assert mark.state == before


def test_a_mark_where_a_game_began_carries_the_games_before():
    entries = grow(Variant.SCHNAPSEN, [1, 3, 5, 5, 1, 3, 5, 5, 1, 3])
    whole = score_sheet(Variant.SCHNAPSEN, WIKI, 0, entries)
    assert len(whole.games) >= 1
    open_game = whole.marks[-1]
    assert open_game.count == whole.games[-1].decided_at + 1
    assert len(open_game.state["games"]) == len(whole.games)


# -- through the services, on the database ----------------------------------------------

STEPS = st.lists(st.tuples(st.integers(0, 9), st.integers(0, 2**30)), min_size=1, max_size=40)
ACTOR = services.Actor()


def live_rows(sheet):
    return list(reading.read_sheet(sheet).live_deals)


def step(sheet, variant, op: int, choice: int):
    """One thing that happens at the table: a deal (6 in 10), a correction, a strike-out
    of any deal, an undo of the last one; a redeal (Dreierschnapsen). The services'
    RuleErrors (a deal after the Partie, a strike-out that breaks a later deal) are part
    of an evening: nothing is written then. Returns the ScoredSheet a write gave."""
    whole = reading.read_sheet(sheet)
    live = list(whole.live_deals)
    try:
        if op <= 5 or (op == 9 and variant is Variant.SCHNAPSEN) or not live and op <= 8:
            entry = next_entry(variant, whole.state, choice)
            return services.record_entry(sheet, entry, uuid.uuid4(), ACTOR)[0]
        if op == 6:
            target = live[choice % len(live)]
            index = live.index(target)
            earlier = [d.entry for d in live[:index]]
            before = services.core.score_sheet(variant, RULES[variant], 0, earlier)
            entry = next_entry(variant, before, choice // 7)
            return services.correct_deal(sheet, target.pk, entry, uuid.uuid4(), ACTOR)[0]
        if op == 7:
            return services.void_deal(sheet, live[choice % len(live)].pk, ACTOR)[0]
        if op == 8:
            return services.void_deal(sheet, live[-1].pk, ACTOR)[0]
        return services.record_entry(sheet, Redeal(), uuid.uuid4(), ACTOR)[0]
    except RuleError:
        return None


@pytest.mark.django_db
@pytest.mark.parametrize("variant", VARIANTS)
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=STEPS)
def test_the_kept_fold_reads_as_a_fresh_fold_after_any_evening(variant, steps):
    club = factories.club()
    preset_name = "bauern" if variant is Variant.BAUERNSCHNAPSEN else "wiki"
    sheet = factories.sheet(club, names=NAMES[variant.seats], preset=preset_name)
    players = reading.load_players(sheet)
    reading.read_recent(sheet, players)  # the page of the new table keeps its first fold
    for op, choice in steps:
        written = step(sheet, variant, op, choice)
        whole = reading.read_sheet(sheet)
        if written is not None:
            assert_same(written.state, whole.state)
            assert written.version == whole.version
            # The page after a write lists the rows a fresh read lists.
            shown = reading.recent_part(written)
            fresh = reading.recent_part(whole)
            assert [d.pk for d in shown.deals] == [d.pk for d in fresh.deals]
            assert shown.state.first_line == fresh.state.first_line
        sheet = Sheet.objects.get(pk=sheet.pk)
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as queries:
            recent = reading.read_recent(sheet, players)
        assert len(queries) == 2  # the kept fold was used: no whole read
        assert_same(recent.state, whole.state)
        assert recent.state == reading.recent_part(whole).state
        assert [d.pk for d in recent.deals] == [d.pk for d in reading.recent_part(whole).deals]
        assert recent.version == whole.version


# -- the fold as text ------------------------------------------------------------------


@pytest.mark.django_db
def test_marks_read_from_the_kept_fold_stay_as_they_were_after_writes_on_them():
    sheet = factories.sheet(factories.club())
    factories.fill(sheet, count=12)
    text = Sheet.objects.get(pk=sheet.pk).fold
    struck = json.loads(text)["struck"]
    marks = foldcache.kept(text, struck)
    assert marks is not None and foldcache.kept(text, struck) == marks
    # Deals recorded on the kept fold, until the open game ends and the marks move on.
    while Sheet.objects.get(pk=sheet.pk).fold == text:
        entry = factories.next_entry(sheet)
        services.record_entry(sheet, entry, uuid.uuid4(), ACTOR)
    assert foldcache.made(struck, marks) == text  # the shared marks are unchanged
    assert foldcache.kept(text, struck) == marks


@pytest.mark.django_db
@pytest.mark.parametrize(
    "kept",
    ["", "{}", "not JSON", "{'struck': 0, 'code': 'x', 'marks': []}", '{"marks": [{"count": 1}]}'],
)
def test_a_fold_that_is_no_fold_is_made_again_from_every_deal(kept):
    """An empty fold (a new table), or text that is no fold: a restored backup of a version
    that kept the fold as JSON data gives its Python form. A read folds every deal and
    writes nothing; the next write keeps the fold again."""
    sheet = factories.sheet(factories.club())
    factories.fill(sheet, count=20)
    Sheet.objects.filter(pk=sheet.pk).update(fold=kept)
    sheet = Sheet.objects.get(pk=sheet.pk)
    recent = reading.read_recent(sheet)
    whole = reading.read_sheet(sheet)
    assert recent.state == reading.recent_part(whole).state
    assert Sheet.objects.get(pk=sheet.pk).fold == kept  # a read writes nothing
    services.record_entry(sheet, factories.next_entry(sheet), uuid.uuid4(), ACTOR)
    whole = reading.read_sheet(sheet)
    made = Sheet.objects.get(pk=sheet.pk).fold
    assert [m.count for m, _after in foldcache.kept(made, 0)] == [
        m.count for m in whole.state.marks
    ]
