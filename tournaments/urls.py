from django.urls import path

from tournaments.views import desk, draws, export, formats, printouts, ranking, reports, results

club_patterns = [
    path("", desk.tournament_list, name="tournaments"),
    path("<int:tournament_id>/", desk.tournament, name="tournament"),
    path("<int:tournament_id>/sell/", desk.sell, name="sell"),
    path("<int:tournament_id>/cards/<int:card_id>/paid/", desk.mark_paid, name="mark_paid"),
    path("<int:tournament_id>/cards/<int:card_id>/withdraw/", desk.withdraw, name="withdraw_card"),
    path("<int:tournament_id>/lower/", desk.lower, name="lower_cards"),
    path("<int:tournament_id>/pay/", desk.pay_player, name="pay_player"),
    path("<int:tournament_id>/tables/", desk.tables, name="set_tables"),
    path("<int:tournament_id>/seats/", desk.seats, name="seats"),
    path("<int:tournament_id>/print/seats.pdf", desk.print_seats, name="print_seats"),
    path("<int:tournament_id>/print/cash.pdf", desk.print_cash, name="print_cash"),
    path("<int:tournament_id>/draw/physical/calls.pdf", draws.print_calls, name="print_calls"),
    path("<int:tournament_id>/draw/", draws.draw_next, name="draw_next"),
    path("<int:tournament_id>/draw/physical/", draws.physical_draw, name="physical_draw"),
    path("<int:tournament_id>/draw/<int:round_id>/undo/", draws.undo, name="undo_draw"),
    path("<int:tournament_id>/draw/<int:round_id>/undo-pull/", draws.undo_pull, name="undo_pull"),
    path("<int:tournament_id>/rounds/<int:number>/", results.round_page, name="round"),
    path("<int:tournament_id>/pairings/<int:pairing_id>/result/", results.result, name="result"),
    path(
        "<int:tournament_id>/pairings/<int:pairing_id>/links/",
        reports.side_links,
        name="side_links",
    ),
    path(
        "<int:tournament_id>/pairings/<int:pairing_id>/links/<str:side>/<str:action>/",
        reports.side_link_change,
        name="side_link_change",
    ),
    path(
        "<int:tournament_id>/pairings/<int:pairing_id>/accept/",
        reports.accept,
        name="accept_report",
    ),
    path("<int:tournament_id>/result-check/", reports.result_check, name="result_check"),
    path("<int:tournament_id>/export.json", export.export, name="tournament_export"),
    path("<int:tournament_id>/history/", export.history, name="tournament_history"),
    path("<int:tournament_id>/ranking/", ranking.ranking_page, name="tournament_ranking"),
    path("<int:tournament_id>/ranking/stechen/", ranking.stechen, name="stechen"),
    path("<int:tournament_id>/ranking/lots/", ranking.lots, name="draw_lots"),
    path("<int:tournament_id>/consolation/", ranking.consolation, name="open_consolation"),
    path("<int:tournament_id>/print/bracket.pdf", printouts.print_bracket, name="print_bracket"),
    path("<int:tournament_id>/print/prizes.pdf", printouts.print_prizes, name="print_prizes"),
    path(
        "<int:tournament_id>/rounds/<int:number>/draw.pdf", printouts.print_draw, name="print_draw"
    ),
    path(
        "<int:tournament_id>/rounds/<int:number>/sheets.pdf",
        printouts.print_match_sheets,
        name="print_match_sheets",
    ),
    # Leben and points events (RULES.md 5.10, 6)
    path("<int:tournament_id>/cards/<int:card_id>/life/", formats.buy_life, name="buy_life"),
    path("<int:tournament_id>/cards/<int:card_id>/team/", formats.set_team, name="set_team"),
    path(
        "<int:tournament_id>/print/standings.pdf",
        formats.print_standings,
        name="print_standings",
    ),
]

public_patterns = [  # under the live bracket's public link, p/<token>/
    path("verify/", ranking.verify_page, name="verify_draws"),
    path("export.json", ranking.public_export, name="public_export"),
]
