"""Dreierschnapsen (RULES.md section 3): contracts, Spritzen, the game to 24, Bummerl, ties.

Every expected number below is read off RULES.md by hand. Seats clockwise: Anna 0,
Ben 1, Clara 2. The Rufer sits left of the dealer: seat (dealer + 1) % 3.
These are plain functions over the pure rule core: no database.
"""

import pytest

from scoring.rules import (
    DreierDeal,
    QuickDeal,
    Redeal,
    Result,
    RuleError,
    TieBreak,
    Variant,
    deal_value,
    score_dreier_deal,
    score_sheet,
)
from scoring.rules.presets import preset

WIKI = preset("wiki")
SPIELREGELN = preset("spielregeln")
ANNA, BEN, CLARA = 0, 1, 2

# RULES.md 3.1, the default catalogue: code -> base value (the normal game is 1/2/3).
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
# RULES.md 3.1, column "may declare" (holding an Ass or a suit is not the sheet's business).
RUFER_ONLY = {"normal", "schnapser", "bauernschnapser"}
NOT_RUFER = {"kontraschnapser", "kontrabauernschnapser"}

# RULES.md 3.1: the spielregeln preset.
SPIELREGELN_BASES = {
    "bettler": 4,
    "assenbettler": 5,
    "schnapser": 6,
    "gang": 9,
    "zehnerloch": 10,
    "kontraschnapser": 12,
    "bauernschnapser": 12,
    "kontrabauernschnapser": 24,
}


def won(code, seat, spritzen=0, normal_points=None):
    return DreierDeal(code, seat, True, spritzen, normal_points)


def lost(code, seat, spritzen=0, normal_points=None):
    return DreierDeal(code, seat, False, spritzen, normal_points)


def play(entries, first_dealer=ANNA, rules=WIKI):
    return score_sheet(Variant.DREIERSCHNAPSEN, rules, first_dealer, entries)


def refused(entries, first_dealer=ANNA, rules=WIKI):
    """The RuleError ``play`` raises."""
    with pytest.raises(RuleError) as info:
        play(entries, first_dealer, rules)
    return info.value


def rufer_of(dealer):
    return (dealer + 1) % 3


def allowed_declarers(code, rufer):
    if code in RUFER_ONLY:
        return [rufer]
    if code in NOT_RUFER:
        return [s for s in range(3) if s != rufer]
    return [0, 1, 2]


# Two at 23 and the third at 0: Clara loses Gang (9), Damengang (7) and Plauderer (7).
TWO_AT_23 = [lost("gang", CLARA), lost("damengang", CLARA), lost("plauderer", CLARA)]
# Anna and Ben level at 4 for the loser's place when Clara's Trumpfringerl ends the game.
TIE_AT_4 = [won("bettler", ANNA), won("bettler", BEN), won("trumpfringerl", CLARA)]


# --- the catalogue (RULES.md 3.1) -----------------------------------------------------------


def test_wiki_catalogue_holds_exactly_the_contracts_of_the_rules_table():
    assert {c.code for c in WIKI.contracts} == {"normal", *WIKI_BASES}
    assert {c.code: c.base for c in WIKI.contracts if c.code != "normal"} == WIKI_BASES


@pytest.mark.parametrize(("code", "base"), WIKI_BASES.items())
def test_contract_is_worth_its_base_value(code, base):
    assert deal_value(won(code, ANNA), WIKI) == base


@pytest.mark.parametrize(("code", "base"), WIKI_BASES.items())
def test_declarer_who_wins_scores_the_value_alone(code, base):
    rufer = BEN
    declarer = allowed_declarers(code, rufer)[-1]
    points = score_dreier_deal(won(code, declarer), rufer, WIKI)
    assert points == tuple(base if s == declarer else 0 for s in range(3))


@pytest.mark.parametrize(("code", "base"), WIKI_BASES.items())
def test_declarer_who_loses_gives_the_value_to_each_opponent(code, base):
    rufer = CLARA
    declarer = allowed_declarers(code, rufer)[0]
    points = score_dreier_deal(lost(code, declarer), rufer, WIKI)
    assert points == tuple(0 if s == declarer else base for s in range(3))


def test_unknown_contract_is_refused():
    error = refused([won("solo", ANNA)])
    assert (error.field, error.index) == ("contract", 0)


# --- who may declare, checked against the seating of the deal -------------------------------


@pytest.mark.parametrize("code", ["normal", *WIKI_BASES])
@pytest.mark.parametrize("dealer", [ANNA, BEN, CLARA])
def test_who_may_declare_is_checked_against_the_seat_of_the_deal(code, dealer):
    rufer = rufer_of(dealer)
    normal_points = 1 if code == "normal" else None
    for seat in range(3):
        entry = won(code, seat, normal_points=normal_points)
        if seat in allowed_declarers(code, rufer):
            state = play([entry], first_dealer=dealer)
            assert state.lines[0].rufer == rufer
        else:
            error = refused([entry], first_dealer=dealer)
            assert (error.field, error.index) == ("declarer", 0)


def test_rufer_only_contract_follows_the_rufer_of_that_deal():
    # Anna deals first: Ben is Rufer in deal 1, Clara in deal 2.
    assert play([won("bettler", ANNA), won("schnapser", CLARA)]).lines[1].rufer == CLARA
    error = refused([won("bettler", ANNA), won("schnapser", BEN)])
    assert (error.field, error.index) == ("declarer", 1)


def test_non_rufer_contract_is_refused_to_the_rufer_of_that_deal():
    assert play([won("bettler", ANNA), won("kontraschnapser", BEN)]).totals == (4, 12, 0)
    error = refused([won("bettler", ANNA), won("kontraschnapser", CLARA)])
    assert (error.field, error.index) == ("declarer", 1)


@pytest.mark.parametrize("seat", [3, -1, True])
def test_declarer_must_be_one_of_the_three(seat):
    with pytest.raises(RuleError) as info:
        score_dreier_deal(won("bettler", seat), BEN, WIKI)
    assert info.value.field == "declarer"


# --- Spritzen (RULES.md 3.2) ----------------------------------------------------------------


@pytest.mark.parametrize(("level", "factor"), [(0, 1), (1, 2), (2, 4), (3, 8)])
def test_spritzen_doubles_the_value_per_level(level, factor):
    assert deal_value(won("gang", ANNA, spritzen=level), WIKI) == 9 * factor
    assert deal_value(won("bettler", ANNA, spritzen=level), WIKI) == 4 * factor


def test_zurueckgespritzt_lost_gives_four_times_the_base_to_each_opponent():
    points = score_dreier_deal(lost("gang", ANNA, spritzen=2), BEN, WIKI)
    assert points == (0, 36, 36)


def test_nochmal_zurueckgespritzt_won_scores_eight_times_the_base():
    assert score_dreier_deal(won("trumpfringerl", CLARA, spritzen=3), BEN, WIKI) == (0, 0, 192)


@pytest.mark.parametrize("level", [4, -1, True])
def test_spritzen_level_is_0_to_3(level):
    with pytest.raises(RuleError) as info:
        deal_value(won("gang", ANNA, spritzen=level), WIKI)
    assert info.value.field == "spritzen"


def test_spritzen_on_the_normal_game_is_refused_by_default():
    assert WIKI.spritzen_on_normal is False
    with pytest.raises(RuleError) as info:
        score_dreier_deal(won("normal", BEN, spritzen=1, normal_points=2), BEN, WIKI)
    assert info.value.field == "spritzen"


@pytest.mark.parametrize(("level", "value"), [(0, 2), (1, 4), (2, 8), (3, 16)])
def test_spritzen_on_normal_option_multiplies_the_normal_game(level, value):
    rules = WIKI.with_changes(options={"spritzen_on_normal": True})
    deal = won("normal", BEN, spritzen=level, normal_points=2)
    assert score_dreier_deal(deal, BEN, rules) == (0, value, 0)


# --- the normal game (RULES.md 3.2) ---------------------------------------------------------


def test_normal_game_is_caller_vs_two_by_default():
    assert WIKI.normal_game == "caller_vs_two"


@pytest.mark.parametrize("normal_points", [1, 2, 3])
def test_normal_game_won_by_the_rufer_scores_its_points_for_him(normal_points):
    deal = won("normal", CLARA, normal_points=normal_points)
    assert score_dreier_deal(deal, CLARA, WIKI) == (0, 0, normal_points)


@pytest.mark.parametrize("normal_points", [1, 2, 3])
def test_normal_game_lost_by_the_rufer_scores_its_points_for_each_of_the_two(normal_points):
    deal = lost("normal", CLARA, normal_points=normal_points)
    assert score_dreier_deal(deal, CLARA, WIKI) == (normal_points, normal_points, 0)


def test_normal_game_caller_vs_two_is_the_rufers_only():
    for seat in (ANNA, BEN):
        with pytest.raises(RuleError) as info:
            score_dreier_deal(won("normal", seat, normal_points=1), CLARA, WIKI)
        assert info.value.field == "declarer"


@pytest.mark.parametrize("normal_points", [0, 4, None, True])
def test_normal_game_is_worth_one_two_or_three(normal_points):
    with pytest.raises(RuleError) as info:
        score_dreier_deal(won("normal", BEN, normal_points=normal_points), BEN, WIKI)
    assert info.value.field == "normal_points"


EACH = WIKI.with_changes(options={"normal_game": "each_for_himself"})


@pytest.mark.parametrize("winner", [ANNA, BEN, CLARA])
@pytest.mark.parametrize("normal_points", [1, 2, 3])
def test_normal_game_each_for_himself_scores_the_winner_alone(winner, normal_points):
    deal = won("normal", winner, normal_points=normal_points)
    expected = tuple(normal_points if s == winner else 0 for s in range(3))
    assert score_dreier_deal(deal, BEN, EACH) == expected


def test_normal_game_each_for_himself_records_the_winner_so_a_loss_is_refused():
    with pytest.raises(RuleError) as info:
        score_dreier_deal(lost("normal", BEN, normal_points=1), BEN, EACH)
    assert info.value.field == "won"


def test_each_for_himself_leaves_the_other_contracts_rufer_rules_alone():
    with pytest.raises(RuleError) as info:
        score_dreier_deal(won("schnapser", ANNA), BEN, EACH)
    assert info.value.field == "declarer"


def test_normal_game_option_accepts_only_the_two_ways():
    with pytest.raises(RuleError) as info:
        WIKI.with_changes(options={"normal_game": "teams"})
    assert info.value.field == "options.normal_game"


# --- the game to 24 (RULES.md 3.3) ----------------------------------------------------------


def test_game_does_not_end_at_23():
    entries = [
        won("gang", ANNA),
        won("bettler", BEN),
        won("bettler", CLARA),
        won("gang", ANNA),
        won("assenbettler", ANNA),
    ]
    state = play(entries)
    assert state.totals == (23, 4, 4)
    assert state.games == ()
    assert state.tally == (0, 0, 0)


def test_game_ends_on_the_first_deal_reaching_24_never_later():
    entries = [
        won("koenigsgang", ANNA),
        won("bettler", BEN),
        won("assenbettler", CLARA),
        won("koenigsgang", ANNA),
        won("koenigsgang", ANNA),  # Anna 24: the game ends here
        won("bettler", CLARA),  # opens game 2
    ]
    state = play(entries)
    (game,) = state.games
    assert game.decided_at == 4
    assert game.final == (24, 4, 5)
    assert [line.game for line in state.lines] == [0, 0, 0, 0, 0, 1]
    assert [line.totals for line in state.lines][3:] == [(16, 4, 5), (24, 4, 5), (0, 0, 4)]
    assert state.totals == (0, 0, 4)


def test_game_ends_when_a_lost_contract_takes_both_opponents_past_24():
    entries = [
        lost("gang", CLARA),
        lost("gang", CLARA),
        won("bettler", ANNA),
        lost("koenigsgang", CLARA),
    ]
    state = play(entries)
    (game,) = state.games
    assert game.final == (30, 26, 0)
    assert game.decided_at == 3


def test_game_target_option_moves_the_end():
    rules = WIKI.with_changes(options={"game_target": 12})
    entries = [won("bettler", BEN), won("bettler", ANNA), won("koenigsgang", ANNA)]
    state = play(entries, rules=rules)
    (game,) = state.games
    assert game.final == (12, 4, 0)
    assert game.decided_at == 2


def test_count_down_display_shows_points_left_to_24():
    rules = WIKI.with_changes(options={"count_down_display": True})
    state = play([won("gang", ANNA), lost("bettler", ANNA)], rules=rules)
    assert state.totals == (9, 4, 4)
    assert state.display_totals == (15, 20, 20)
    assert play([won("gang", ANNA)]).display_totals == (9, 0, 0)


# --- the loser and his Bummerl (RULES.md 3.3) -----------------------------------------------


def test_loser_with_the_fewest_points_gets_one_bummerl():
    entries = [
        won("gang", ANNA),
        won("bettler", BEN),
        won("bettler", CLARA),
        won("gang", ANNA),
        won("assenbettler", ANNA),
        won("bettler", BEN),
        won("bettler", ANNA),  # Anna 27, Ben 8, Clara 4
    ]
    state = play(entries)
    (game,) = state.games
    assert game.final == (27, 8, 4)
    assert game.losers == (CLARA,)
    assert game.result is Result.BUMMERL
    assert game.bummerl == (0, 0, 1)
    assert state.tally == (0, 0, 1)


def test_schneider_gives_two_bummerl_when_the_loser_has_no_point():
    state = play([won("bettler", BEN), won("trumpfringerl", ANNA)])
    (game,) = state.games
    assert game.final == (24, 4, 0)
    assert game.losers == (CLARA,)
    assert game.result is Result.SCHNEIDER
    assert game.bummerl == (0, 0, 2)
    assert state.tally == (0, 0, 2)


def test_tally_adds_the_bummerl_of_every_game():
    game_1 = [won("bettler", BEN), won("trumpfringerl", ANNA)]  # (24, 4, 0): Clara 2
    game_2 = [won("zehnergang", CLARA), won("bettler", ANNA), won("trumpfringerl", BEN)]
    state = play(game_1 + game_2)  # game 2: (4, 24, 10): Anna 1
    assert [g.final for g in state.games] == [(24, 4, 0), (4, 24, 10)]
    assert [g.bummerl for g in state.games] == [(0, 0, 2), (1, 0, 0)]
    assert state.tally == (1, 0, 2)


# --- Retourschneider ------------------------------------------------------------------------


def test_retourschneider_gives_four_bummerl_to_each_of_the_two_at_23():
    state = play([*TWO_AT_23, won("trumpfringerl", CLARA)])
    assert state.lines[2].totals == (23, 23, 0)
    (game,) = state.games
    assert game.final == (23, 23, 24)
    assert game.losers == (ANNA, BEN)
    assert game.result is Result.RETOURSCHNEIDER
    assert game.bummerl == (4, 4, 0)
    assert state.tally == (4, 4, 0)


def test_retourschneider_counts_whatever_contract_takes_the_third_past_24():
    state = play([*TWO_AT_23, won("bettler", CLARA, spritzen=3)])  # 4 x 8 = 32
    (game,) = state.games
    assert game.final == (23, 23, 32)
    assert game.result is Result.RETOURSCHNEIDER
    assert game.bummerl == (4, 4, 0)


def test_no_retourschneider_when_one_of_the_two_at_23_wins_the_game():
    state = play([*TWO_AT_23, won("bettler", ANNA)])
    (game,) = state.games
    assert game.final == (27, 23, 0)
    assert game.result is Result.SCHNEIDER
    assert game.losers == (CLARA,)
    assert game.bummerl == (0, 0, 2)


def test_no_retourschneider_when_the_third_did_not_stand_at_0():
    # Ben deals first, so Clara is Rufer and wins a normal game for 1 point.
    entries = [won("normal", CLARA, normal_points=1), *TWO_AT_23, won("trumpfringerl", CLARA)]
    state = play(entries, first_dealer=BEN)
    assert state.lines[3].totals == (23, 23, 1)
    assert state.games == ()
    assert state.awaiting_tiebreak == (ANNA, BEN)


def test_no_retourschneider_when_only_one_stood_at_23():
    entries = [
        lost("gang", CLARA),
        lost("gang", CLARA),
        won("bettler", ANNA),
        won("assenbettler", BEN),  # (22, 23, 0)
        won("trumpfringerl", CLARA),
    ]
    state = play(entries)
    assert state.lines[3].totals == (22, 23, 0)
    (game,) = state.games
    assert game.final == (22, 23, 24)
    assert game.result is Result.BUMMERL
    assert game.losers == (ANNA,)
    assert game.bummerl == (1, 0, 0)


def test_no_game_ends_when_the_third_at_0_wins_less_than_24():
    state = play([*TWO_AT_23, won("gang", CLARA)])
    assert state.games == ()
    assert state.totals == (23, 23, 9)


# --- ties for the loser's place -------------------------------------------------------------


def test_tie_for_the_losers_place_needs_a_tiebreak_deal():
    state = play(TIE_AT_4)
    assert state.totals == (4, 4, 24)
    assert state.awaiting_tiebreak == (ANNA, BEN)
    assert state.games == ()
    assert state.tally == (0, 0, 0)


@pytest.mark.parametrize(("winner", "loser"), [(ANNA, BEN), (BEN, ANNA)])
def test_tiebreak_winner_settles_the_losers_place(winner, loser):
    state = play([*TIE_AT_4, TieBreak(winner)])
    (game,) = state.games
    assert game.final == (4, 4, 24)
    assert game.losers == (loser,)
    assert game.result is Result.BUMMERL
    assert game.bummerl == tuple(1 if s == loser else 0 for s in range(3))
    assert game.tiebreak == (ANNA, BEN)
    assert game.tiebreak_winner == winner
    assert game.decided_at == 3
    assert state.awaiting_tiebreak is None
    assert state.totals == (0, 0, 0)


def test_tiebreak_deal_is_dealt_by_the_third_player_and_scores_nothing():
    line = play([*TIE_AT_4, TieBreak(BEN)]).lines[3]
    assert line.dealer == CLARA
    assert line.rufer is None
    assert line.points == (0, 0, 0)
    assert line.game == 0


def test_tie_at_zero_settled_by_tiebreak_is_a_schneider():
    state = play([won("trumpfringerl", CLARA)])
    assert state.awaiting_tiebreak == (ANNA, BEN)
    state = play([won("trumpfringerl", CLARA), TieBreak(ANNA)])
    (game,) = state.games
    assert game.losers == (BEN,)
    assert game.result is Result.SCHNEIDER
    assert game.bummerl == (0, 2, 0)


def test_tie_for_the_top_place_needs_no_tiebreak():
    state = play([lost("trumpfringerl", CLARA)])
    assert state.awaiting_tiebreak is None
    (game,) = state.games
    assert game.final == (24, 24, 0)
    assert game.losers == (CLARA,)
    assert game.bummerl == (0, 0, 2)


def test_a_deal_is_refused_while_a_tiebreak_is_due():
    error = refused([*TIE_AT_4, won("bettler", ANNA)])
    assert (error.field, error.index) == ("tiebreak_winner", 3)


def test_a_redeal_is_refused_while_a_tiebreak_is_due():
    error = refused([*TIE_AT_4, Redeal()])
    assert (error.field, error.index) == ("tiebreak_winner", 3)


def test_tiebreak_is_refused_to_the_player_not_in_the_tie():
    error = refused([*TIE_AT_4, TieBreak(CLARA)])
    assert (error.field, error.index) == ("tiebreak_winner", 3)


def test_tiebreak_is_refused_when_there_is_no_tie():
    error = refused([won("bettler", ANNA), TieBreak(ANNA)])
    assert (error.field, error.index) == ("tiebreak_winner", 1)


# --- redeals --------------------------------------------------------------------------------


def test_redeal_scores_nothing_and_the_same_dealer_deals_again():
    state = play([Redeal(), won("normal", BEN, normal_points=2)], first_dealer=ANNA)
    assert [line.points for line in state.lines] == [(0, 0, 0), (0, 2, 0)]
    assert [line.dealer for line in state.lines] == [ANNA, ANNA]
    assert [line.rufer for line in state.lines] == [BEN, BEN]
    assert (state.dealer, state.rufer) == (BEN, CLARA)


def test_redeals_in_a_row_keep_the_dealer_and_the_totals():
    state = play([won("gang", CLARA), Redeal(), Redeal()], first_dealer=BEN)
    assert [line.dealer for line in state.lines] == [BEN, CLARA, CLARA]
    assert [line.totals for line in state.lines] == [(0, 0, 9)] * 3
    assert (state.dealer, state.rufer) == (CLARA, ANNA)
    assert state.games == ()


def test_redeal_is_refused_on_a_two_player_sheet():
    with pytest.raises(RuleError) as info:
        score_sheet(Variant.SCHNAPSEN, WIKI, 0, [Redeal()])
    assert (info.value.field, info.value.index) == ("deal", 0)


def test_two_player_deal_is_refused_on_a_dreier_sheet():
    error = refused([QuickDeal(ANNA, 2)])
    assert (error.field, error.index) == ("deal", 0)


# --- dealer and Rufer rotation --------------------------------------------------------------


@pytest.mark.parametrize("first", [ANNA, BEN, CLARA])
def test_rufer_sits_left_of_the_dealer_and_deals_next(first):
    state = play([won("bettler", ANNA)] * 4, first_dealer=first)
    dealers = [line.dealer for line in state.lines]
    assert dealers == [first, (first + 1) % 3, (first + 2) % 3, first]
    assert [line.rufer for line in state.lines] == [(d + 1) % 3 for d in dealers]
    for before, after in zip(state.lines, state.lines[1:], strict=False):
        assert after.dealer == before.rufer
    assert (state.dealer, state.rufer) == ((first + 1) % 3, (first + 2) % 3)


def test_before_any_deal_the_first_dealers_left_neighbour_is_rufer():
    state = play([], first_dealer=CLARA)
    assert (state.dealer, state.rufer) == (CLARA, ANNA)


def test_rotation_goes_on_into_the_next_game():
    # Anna deals first; Ben's spritzed Gang ends game 1 in deal 3; Anna deals deal 4.
    entries = [
        won("normal", BEN, normal_points=3),
        lost("bettler", ANNA),
        won("gang", BEN, spritzen=1),
        lost("normal", BEN, normal_points=1),
    ]
    state = play(entries)
    assert [line.dealer for line in state.lines] == [ANNA, BEN, CLARA, ANNA]
    assert [line.game for line in state.lines] == [0, 0, 0, 1]
    assert state.games[0].final == (0, 25, 4)


@pytest.mark.parametrize("first", [3, -1])
def test_first_dealer_must_be_one_of_the_three(first):
    error = refused([], first_dealer=first)
    assert error.field == "first_dealer"


# --- rule sets as data: the spielregeln preset and a club's changes -------------------------


def test_spielregeln_preset_has_only_its_nine_contracts():
    assert {c.code for c in SPIELREGELN.contracts} == {"normal", *SPIELREGELN_BASES}
    for code, base in SPIELREGELN_BASES.items():
        assert deal_value(won(code, ANNA), SPIELREGELN) == base


@pytest.mark.parametrize("code", ["trumpfringerl", "zehnergang", "ass_bettler", "plauderer"])
def test_spielregeln_refuses_contracts_it_does_not_have(code):
    error = refused([won(code, ANNA)], rules=SPIELREGELN)
    assert (error.field, error.index) == ("contract", 0)


def test_spielregeln_keeps_who_may_declare():
    # Anna deals, Ben is Rufer.
    assert play([won("schnapser", BEN)], rules=SPIELREGELN).totals == (0, 6, 0)
    assert refused([won("schnapser", ANNA)], rules=SPIELREGELN).field == "declarer"
    assert play([won("kontraschnapser", ANNA)], rules=SPIELREGELN).totals == (12, 0, 0)
    assert refused([won("kontraschnapser", BEN)], rules=SPIELREGELN).field == "declarer"


def test_spielregeln_plays_the_normal_game_each_for_himself():
    # The preset's choice in seeds/rulesets.json: every player plays for himself.
    assert SPIELREGELN.normal_game == "each_for_himself"
    state = play([won("normal", CLARA, normal_points=2)], rules=SPIELREGELN)
    assert state.totals == (0, 0, 2)


def test_club_may_disable_a_contract():
    rules = WIKI.with_changes(catalog={"gang": False})
    assert refused([won("gang", ANNA)], rules=rules).field == "contract"


def test_club_may_revalue_and_rename_a_contract():
    rules = WIKI.with_changes(catalog={"gang": {"base": 11, "name": "Ringerl"}})
    assert play([won("gang", ANNA)], rules=rules).totals == (11, 0, 0)
    assert rules.contract("gang").name == "Ringerl"


def test_club_may_add_its_own_contract():
    rules = WIKI.with_changes(
        catalog={"sechserloch": {"name": "Sechserloch", "base": 6, "may_declare": "not_rufer"}}
    )
    assert play([lost("sechserloch", ANNA, spritzen=1)], rules=rules).totals == (0, 12, 12)
    assert refused([won("sechserloch", BEN)], rules=rules).field == "declarer"
