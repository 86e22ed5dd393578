"""Two-player Schnapsen (RULES.md section 2): the points of a deal, the Bummerl, the Partie.

Every expected number below is read off RULES.md by hand. Seats: Anna 0, Ben 1.
These are plain functions over the pure rule core: no database.
"""

import pytest

from scoring.rules import (
    DreierDeal,
    End,
    EndedDeal,
    QuickDeal,
    Result,
    RuleError,
    TieBreak,
    Variant,
    score_schnapsen_deal,
    score_sheet,
)
from scoring.rules.presets import preset
from scoring.sheetjson import score_document

WIKI = preset("wiki")
ANNA, BEN = 0, 1

# The ends after which the winner scores by the loser's showing (RULES.md 2, rows 1-2).
SHOWING_ENDS = [End.AUSMELDEN, End.LAST_TRICK, End.CLOSED_WON]


def rules_with(**options):
    return WIKI.with_changes(options=options)


def deal(end, by, other_augen=None, other_had_trick=None, **options):
    """(winner, points) of one computed deal under the wiki rules plus ``options``."""
    rules = rules_with(**options) if options else WIKI
    return score_schnapsen_deal(EndedDeal(end, by, other_augen, other_had_trick), rules)


def sheet(entries, first_dealer=0, **options):
    rules = rules_with(**options) if options else WIKI
    return score_sheet(Variant.SCHNAPSEN, rules, first_dealer, entries)


def bummerl_for(winner, loser_points=0):
    """Deals in which ``winner`` takes a Bummerl (3 + 3 + 1 = 7) and the loser wins
    ``loser_points`` (0 or 1 or 2) first."""
    loser = 1 - winner
    lead = [QuickDeal(loser, loser_points)] if loser_points else []
    return [*lead, QuickDeal(winner, 3), QuickDeal(winner, 3), QuickDeal(winner, 1)]


def raises_rule_error(field, call, *args, **kwargs):
    with pytest.raises(RuleError) as info:
        call(*args, **kwargs)
    assert info.value.field == field
    return info.value


# --- defaults ----------------------------------------------------------------------------


def test_options_default_to_the_values_named_in_rules():
    assert WIKI.announcements_need_trick is True
    assert WIKI.closing_counts_at == "close"
    assert WIKI.false_claim == "fixed"
    assert WIKI.schneider_counts == 2
    assert WIKI.partie_bummerl == 2


# --- quick entry: winner + 1/2/3 ------------------------------------------------------------


@pytest.mark.parametrize("winner", [ANNA, BEN])
@pytest.mark.parametrize("points", [1, 2, 3])
def test_quick_entry_gives_the_winner_the_points_entered(winner, points):
    assert score_schnapsen_deal(QuickDeal(winner, points), WIKI) == (winner, points)


@pytest.mark.parametrize("points", [0, 4, -1, True])
def test_quick_entry_refuses_points_other_than_one_two_or_three(points):
    raises_rule_error("points", score_schnapsen_deal, QuickDeal(ANNA, points), WIKI)


@pytest.mark.parametrize("winner", [2, -1, True])
def test_quick_entry_refuses_a_winner_who_is_not_one_of_the_two(winner):
    raises_rule_error("winner", score_schnapsen_deal, QuickDeal(winner, 1), WIKI)


# --- row 1: Ausmelden or the last trick; row 2: Zudrehen and the closer reaches 66 ---------


@pytest.mark.parametrize("end", SHOWING_ENDS)
@pytest.mark.parametrize("by", [ANNA, BEN])
def test_winner_scores_three_when_the_loser_has_no_trick(end, by):
    assert deal(end, by, other_augen=0, other_had_trick=False) == (by, 3)
    assert deal(end, by, other_augen=None, other_had_trick=False) == (by, 3)


@pytest.mark.parametrize("end", SHOWING_ENDS)
@pytest.mark.parametrize("augen", [4, 20, 28, 32])
def test_winner_scores_two_when_the_loser_has_32_augen_or_fewer(end, augen):
    assert deal(end, BEN, other_augen=augen, other_had_trick=True) == (BEN, 2)


@pytest.mark.parametrize("end", SHOWING_ENDS)
@pytest.mark.parametrize("augen", [33, 35, 50, 65])
def test_winner_scores_one_when_the_loser_has_33_augen_or_more(end, augen):
    assert deal(end, ANNA, other_augen=augen, other_had_trick=True) == (ANNA, 1)


@pytest.mark.parametrize("end", SHOWING_ENDS)
def test_the_line_between_two_points_and_one_lies_between_32_and_33_augen(end):
    assert deal(end, ANNA, other_augen=32, other_had_trick=True)[1] == 2
    assert deal(end, ANNA, other_augen=33, other_had_trick=True)[1] == 1


def test_losers_augen_include_his_counted_zwanziger():
    # 13 Augen from tricks + a Zwanziger (20) = 33: one point, not two.
    assert deal(End.AUSMELDEN, BEN, other_augen=13 + 20, other_had_trick=True) == (BEN, 1)


def test_closer_who_reaches_66_scores_by_the_losers_augen_at_closing():
    # Anna closes; Ben held 20 Augen and a trick at that moment: 2 points to Anna.
    assert deal(End.CLOSED_WON, ANNA, other_augen=20, other_had_trick=True) == (ANNA, 2)
    assert deal(End.CLOSED_WON, ANNA, other_augen=40, other_had_trick=True) == (ANNA, 1)
    assert deal(End.CLOSED_WON, ANNA, other_augen=0, other_had_trick=False) == (ANNA, 3)


def test_closing_counts_at_end_scores_on_the_augen_entered_for_the_end():
    # Tournament practice: the Augen given are those at the end of the deal.
    rules = rules_with(closing_counts_at="end")
    closed = EndedDeal(End.CLOSED_WON, ANNA, other_augen=40, other_had_trick=True)
    assert score_schnapsen_deal(closed, rules) == (ANNA, 1)


def test_closing_counts_at_accepts_only_close_or_end():
    assert rules_with(closing_counts_at="end").closing_counts_at == "end"
    raises_rule_error("options.closing_counts_at", rules_with, closing_counts_at="middle")


# --- row 3: Zudrehen and the closer fails ---------------------------------------------------


@pytest.mark.parametrize("closer", [ANNA, BEN])
def test_failed_closing_gives_the_opponent_two_when_he_had_a_trick(closer):
    assert deal(End.CLOSED_FAILED, closer, other_had_trick=True) == (1 - closer, 2)


@pytest.mark.parametrize("closer", [ANNA, BEN])
def test_failed_closing_gives_the_opponent_three_when_he_had_no_trick_at_closing(closer):
    assert deal(End.CLOSED_FAILED, closer, other_had_trick=False) == (1 - closer, 3)


def test_failed_closing_gives_two_whatever_the_opponents_augen():
    # Not counted by Augen: 50 Augen would give 1 by the showing rule, but it is 2.
    assert deal(End.CLOSED_FAILED, ANNA, other_augen=50, other_had_trick=True) == (BEN, 2)
    assert deal(End.CLOSED_FAILED, ANNA, other_augen=10, other_had_trick=True) == (BEN, 2)


def test_failed_closing_needs_to_know_whether_the_opponent_had_a_trick():
    raises_rule_error("other_had_trick", deal, End.CLOSED_FAILED, ANNA)


# --- row 4: false Ausmelden -----------------------------------------------------------------


def test_false_claim_is_fixed_by_default():
    assert WIKI.false_claim == "fixed"
    # The default rule gives 2 where "mirror" would give 1 (opponent at 40 Augen).
    assert deal(End.FALSE_CLAIM, ANNA, other_augen=40, other_had_trick=True) == (BEN, 2)


@pytest.mark.parametrize("claimer", [ANNA, BEN])
def test_false_claim_fixed_gives_the_opponent_two(claimer):
    won = deal(End.FALSE_CLAIM, claimer, other_had_trick=True, false_claim="fixed")
    assert won == (1 - claimer, 2)


@pytest.mark.parametrize("claimer", [ANNA, BEN])
def test_false_claim_fixed_gives_the_opponent_three_when_he_had_no_trick(claimer):
    won = deal(End.FALSE_CLAIM, claimer, other_had_trick=False, false_claim="fixed")
    assert won == (1 - claimer, 3)


@pytest.mark.parametrize(
    ("augen", "had_trick", "points"),
    [(40, True, 1), (33, True, 1), (32, True, 2), (20, True, 2), (0, False, 3)],
)
def test_false_claim_mirror_gives_what_the_claimer_would_have_got(augen, had_trick, points):
    won = deal(End.FALSE_CLAIM, ANNA, augen, had_trick, false_claim="mirror")
    assert won == (BEN, points)


def test_false_claim_accepts_only_fixed_or_mirror():
    raises_rule_error("options.false_claim", rules_with, false_claim="double")


# --- row 5: Renonce -------------------------------------------------------------------------


@pytest.mark.parametrize("offender", [ANNA, BEN])
@pytest.mark.parametrize(("augen", "had_trick"), [(50, True), (10, True), (None, False)])
def test_renonce_gives_the_opponent_three(offender, augen, had_trick):
    assert deal(End.RENONCE, offender, augen, had_trick) == (1 - offender, 3)


# --- announcements need a trick -------------------------------------------------------------


def test_announcement_without_a_trick_gives_no_augen_when_announcements_need_a_trick():
    error = raises_rule_error(
        "other_augen", deal, End.AUSMELDEN, ANNA, other_augen=20, other_had_trick=False
    )
    assert error.index is None


def test_announcement_without_a_trick_still_loses_three_when_announcements_need_no_trick():
    # The Zwanziger counts, but the loser still has no trick: 3 points.
    won = deal(
        End.AUSMELDEN, ANNA, other_augen=20, other_had_trick=False, announcements_need_trick=False
    )
    assert won == (ANNA, 3)


# --- input that cannot be scored ------------------------------------------------------------


def test_computed_entry_needs_to_know_whether_the_loser_had_a_trick():
    raises_rule_error("other_had_trick", deal, End.LAST_TRICK, ANNA, other_augen=40)


def test_computed_entry_needs_the_losers_augen_when_he_had_a_trick():
    raises_rule_error("other_augen", deal, End.LAST_TRICK, ANNA, other_had_trick=True)


@pytest.mark.parametrize("augen", [-1, 121, True])
def test_augen_outside_0_to_120_are_refused(augen):
    raises_rule_error("other_augen", deal, End.AUSMELDEN, ANNA, augen, True)


def test_unknown_end_is_refused():
    raises_rule_error("end", deal, "surrender", ANNA, 40, True)


@pytest.mark.parametrize("by", [2, -1, True])
def test_computed_entry_refuses_a_seat_that_is_not_one_of_the_two(by):
    raises_rule_error("by", deal, End.AUSMELDEN, by, 40, True)


# --- the Bummerl: count-down from 7 ---------------------------------------------------------


def test_bummerl_starts_both_players_at_seven():
    state = sheet([])
    assert state.left == (7, 7)
    assert state.display_totals == (7, 7)


def test_bummerl_counts_down_by_the_points_won():
    state = sheet([QuickDeal(BEN, 1), QuickDeal(BEN, 2), QuickDeal(ANNA, 2)])
    assert state.totals == (2, 3)
    assert state.left == (5, 4)
    assert [line.points for line in state.lines] == [(0, 1), (0, 2), (2, 0)]
    assert state.games == ()


def test_bummerl_is_won_on_reaching_zero_and_the_other_gets_it():
    state = sheet([QuickDeal(BEN, 1), *bummerl_for(ANNA)])
    (game,) = state.games
    assert game.final == (7, 1)
    assert game.losers == (BEN,)
    assert game.result is Result.BUMMERL
    assert game.bummerl == (0, 1)
    assert state.tally == (0, 1)


def test_bummerl_ends_on_the_first_deal_reaching_zero_never_later():
    entries = [QuickDeal(ANNA, 3), QuickDeal(ANNA, 3), QuickDeal(BEN, 1), QuickDeal(ANNA, 1)]
    state = sheet([*entries, QuickDeal(BEN, 2)])
    (game,) = state.games
    assert game.decided_at == 3
    assert [line.game for line in state.lines] == [0, 0, 0, 0, 1]
    # The fifth deal opens a fresh Bummerl at 7 each.
    assert state.totals == (0, 2)
    assert state.left == (7, 5)


def test_bummerl_count_down_clamps_at_zero():
    # Anna stands at 1 left (6 won) and wins 3: she shows 0, not -2.
    document = {
        "variant": "schnapsen",
        "players": ["Anna", "Ben"],
        "deals": [
            {"winner": "Anna", "points": 3},
            {"winner": "Anna", "points": 3},
            {"winner": "Ben", "points": 2},
            {"winner": "Anna", "points": 3},
        ],
    }
    scored = score_document(document)
    assert [d["left"] for d in scored["deals"]] == [
        {"Anna": 4, "Ben": 7},
        {"Anna": 1, "Ben": 7},
        {"Anna": 1, "Ben": 5},
        {"Anna": 0, "Ben": 5},
    ]
    assert scored["games"][0]["final"] == {"Anna": 9, "Ben": 2}
    assert scored["current"]["left"] == {"Anna": 7, "Ben": 7}


def test_schneider_counts_double_when_loser_has_no_point():
    state = sheet([QuickDeal(ANNA, 3), QuickDeal(ANNA, 2), QuickDeal(ANNA, 2)])
    (game,) = state.games
    assert game.final == (7, 0)
    assert game.result is Result.SCHNEIDER
    assert game.bummerl == (0, 2)
    assert state.tally == (0, 2)


def test_schneider_counts_once_under_tournament_option():
    state = sheet([QuickDeal(ANNA, 3), QuickDeal(ANNA, 3), QuickDeal(ANNA, 3)], schneider_counts=1)
    (game,) = state.games
    assert game.result is Result.SCHNEIDER
    assert game.bummerl == (0, 1)


def test_loser_with_a_single_point_is_not_schneider():
    state = sheet(bummerl_for(BEN, loser_points=1))
    (game,) = state.games
    assert game.final == (1, 7)
    assert game.result is Result.BUMMERL
    assert game.bummerl == (1, 0)


@pytest.mark.parametrize("count", [0, 5, True])
def test_schneider_counts_is_a_number_from_one_to_four(count):
    raises_rule_error("options.schneider_counts", rules_with, schneider_counts=count)


# --- the Partie -----------------------------------------------------------------------------


def test_partie_is_won_by_hanging_two_bummerl_on_the_other():
    first = sheet(bummerl_for(ANNA, loser_points=1))
    assert first.tally == (0, 1)
    assert first.partie_winner is None
    assert not first.is_closed
    state = sheet(bummerl_for(ANNA, loser_points=1) * 2)
    assert state.tally == (0, 2)
    assert state.partie_winner == ANNA
    assert state.is_closed


def test_partie_counts_only_the_bummerl_one_player_hangs_on_the_other():
    state = sheet(bummerl_for(ANNA, 1) + bummerl_for(BEN, 1))
    assert state.tally == (1, 1)
    assert state.partie_winner is None
    state = sheet(bummerl_for(ANNA, 1) + bummerl_for(BEN, 1) + bummerl_for(BEN, 2))
    assert state.tally == (2, 1)
    assert state.partie_winner == BEN


def test_one_schneider_hangs_two_bummerl_and_decides_a_partie_to_two():
    state = sheet(bummerl_for(BEN))
    assert state.tally == (2, 0)
    assert state.partie_winner == BEN


def test_partie_to_three_bummerl_needs_a_third():
    two = sheet(bummerl_for(ANNA, 1) * 2, partie_bummerl=3)
    assert two.tally == (0, 2)
    assert two.partie_winner is None
    three = sheet(bummerl_for(ANNA, 1) * 3, partie_bummerl=3)
    assert three.tally == (0, 3)
    assert three.partie_winner == ANNA


@pytest.mark.parametrize("count", [1, 4])
def test_partie_bummerl_is_two_or_three(count):
    raises_rule_error("options.partie_bummerl", rules_with, partie_bummerl=count)


def test_entries_after_the_partie_is_decided_are_refused():
    entries = bummerl_for(ANNA, 1) * 2  # 8 entries; the Partie is decided by the 8th
    with pytest.raises(RuleError) as info:
        sheet([*entries, QuickDeal(BEN, 1)])
    assert info.value.field == "deal"
    assert info.value.index == 8
    assert str(info.value).startswith("deal 9, deal:")


# --- dealer and Vorhand ---------------------------------------------------------------------


@pytest.mark.parametrize("first_dealer", [ANNA, BEN])
def test_dealer_and_vorhand_alternate_every_deal(first_dealer):
    other = 1 - first_dealer
    state = sheet([QuickDeal(ANNA, 1), QuickDeal(BEN, 1), QuickDeal(ANNA, 2)], first_dealer)
    assert [line.dealer for line in state.lines] == [first_dealer, other, first_dealer]
    assert [line.rufer for line in state.lines] == [other, first_dealer, other]
    assert (state.dealer, state.rufer) == (other, first_dealer)


def test_dealer_keeps_alternating_into_the_next_bummerl():
    # Ben wins a point first, so the Bummerl is no Schneider and the Partie goes on.
    entries = [*bummerl_for(ANNA, loser_points=1), QuickDeal(BEN, 1)]
    state = sheet(entries, first_dealer=ANNA)
    assert [line.game for line in state.lines] == [0, 0, 0, 0, 1]
    assert [line.dealer for line in state.lines] == [ANNA, BEN, ANNA, BEN, ANNA]
    assert state.dealer == BEN


def test_first_dealer_must_be_one_of_the_two():
    raises_rule_error("first_dealer", sheet, [], first_dealer=2)


# --- entries of the other variant -----------------------------------------------------------


def test_a_dreierschnapsen_deal_is_refused_on_a_two_player_sheet():
    with pytest.raises(RuleError) as info:
        sheet([QuickDeal(ANNA, 1), DreierDeal("gang", 0, True)])
    assert (info.value.field, info.value.index) == ("deal", 1)


def test_a_tiebreak_is_refused_on_a_two_player_sheet():
    with pytest.raises(RuleError) as info:
        sheet([TieBreak(ANNA)])
    assert (info.value.field, info.value.index) == ("tiebreak_winner", 0)
