"""Bauernschnapsen (RULES.md 4): the rule core, one test per rule, and properties of
every sheet grown from valid deals. Expected values come from RULES.md 4, never from
the code under test. No database.

Seats 0..3 clockwise: Anna, Ben, Clara, Dora; Anna and Clara (seats 0, 2) play against
Ben and Dora (seats 1, 3).
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import DreierDeal, Redeal, Result, RuleError, TieBreak, Variant, score_sheet
from scoring.rules.bauern import game_end, may_declare, partner, score_bauern_deal, sits_out
from scoring.rules.dreier import deal_value, score_dreier_deal
from scoring.rules.presets import preset
from scoring.sheetjson import score_document

BAUERN = preset("bauern")
WIKI = preset("wiki")
VIER = Variant.BAUERNSCHNAPSEN
PROPERTY = settings(max_examples=200, deadline=None)

# RULES.md 4.1, the `bauern` catalogue.
BAUERN_BASES = {
    "bettler": 4,
    "ass_bettler": 5,
    "schnapser": 6,
    "gang": 9,
    "zehnergang": 10,
    "bauernschnapser": 12,
    "kontraschnapser": 12,
    "farbenringerl": 18,
    "kontrabauernschnapser": 24,
    "trumpfringerl": 24,
}
RUFER_TEAM = {"schnapser", "bauernschnapser"}
OTHER_TEAM = {"kontraschnapser", "kontrabauernschnapser"}
NOT_SPRITZABLE = {"farbenringerl", "kontrabauernschnapser", "trumpfringerl"}
SITS_OUT = {"bettler", "ass_bettler", "gang", "zehnergang"}


def team_of(seat):
    return {0: (0, 2), 2: (0, 2), 1: (1, 3), 3: (1, 3)}[seat]


def rufer_of(dealer):
    return (dealer + 1) % 4


# --- the catalogue and who may declare (RULES.md 4.1) ----------------------------------


def test_bauern_preset_holds_exactly_the_contracts_of_the_rules_table():
    bases = {c.code: c.base for c in BAUERN.contracts if c.code != "normal"}
    assert bases == BAUERN_BASES
    assert BAUERN.contract("zehnergang").name == "Zehnerloch"


def test_bauern_preset_options_are_those_of_the_rules():
    assert BAUERN.spritzen_levels == 1
    assert set(BAUERN.not_spritzable) == NOT_SPRITZABLE
    assert BAUERN.schnapser_by_partner is True
    assert set(BAUERN.partner_sits_out) == SITS_OUT
    assert BAUERN.game_target == 24
    assert (BAUERN.schneider_counts, BAUERN.retourschneider_counts) == (2, 4)


def test_partners_sit_opposite():
    assert [partner(s) for s in range(4)] == [2, 3, 0, 1]


@pytest.mark.parametrize("dealer", range(4))
def test_normal_game_is_declared_by_the_rufer_only(dealer):
    rufer = rufer_of(dealer)
    for seat in range(4):
        deal = DreierDeal("normal", seat, True, normal_points=1)
        assert may_declare(deal, rufer, BAUERN) is (seat == rufer)


@pytest.mark.parametrize("code", sorted(RUFER_TEAM))
@pytest.mark.parametrize("dealer", range(4))
def test_schnapser_is_declared_by_the_rufer_or_his_partner(code, dealer):
    rufer = rufer_of(dealer)
    allowed = {s for s in range(4) if may_declare(DreierDeal(code, s, True), rufer, BAUERN)}
    assert allowed == {rufer, (rufer + 2) % 4}


@pytest.mark.parametrize("code", sorted(RUFER_TEAM))
def test_schnapser_by_partner_off_leaves_it_to_the_rufer(code):
    rules = BAUERN.with_changes(options={"schnapser_by_partner": False})
    allowed = {s for s in range(4) if may_declare(DreierDeal(code, s, True), 1, rules)}
    assert allowed == {1}
    with pytest.raises(RuleError) as caught:
        score_bauern_deal(DreierDeal(code, 3, True), 1, rules)
    assert caught.value.field == "declarer"


@pytest.mark.parametrize("code", sorted(OTHER_TEAM))
@pytest.mark.parametrize("dealer", range(4))
def test_kontra_games_are_declared_by_the_other_team_only(code, dealer):
    rufer = rufer_of(dealer)
    allowed = {s for s in range(4) if may_declare(DreierDeal(code, s, True), rufer, BAUERN)}
    assert allowed == {(rufer + 1) % 4, (rufer + 3) % 4}


def test_kontraschnapser_by_the_rufers_partner_is_refused_with_the_rule():
    # Anna deals, Ben is Rufer: Dora is his partner.
    with pytest.raises(RuleError) as caught:
        score_bauern_deal(DreierDeal("kontraschnapser", 3, True), 1, BAUERN)
    assert caught.value.field == "declarer"
    assert "team against the Rufer" in caught.value.template


@pytest.mark.parametrize("code", ["bettler", "ass_bettler", "gang", "zehnergang", "farbenringerl"])
def test_anyone_may_declare_the_other_contracts(code):
    assert all(may_declare(DreierDeal(code, s, True), 1, BAUERN) for s in range(4))


def test_declarer_must_be_one_of_the_four():
    for seat in (4, -1, True):
        with pytest.raises(RuleError) as caught:
            score_bauern_deal(DreierDeal("gang", seat, True), 1, BAUERN)
        assert caught.value.field == "declarer"


@pytest.mark.parametrize("code", sorted(SITS_OUT))
def test_partner_sits_out_the_contracts_named_in_partner_sits_out(code):
    assert sits_out(DreierDeal(code, 1, True), BAUERN) == 3
    assert sits_out(DreierDeal(code, 2, False), BAUERN) == 0


@pytest.mark.parametrize("code", ["normal", *sorted(RUFER_TEAM | OTHER_TEAM)])
def test_partner_plays_along_in_the_team_contracts(code):
    assert sits_out(DreierDeal(code, 1, True, normal_points=1), BAUERN) is None


# --- team scoring (RULES.md 4.2) -------------------------------------------------------


@pytest.mark.parametrize(("code", "base"), sorted(BAUERN_BASES.items()))
def test_declarers_team_scores_the_value_when_won(code, base):
    declarer = 3 if code in OTHER_TEAM else 1  # Rufer Ben, or Dora against Rufer Clara
    rufer = 2 if code in OTHER_TEAM else 1
    points = score_bauern_deal(DreierDeal(code, declarer, True), rufer, BAUERN)
    assert points == (0, base, 0, base)


@pytest.mark.parametrize(("code", "base"), sorted(BAUERN_BASES.items()))
def test_other_team_scores_the_value_when_lost(code, base):
    declarer = 3 if code in OTHER_TEAM else 1
    rufer = 2 if code in OTHER_TEAM else 1
    points = score_bauern_deal(DreierDeal(code, declarer, False), rufer, BAUERN)
    assert points == (base, 0, base, 0)


def test_partner_who_sat_out_shares_his_teams_result():
    # Ben plays a Bettler alone (Dora sits out) and wins it: Dora scores 4 too.
    assert score_bauern_deal(DreierDeal("bettler", 1, True), 2, BAUERN) == (0, 4, 0, 4)


@pytest.mark.parametrize("normal_points", [1, 2, 3])
def test_normal_game_is_the_rufers_team_against_the_other(normal_points):
    n = normal_points
    won = DreierDeal("normal", 2, True, normal_points=n)
    lost = DreierDeal("normal", 2, False, normal_points=n)
    assert score_bauern_deal(won, 2, BAUERN) == (n, 0, n, 0)
    assert score_bauern_deal(lost, 2, BAUERN) == (0, n, 0, n)


def test_normal_game_option_each_for_himself_does_not_split_the_teams():
    rules = BAUERN.with_changes(options={"normal_game": "each_for_himself"})
    lost = DreierDeal("normal", 2, False, normal_points=2)
    assert score_bauern_deal(lost, 2, rules) == (0, 2, 0, 2)
    with pytest.raises(RuleError):
        score_bauern_deal(DreierDeal("normal", 1, True, normal_points=2), 2, rules)


# --- Spritzen options (RULES.md 4.2) -----------------------------------------------------


def test_bauern_spritzen_is_only_gespritzt_by_default():
    assert score_bauern_deal(DreierDeal("gang", 1, True, 1), 1, BAUERN) == (0, 18, 0, 18)
    with pytest.raises(RuleError) as caught:
        score_bauern_deal(DreierDeal("gang", 1, True, 2), 1, BAUERN)
    assert caught.value.field == "spritzen"


@pytest.mark.parametrize("code", sorted(NOT_SPRITZABLE))
def test_not_spritzable_contracts_refuse_spritzen(code):
    declarer, rufer = (3, 2) if code in OTHER_TEAM else (1, 1)
    with pytest.raises(RuleError) as caught:
        score_bauern_deal(DreierDeal(code, declarer, True, 1), rufer, BAUERN)
    assert caught.value.field == "spritzen"
    assert score_bauern_deal(DreierDeal(code, declarer, True), rufer, BAUERN)[declarer] > 0


@pytest.mark.parametrize(("levels", "spritzen", "value"), [(3, 3, 72), (2, 2, 36), (3, 2, 36)])
def test_spritzen_levels_three_allows_x4_and_x8(levels, spritzen, value):
    rules = BAUERN.with_changes(options={"spritzen_levels": levels})
    assert score_bauern_deal(DreierDeal("gang", 1, False, spritzen), 1, rules) == (
        value,
        0,
        value,
        0,
    )


def test_spritzen_levels_zero_allows_no_spritzen():
    rules = WIKI.with_changes(options={"spritzen_levels": 0})
    with pytest.raises(RuleError) as caught:
        deal_value(DreierDeal("gang", 1, True, 1), rules)
    assert caught.value.field == "spritzen"


def test_dreierschnapsen_defaults_are_three_levels_and_none_excluded():
    for name in ("wiki", "spielregeln"):
        rules = preset(name)
        assert rules.spritzen_levels == 3 and rules.not_spritzable == []
    # Every level on every contract, as before the options existed (RULES.md 3.2).
    for code in ("gang", "farbenringerl", "trumpfringerl"):
        assert score_dreier_deal(DreierDeal(code, 0, True, 3), 1, WIKI)[0] == (
            WIKI.contract(code).base * 8
        )


def test_dreierschnapsen_obeys_the_two_new_options_when_a_club_sets_them():
    rules = WIKI.with_changes(options={"spritzen_levels": 1, "not_spritzable": ["trumpfringerl"]})
    assert score_dreier_deal(DreierDeal("gang", 0, True, 1), 1, rules) == (18, 0, 0)
    for deal in (DreierDeal("gang", 0, True, 2), DreierDeal("trumpfringerl", 0, True, 1)):
        with pytest.raises(RuleError) as caught:
            score_dreier_deal(deal, 1, rules)
        assert caught.value.field == "spritzen"


@pytest.mark.parametrize("bad", [4, -1, "1", True])
def test_spritzen_levels_option_is_a_level_from_0_to_3(bad):
    with pytest.raises(RuleError) as caught:
        WIKI.with_changes(options={"spritzen_levels": bad})
    assert caught.value.field == "options.spritzen_levels"


# --- the game to 24 by team (RULES.md 4.3) ------------------------------------------------


def test_game_end_needs_a_team_at_24():
    assert game_end((20, 0, 20, 0), (23, 0, 23, 0), BAUERN) is None


def test_first_team_to_24_wins_and_the_other_gets_one_bummerl():
    assert game_end((20, 5, 20, 5), (20, 29, 20, 29), BAUERN) == ((0, 2), "bummerl", 1)


def test_schneider_the_losing_team_has_0_two_bummerl():
    assert game_end((18, 0, 18, 0), (24, 0, 24, 0), BAUERN) == ((1, 3), "schneider", 2)


def test_retourschneider_the_losing_team_led_23_to_0_four_bummerl():
    assert game_end((0, 23, 0, 23), (24, 23, 24, 23), BAUERN) == ((1, 3), "retourschneider", 4)


def test_no_retourschneider_when_the_winners_had_a_point():
    assert game_end((1, 23, 1, 23), (25, 23, 25, 23), BAUERN) == ((1, 3), "bummerl", 1)


def test_no_retourschneider_when_the_losers_stood_below_23():
    assert game_end((0, 22, 0, 22), (24, 22, 24, 22), BAUERN) == ((1, 3), "bummerl", 1)


def test_schneider_and_retourschneider_counts_are_options():
    rules = BAUERN.with_changes(options={"schneider_counts": 1, "retourschneider_counts": 3})
    assert game_end((0, 0, 0, 0), (24, 0, 24, 0), rules)[2] == 1
    assert game_end((0, 23, 0, 23), (24, 23, 24, 23), rules)[2] == 3


def test_each_player_of_the_losing_team_gets_the_teams_bummerl_in_his_tally():
    deals = [DreierDeal("kontrabauernschnapser", 0, True)]  # Anna against Rufer Ben: 24
    state = score_sheet(VIER, BAUERN, 0, deals)
    (game,) = state.games
    assert game.losers == (1, 3) and game.result is Result.SCHNEIDER
    assert game.bummerl == (0, 2, 0, 2)
    assert state.tally == (0, 2, 0, 2)


def test_rotation_dealer_and_rufer_as_in_dreierschnapsen():
    deals = [DreierDeal("bettler", 0, True), Redeal(), DreierDeal("bettler", 0, False)]
    state = score_sheet(VIER, BAUERN, 3, deals)
    assert [(line.dealer, line.rufer) for line in state.lines] == [(3, 0), (0, 1), (0, 1)]
    assert (state.dealer, state.rufer) == (1, 2)


def test_retourschneider_on_the_sheet_goes_to_both_players_of_the_team_that_led():
    # Ben and Dora reach 23 (Gang 9, Zehnerloch 10, normal 3, normal lost by Anna 1),
    # then Clara's Kontrabauernschnapser (24) against Rufer Ben wins from 0.
    deals = [
        DreierDeal("gang", 1, True),
        DreierDeal("zehnergang", 3, True),
        DreierDeal("normal", 3, True, normal_points=3),
        DreierDeal("normal", 0, False, normal_points=1),
        DreierDeal("kontrabauernschnapser", 2, True),
    ]
    state = score_sheet(VIER, BAUERN, 0, deals)
    (game,) = state.games
    assert game.final == (24, 23, 24, 23)
    assert (game.losers, game.result, game.bummerl) == (
        (1, 3),
        Result.RETOURSCHNEIDER,
        (0, 4, 0, 4),
    )


def test_a_tiebreak_is_refused_there_is_never_a_tie():
    with pytest.raises(RuleError) as caught:
        score_sheet(VIER, BAUERN, 0, [TieBreak(0)])
    assert caught.value.field == "tiebreak_winner"


def test_count_down_display_shows_the_teams_points_left_to_24():
    rules = BAUERN.with_changes(options={"count_down_display": True})
    state = score_sheet(VIER, rules, 0, [DreierDeal("gang", 1, True)])
    assert state.display_totals == (24, 15, 24, 15)


def test_json_loser_is_the_two_names_of_the_losing_team():
    out = score_document(
        {
            "variant": "bauernschnapsen",
            "rule_set": "bauern",
            "players": ["Anna", "Ben", "Clara", "Dora"],
            "deals": [
                {"contract": "gang", "declarer": "Dora", "won": False},
                {"contract": "trumpfringerl", "declarer": "Ben", "won": False},
            ],
        }
    )
    assert out["games"] == [
        {
            "final": {"Anna": 33, "Ben": 0, "Clara": 33, "Dora": 0},
            "loser": ["Ben", "Dora"],
            "result": "schneider",
            "bummerl": {"Anna": 0, "Ben": 2, "Clara": 0, "Dora": 2},
        }
    ]
    assert out["deals"][1]["rufer"] == "Clara"


def test_json_refuses_three_players_for_bauernschnapsen():
    with pytest.raises(RuleError) as caught:
        score_document({"variant": "bauernschnapsen", "players": ["A", "B", "C"], "deals": []})
    assert caught.value.field == "players"


# --- properties -----------------------------------------------------------------------------

CODES = ["normal", *sorted(BAUERN_BASES)]
CHOICE = st.integers(0, 2**40)


def decode_deal(choice, rufer):
    """A deal the seat of the deal allows under the ``bauern`` preset (RULES.md 4.1)."""
    choice, index = divmod(choice, len(CODES) + 2)
    code = CODES[max(0, index - 2)]  # the normal game three times as often
    if code == "normal":
        seats = [rufer]
    elif code in RUFER_TEAM:
        seats = [rufer, (rufer + 2) % 4]
    elif code in OTHER_TEAM:
        seats = [(rufer + 1) % 4, (rufer + 3) % 4]
    else:
        seats = [0, 1, 2, 3]
    choice, seat = divmod(choice, len(seats))
    choice, won = divmod(choice, 2)
    choice, spritzen = divmod(choice, 3)
    spritzen = 1 if spritzen == 2 and code != "normal" and code not in NOT_SPRITZABLE else 0
    if code == "normal":
        return DreierDeal(code, seats[seat], bool(won), 0, choice % 3 + 1)
    return DreierDeal(code, seats[seat], bool(won), spritzen)


def value_of(deal):
    base = deal.normal_points if deal.contract == "normal" else BAUERN_BASES[deal.contract]
    return base * 2**deal.spritzen


def grow_sheet(data, max_entries=30):
    first_dealer = data.draw(st.integers(0, 3), label="first_dealer")
    choices = data.draw(st.lists(CHOICE, max_size=max_entries), label="entries")
    entries = []
    state = score_sheet(VIER, BAUERN, first_dealer, entries)
    for choice in choices:
        entry = Redeal() if choice % 10 == 9 else decode_deal(choice // 10, state.rufer)
        entries.append(entry)
        state = score_sheet(VIER, BAUERN, first_dealer, entries)
    return first_dealer, entries, state


@PROPERTY
@given(st.data())
def test_property_every_deal_scores_its_value_for_exactly_one_team(data):
    _first, entries, state = grow_sheet(data)
    for entry, line in zip(entries, state.lines, strict=True):
        if isinstance(entry, Redeal):
            assert line.points == (0, 0, 0, 0)
            continue
        scoring = set(team_of(entry.declarer))
        if not entry.won:
            scoring = {0, 1, 2, 3} - scoring
        expected = tuple(value_of(entry) if s in scoring else 0 for s in range(4))
        assert line.points == expected


@PROPERTY
@given(st.data())
def test_property_totals_equal_the_sum_of_the_deals_of_each_game(data):
    _first, _entries, state = grow_sheet(data)
    sums: dict[int, list[int]] = {}
    for line in state.lines:
        game = sums.setdefault(line.game, [0, 0, 0, 0])
        for seat in range(4):
            game[seat] += line.points[seat]
        assert list(line.totals) == game
    for number, game in enumerate(state.games):
        assert list(game.final) == sums[number]
    open_game = sums.get(len(state.games), [0, 0, 0, 0])
    assert list(state.totals) == open_game
    for totals in [state.totals, *(g.final for g in state.games)]:
        assert totals[0] == totals[2] and totals[1] == totals[3]  # partners carry the team's


@PROPERTY
@given(st.data())
def test_property_the_team_that_reaches_24_first_wins(data):
    _first, _entries, state = grow_sheet(data)
    for game in state.games:
        winners = [s for s in range(4) if game.final[s] >= 24]
        assert len(winners) == 2 and sorted(winners) in ([0, 2], [1, 3])
        assert sorted(game.losers) == sorted({0, 1, 2, 3} - set(winners))
        assert all(game.final[s] < 24 for s in game.losers)
        counts = {Result.BUMMERL: 1, Result.SCHNEIDER: 2, Result.RETOURSCHNEIDER: 4}
        assert game.bummerl == tuple(
            counts[game.result] if s in game.losers else 0 for s in range(4)
        )
    for line in state.lines:  # no game goes on past 24
        if line.game == len(state.games):
            assert max(line.totals) < 24
    assert state.tally == tuple(sum(g.bummerl[s] for g in state.games) for s in range(4))


@PROPERTY
@given(st.data())
def test_property_a_redeal_changes_nothing_but_the_line(data):
    first, entries, state = grow_sheet(data, max_entries=20)
    at = data.draw(st.integers(0, len(entries)), label="redeal at")
    with_redeal = score_sheet(VIER, BAUERN, first, [*entries[:at], Redeal(), *entries[at:]])
    assert with_redeal.games == tuple(
        type(g)(
            g.final, g.losers, g.result, g.bummerl, None, None, g.decided_at + (g.decided_at >= at)
        )
        for g in state.games
    )
    assert (with_redeal.totals, with_redeal.tally) == (state.totals, state.tally)
    assert (with_redeal.dealer, with_redeal.rufer) == (state.dealer, state.rufer)


@PROPERTY
@given(st.data())
def test_property_striking_out_any_deal_rescores_the_rest(data):
    first, entries, _state = grow_sheet(data, max_entries=20)
    if not entries:
        return
    at = data.draw(st.integers(0, len(entries) - 1), label="struck out")
    rest = entries[:at] + entries[at + 1 :]
    try:
        struck = score_sheet(VIER, BAUERN, first, rest)
    except RuleError as error:
        # A later deal no longer fits its seat: refused at a deal after the struck one.
        assert error.index is not None and error.index >= at
        return
    # The rest is scored by the rules as if it had been entered so from the start.
    assert len(struck.lines) == len(rest)
    assert model(first, rest) == (
        [(sorted(g.losers), str(g.result)) for g in struck.games],
        struck.totals,
        struck.tally,
        struck.dealer,
    )


def model(first, entries):
    """RULES.md 4 told straight: team points per deal, the first team to 24 wins, the
    other gets 1, 2 on 0 points, 4 when it had led 23:0. Independent of the code."""
    teams = [0, 0]
    tally = [0, 0]
    games = []
    dealer = first
    for entry in entries:
        if isinstance(entry, Redeal):
            continue
        scorer = entry.declarer % 2 if entry.won else 1 - entry.declarer % 2
        before = list(teams)
        teams[scorer] += value_of(entry)
        dealer = (dealer + 1) % 4
        if teams[scorer] >= 24:
            loser = 1 - scorer
            if before[scorer] == 0 and before[loser] == 23:
                result, count = "retourschneider", 4
            elif teams[loser] == 0:
                result, count = "schneider", 2
            else:
                result, count = "bummerl", 1
            tally[loser] += count
            games.append(([loser, loser + 2], result))
            teams = [0, 0]
    return games, (teams[0], teams[1], teams[0], teams[1]), (tally[0], tally[1]) * 2, dealer
