"""Properties of the rule cores that hold for every sheet (RULES.md sections 2 and 3).

Sheets are grown one valid entry at a time: a deal that the seat of the deal allows,
a redeal now and then, the tie-break deal when one is due. The expected values come
from RULES.md (the contract table, the Spritzen factor, the two-player table), never
from the code under test. No database.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import (
    DreierDeal,
    End,
    EndedDeal,
    QuickDeal,
    Redeal,
    Result,
    RuleError,
    TieBreak,
    Variant,
    score_dreier_deal,
    score_schnapsen_deal,
    score_sheet,
)
from scoring.rules.presets import preset
from scoring.sheetjson import entry_to_dict, parse_document, parse_entry, score_document

PROPERTY = settings(max_examples=200, deadline=None)

WIKI = preset("wiki")
DREI = Variant.DREIERSCHNAPSEN
ZWEI = Variant.SCHNAPSEN
NAMES_3 = ("Anna", "Ben", "Clara")
NAMES_2 = ("Anna", "Ben")

# RULES.md 3.1, the default catalogue.
WIKI_BASES = {
    "bettler": 4,
    "assenbettler": 5,
    "ass_bettler": 5,
    "schnapser": 6,
    "plauderer": 7,
    "damengang": 7,
    "koenigsgang": 8,
    "gang": 9,
    "zehnergang": 10,
    "bauernloch": 12,
    "bauernschnapser": 12,
    "kontraschnapser": 12,
    "farbenringerl": 18,
    "kontrabauernschnapser": 24,
    "trumpfringerl": 24,
}
RUFER_ONLY = {"schnapser", "bauernschnapser"}
NOT_RUFER = {"kontraschnapser", "kontrabauernschnapser"}
BUMMERL_START = 7  # RULES.md 2: both players start a Bummerl at 7.


# --- strategies -----------------------------------------------------------------------------
#
# A sheet is grown entry by entry, and what is valid next depends on the sheet so far (the
# Rufer, a tie-break due). To keep Hypothesis fast, each entry is drawn as one integer and
# decoded digit by digit (``divmod``) into the entry's fields; small integers decode to
# simple entries, so shrinking still leads to short, plain examples.

CHOICE = st.integers(0, 2**40)
DREIER_CODES = ["normal", *sorted(WIKI_BASES)]


def allowed_declarers(code, rufer, normal_game):
    if code == "normal":
        return [0, 1, 2] if normal_game == "each_for_himself" else [rufer]
    if code in RUFER_ONLY:
        return [rufer]
    if code in NOT_RUFER:
        return [s for s in range(3) if s != rufer]
    return [0, 1, 2]


def decode_spritzen(choice):
    """Spritzen level 0..3, 0 half of the time (so games last more than a deal or two)."""
    choice, digit = divmod(choice, 8)
    return choice, 0 if digit >= 4 else digit


def decode_dreier_deal(choice, rufer, rules):
    """A deal the seat of the deal allows under ``rules`` (a wiki-catalogue rule set)."""
    choice, index = divmod(choice, len(DREIER_CODES) + 2)
    code = DREIER_CODES[max(0, index - 2)]  # the normal game three times as often
    seats = allowed_declarers(code, rufer, rules.normal_game)
    choice, seat = divmod(choice, len(seats))
    choice, won = divmod(choice, 2)
    choice, spritzen = decode_spritzen(choice)
    if code == "normal":
        choice, normal_points = divmod(choice, 3)
        if rules.normal_game == "each_for_himself":
            won = 1  # the declarer of the normal game is its winner
        if not rules.spritzen_on_normal:
            spritzen = 0
        return DreierDeal(code, seats[seat], bool(won), spritzen, normal_points + 1)
    return DreierDeal(code, seats[seat], bool(won), spritzen)


def dreier_deals(rufer, rules):
    return CHOICE.map(lambda choice: decode_dreier_deal(choice, rufer, rules))


@st.composite
def dreier_rules(draw):
    return WIKI.with_changes(
        options={
            "normal_game": draw(st.sampled_from(["caller_vs_two", "each_for_himself"])),
            "spritzen_on_normal": draw(st.booleans()),
            "game_target": draw(st.sampled_from([24, 24, 12, 40])),
        }
    )


def expected_value(deal):
    """RULES.md 3.2: base x 2^k; the normal game's base is its 1/2/3."""
    base = deal.normal_points if deal.contract == "normal" else WIKI_BASES[deal.contract]
    return base * 2**deal.spritzen


def grow_dreier_sheet(data, rules, first_dealer=None, max_entries=24):
    """(first dealer, entries, state) of a sheet grown one valid entry at a time."""
    if first_dealer is None:
        first_dealer = data.draw(st.integers(0, 2), label="first_dealer")
    choices = data.draw(st.lists(CHOICE, max_size=max_entries), label="entries")
    entries = []
    state = score_sheet(DREI, rules, first_dealer, entries)
    for choice in choices:
        if state.awaiting_tiebreak is not None:
            entry = TieBreak(state.awaiting_tiebreak[choice % 2])
        elif choice % 10 == 9:
            entry = Redeal()
        else:
            entry = decode_dreier_deal(choice // 10, state.rufer, rules)
        entries.append(entry)
        state = score_sheet(DREI, rules, first_dealer, entries)
    return first_dealer, entries, state


def decode_schnapsen_deal(choice, announcements_need_trick=True):
    """A two-player deal, quick or computed, that carries what its end needs."""
    choice, quick = divmod(choice, 2)
    choice, seat = divmod(choice, 2)
    if quick:
        return QuickDeal(seat, choice % 3 + 1)
    choice, end = divmod(choice, len(End))
    choice, had_trick = divmod(choice, 2)
    if had_trick:
        choice, near_the_line = divmod(choice, 4)
        augen = 32 + choice % 2 if near_the_line == 0 else choice % 121  # 32 / 33 often
    elif announcements_need_trick:
        augen = [0, None][choice % 2]
    else:
        augen = [*range(121), None][choice % 122]
    return EndedDeal(list(End)[end], seat, augen, bool(had_trick))


def schnapsen_deals(announcements_need_trick=True):
    return CHOICE.map(lambda choice: decode_schnapsen_deal(choice, announcements_need_trick))


def rules_table(deal, false_claim):
    """(winner, points) by the table of RULES.md 2."""
    if isinstance(deal, QuickDeal):
        return deal.winner, deal.points
    other = 1 - deal.by
    if not deal.other_had_trick:
        showing = 3  # the loser took no trick
    elif deal.other_augen <= 32:
        showing = 2
    else:
        showing = 1
    if deal.end in (End.AUSMELDEN, End.LAST_TRICK, End.CLOSED_WON):
        return deal.by, showing
    if deal.end is End.CLOSED_FAILED:
        return other, 2 if deal.other_had_trick else 3
    if deal.end is End.FALSE_CLAIM:
        if false_claim == "mirror":
            return other, showing
        return other, 2 if deal.other_had_trick else 3
    return other, 3  # Renonce


@st.composite
def schnapsen_rules(draw):
    return WIKI.with_changes(
        options={
            "false_claim": draw(st.sampled_from(["fixed", "mirror"])),
            "announcements_need_trick": draw(st.booleans()),
            "schneider_counts": draw(st.integers(1, 4)),
            "partie_bummerl": draw(st.sampled_from([2, 3])),
        }
    )


def grow_schnapsen_sheet(data, rules, first_dealer=None, max_entries=30):
    if first_dealer is None:
        first_dealer = data.draw(st.integers(0, 1), label="first_dealer")
    choices = data.draw(st.lists(CHOICE, max_size=max_entries), label="entries")
    entries = []
    state = score_sheet(ZWEI, rules, first_dealer, entries)
    for choice in choices:
        if state.is_closed:
            break
        entries.append(decode_schnapsen_deal(choice, rules.announcements_need_trick))
        state = score_sheet(ZWEI, rules, first_dealer, entries)
    return first_dealer, entries, state


def lines_of_game(state, game):
    return [line for line in state.lines if line.game == game]


def add(a, b):
    return tuple(x + y for x, y in zip(a, b, strict=True))


# --- one Dreierschnapsen deal ---------------------------------------------------------------


@PROPERTY
@given(st.data(), st.integers(0, 2), dreier_rules())
def test_dreier_deal_gives_value_to_the_declarer_alone_or_to_each_of_two(data, rufer, rules):
    deal = data.draw(dreier_deals(rufer, rules))
    points = score_dreier_deal(deal, rufer, rules)
    value = expected_value(deal)
    if deal.won:
        assert points == tuple(value if s == deal.declarer else 0 for s in range(3))
    else:
        assert points == tuple(0 if s == deal.declarer else value for s in range(3))
    assert sorted(points) in ([0, 0, value], [0, value, value])


# --- a Dreierschnapsen sheet ----------------------------------------------------------------


@PROPERTY
@given(st.data(), dreier_rules())
def test_totals_are_the_sum_of_the_deal_points_within_each_game(data, rules):
    _, _, state = grow_dreier_sheet(data, rules)
    running = {}
    for line in state.lines:
        before = running.get(line.game, (0, 0, 0))
        running[line.game] = add(before, line.points)
        assert line.totals == running[line.game]
        if isinstance(line.entry, Redeal | TieBreak):
            assert line.points == (0, 0, 0)
        else:
            value = expected_value(line.entry)
            assert sorted(line.points) in ([0, 0, value], [0, value, value])
    for number, game in enumerate(state.games):
        assert game.final == running[number]
    open_game = len(state.games)
    assert state.totals == running.get(open_game, (0, 0, 0))


@PROPERTY
@given(st.data(), dreier_rules())
def test_game_ends_on_the_first_deal_that_reaches_the_target_never_later(data, rules):
    target = rules.game_target
    _, _, state = grow_dreier_sheet(data, rules)
    for number in range(len(state.games) + 1):
        deals = [ln for ln in lines_of_game(state, number) if not isinstance(ln.entry, TieBreak)]
        reached = [max(line.totals) >= target for line in deals]
        finished = number < len(state.games) or state.awaiting_tiebreak is not None
        if finished:
            assert reached[-1]
            assert not any(reached[:-1])
        else:
            assert not any(reached)
    for game in state.games:
        decider = state.lines[game.decided_at]
        # The deal that reached the target decides, or the tie-break right after it.
        if game.tiebreak is None:
            assert not isinstance(decider.entry, TieBreak)
        else:
            assert isinstance(decider.entry, TieBreak)
            assert max(state.lines[game.decided_at - 1].totals) >= target


@PROPERTY
@given(st.data(), dreier_rules())
def test_tally_is_the_sum_of_the_bummerl_over_the_games(data, rules):
    _, _, state = grow_dreier_sheet(data, rules)
    tally = (0, 0, 0)
    for game in state.games:
        tally = add(tally, game.bummerl)
    assert state.tally == tally


@PROPERTY
@given(st.data(), dreier_rules())
def test_the_loser_of_every_game_gets_the_bummerl_the_rules_name(data, rules):
    target = rules.game_target
    _, _, state = grow_dreier_sheet(data, rules)
    for game in state.games:
        final = game.final
        last = next(
            line
            for line in reversed(state.lines[: game.decided_at + 1])
            if not isinstance(line.entry, TieBreak)
        )
        before = tuple(t - p for t, p in zip(last.totals, last.points, strict=True))
        zero = [s for s in range(3) if before[s] == 0]
        near = [s for s in range(3) if before[s] == target - 1]
        top = [s for s in range(3) if final[s] == max(final)]
        retour = len(zero) == 1 and len(near) == 2 and top == zero
        if retour:
            assert game.result is Result.RETOURSCHNEIDER
            assert game.losers == tuple(near)
            assert game.bummerl == tuple(4 if s in near else 0 for s in range(3))
            continue
        (loser,) = game.losers
        assert final[loser] == min(final)
        lowest = [s for s in range(3) if final[s] == min(final)]
        if len(lowest) == 2:
            assert game.tiebreak == tuple(lowest)
            assert loser != game.tiebreak_winner
            assert game.tiebreak_winner in lowest
        else:
            assert game.tiebreak is None
            assert lowest == [loser]
        count = 2 if final[loser] == 0 else 1
        assert game.result is (Result.SCHNEIDER if count == 2 else Result.BUMMERL)
        assert game.bummerl == tuple(count if s == loser else 0 for s in range(3))


@PROPERTY
@given(st.data(), st.integers(0, 2), st.integers(0, 2), dreier_rules())
def test_retourschneider_exactly_when_the_third_at_zero_wins_against_two_at_23(
    data, third, first, rules
):
    rules = rules.with_changes(options={"game_target": 24})
    the_two = tuple(s for s in range(3) if s != third)
    # The third loses Gang (9), Damengang (7) and Plauderer (7): the two stand at 23.
    prefix = [DreierDeal(code, third, False) for code in ("gang", "damengang", "plauderer")]
    state = score_sheet(DREI, rules, first, prefix)
    assert state.totals == tuple(0 if s == third else 23 for s in range(3))
    if data.draw(st.booleans(), label="the third declares and wins"):
        codes = [
            c for c in WIKI_BASES if third in allowed_declarers(c, state.rufer, rules.normal_game)
        ]
        deal = DreierDeal(
            data.draw(st.sampled_from(codes)), third, True, data.draw(st.integers(0, 3))
        )
    else:
        deal = data.draw(dreier_deals(state.rufer, rules))
    after = score_sheet(DREI, rules, first, [*prefix, deal])
    third_wins_the_game = deal.won and deal.declarer == third and expected_value(deal) >= 24
    if third_wins_the_game:
        (game,) = after.games
        assert game.result is Result.RETOURSCHNEIDER
        assert game.losers == the_two
        assert game.bummerl == tuple(0 if s == third else 4 for s in range(3))
        assert after.tally == game.bummerl
    else:
        assert all(game.result is not Result.RETOURSCHNEIDER for game in after.games)
    if deal.won and deal.declarer == third and not third_wins_the_game:
        assert after.games == ()  # nobody reached 24


@PROPERTY
@given(st.data(), dreier_rules())
def test_dealer_advances_exactly_once_per_deal_that_is_not_a_redeal(data, rules):
    first, _, state = grow_dreier_sheet(data, rules)
    dealer = first
    for line in state.lines:
        if isinstance(line.entry, TieBreak):
            # RULES.md 3.3: the third player deals it. RULES.md does not say who deals
            # after it; the rotation of the Dreier deals goes on as if it were not there.
            game = state.games[line.game]
            assert line.dealer not in game.tiebreak
            assert line.rufer is None
            continue
        assert line.dealer == dealer
        assert line.rufer == (dealer + 1) % 3
        if isinstance(line.entry, DreierDeal):
            dealer = line.rufer  # the Rufer deals next
    assert state.dealer == dealer
    assert state.rufer == (dealer + 1) % 3


@PROPERTY
@given(st.data(), dreier_rules())
def test_nothing_but_the_tiebreak_is_accepted_while_one_is_due(data, rules):
    first, entries, state = grow_dreier_sheet(data, rules)
    if state.awaiting_tiebreak is None:
        return
    next_deal = data.draw(dreier_deals(state.rufer, rules))
    for entry in (next_deal, Redeal()):
        try:
            score_sheet(DREI, rules, first, [*entries, entry])
        except RuleError as error:
            assert error.field == "tiebreak_winner"
            assert error.index == len(entries)
        else:
            raise AssertionError("an entry was accepted while a tie-break was due")


# --- two-player Schnapsen -------------------------------------------------------------------


@PROPERTY
@given(st.data(), schnapsen_rules())
def test_two_player_deal_gives_one_to_three_points_to_exactly_one_player(data, rules):
    deal = data.draw(schnapsen_deals(rules.announcements_need_trick))
    winner, points = score_schnapsen_deal(deal, rules)
    assert winner in (0, 1)
    assert points in (1, 2, 3)
    assert (winner, points) == rules_table(deal, rules.false_claim)


@PROPERTY
@given(st.data(), schnapsen_rules())
def test_two_player_sheet_counts_down_from_seven_and_alternates_the_dealer(data, rules):
    first, _, state = grow_schnapsen_sheet(data, rules)
    running = {}
    for number, line in enumerate(state.lines):
        assert sorted(line.points)[0] == 0 and sorted(line.points)[1] in (1, 2, 3)
        assert line.dealer == (first + number) % 2
        assert line.rufer == 1 - line.dealer
        running[line.game] = add(running.get(line.game, (0, 0)), line.points)
        assert line.totals == running[line.game]
    tally = (0, 0)
    for number, game in enumerate(state.games):
        deals = lines_of_game(state, number)
        assert all(max(line.totals) < BUMMERL_START for line in deals[:-1])
        assert max(deals[-1].totals) >= BUMMERL_START
        assert game.final == running[number]
        (loser,) = game.losers
        assert game.final[1 - loser] >= BUMMERL_START
        schneider = game.final[loser] == 0
        count = rules.schneider_counts if schneider else 1
        assert game.result is (Result.SCHNEIDER if schneider else Result.BUMMERL)
        assert game.bummerl == tuple(count if s == loser else 0 for s in range(2))
        tally = add(tally, game.bummerl)
    assert state.tally == tally
    assert all(0 <= left <= BUMMERL_START for left in state.left)
    assert state.left == tuple(BUMMERL_START - t for t in state.totals)


@PROPERTY
@given(st.data(), schnapsen_rules())
def test_partie_is_decided_by_the_first_to_hang_enough_bummerl_and_closes_the_sheet(data, rules):
    first, entries, state = grow_schnapsen_sheet(data, rules, max_entries=50)
    # Check the Partie after every game: undecided until the deciding game, then closed.
    tally = [0, 0]
    winner = None
    for game in state.games:
        assert winner is None, "a game was played after the Partie was decided"
        for seat in game.losers:
            tally[seat] += game.bummerl[seat]
            if tally[seat] >= rules.partie_bummerl:
                winner = 1 - seat
    assert state.partie_winner == winner
    if winner is not None:
        extra = data.draw(schnapsen_deals(rules.announcements_need_trick))
        try:
            score_sheet(ZWEI, rules, first, [*entries, extra])
        except RuleError as error:
            assert (error.field, error.index) == ("deal", len(entries))
        else:
            raise AssertionError("a deal was accepted after the Partie")


# --- the JSON document: entry_to_dict / parse_entry / score_document -------------------------


@PROPERTY
@given(st.data(), dreier_rules())
def test_dreier_entry_survives_entry_to_dict_and_parse_entry(data, rules):
    _, entries, _ = grow_dreier_sheet(data, rules)
    for entry in entries:
        assert parse_entry(entry_to_dict(entry, NAMES_3), DREI, NAMES_3) == entry


@PROPERTY
@given(st.data(), schnapsen_rules())
def test_two_player_entry_survives_entry_to_dict_and_parse_entry(data, rules):
    entry = data.draw(schnapsen_deals(rules.announcements_need_trick))
    assert parse_entry(entry_to_dict(entry, NAMES_2), ZWEI, NAMES_2) == entry


def per(names, values):
    return dict(zip(names, values, strict=True))


def check_rendered(scored, state, names):
    assert len(scored["deals"]) == len(state.lines)
    for item, line in zip(scored["deals"], state.lines, strict=True):
        assert item["points"] == per(names, line.points)
        assert item["totals"] == per(names, line.totals)
        assert item["dealer"] == names[line.dealer]
        assert item["rufer"] == (None if line.rufer is None else names[line.rufer])
        assert item["game"] == line.game + 1
    assert len(scored["games"]) == len(state.games)
    for rendered, game in zip(scored["games"], state.games, strict=True):
        assert rendered["final"] == per(names, game.final)
        assert rendered["bummerl"] == per(names, game.bummerl)
        assert rendered["result"] == str(game.result)
    assert scored["tally"] == per(names, state.tally)
    assert scored["current"]["totals"] == per(names, state.totals)
    assert scored["current"]["dealer"] == names[state.dealer]


@PROPERTY
@given(st.data(), dreier_rules())
def test_score_document_of_a_written_dreier_sheet_scores_as_the_sheet(data, rules):
    _, entries, state = grow_dreier_sheet(data, rules, first_dealer=0)
    document = {
        "variant": "dreierschnapsen",
        "rule_set": {"preset": "wiki", "options": dict(rules.options)},
        "players": list(NAMES_3),
        "deals": [entry_to_dict(entry, NAMES_3) for entry in entries],
    }
    assert parse_document(document).entries == tuple(entries)
    scored = score_document(document)
    check_rendered(scored, state, NAMES_3)
    # The scored document reads back in as the same sheet.
    assert score_document(scored) == scored


@PROPERTY
@given(st.data(), schnapsen_rules())
def test_score_document_of_a_written_two_player_sheet_scores_as_the_sheet(data, rules):
    _, entries, state = grow_schnapsen_sheet(data, rules, first_dealer=0)
    document = {
        "variant": "schnapsen",
        "rule_set": {"preset": "wiki", "options": dict(rules.options)},
        "players": list(NAMES_2),
        "deals": [entry_to_dict(entry, NAMES_2) for entry in entries],
    }
    assert parse_document(document).entries == tuple(entries)
    scored = score_document(document)
    check_rendered(scored, state, NAMES_2)
    assert scored["current"]["left"] == per(NAMES_2, state.left)
    assert scored["partie_winner"] == (
        None if state.partie_winner is None else NAMES_2[state.partie_winner]
    )
