from django.urls import path

from tournaments.views import (
    club_face,
    desk,
    draws,
    export,
    formats,
    printouts,
    public,
    ranking,
    registrations,
    reports,
    results,
)

club_patterns = [
    path("", desk.tournament_list, name="tournaments"),
    path("<id:tournament_id>/", desk.tournament, name="tournament"),
    path("<id:tournament_id>/sell/", desk.sell, name="sell"),
    path("<id:tournament_id>/cards/<id:card_id>/paid/", desk.mark_paid, name="mark_paid"),
    path("<id:tournament_id>/cards/<id:card_id>/withdraw/", desk.withdraw, name="withdraw_card"),
    path("<id:tournament_id>/cards/<id:card_id>/cancel/", desk.cancel, name="cancel_sale"),
    path("<id:tournament_id>/lower/", desk.lower, name="lower_cards"),
    path("<id:tournament_id>/pay/", desk.pay_player, name="pay_player"),
    path("<id:tournament_id>/tables/", desk.tables, name="set_tables"),
    path("<id:tournament_id>/seats/", desk.seats, name="seats"),
    path("<id:tournament_id>/print/seats.pdf", desk.print_seats, name="print_seats"),
    path("<id:tournament_id>/personal-links/", desk.personal_links, name="personal_links"),
    path(
        "<id:tournament_id>/print/personal-links.pdf",
        desk.print_personal_links,
        name="print_personal_links",
    ),
    path("<id:tournament_id>/print/cash.pdf", desk.print_cash, name="print_cash"),
    path("<id:tournament_id>/draw/physical/calls.pdf", draws.print_calls, name="print_calls"),
    path("<id:tournament_id>/draw/", draws.draw_next, name="draw_next"),
    path("<id:tournament_id>/draw/physical/", draws.physical_draw, name="physical_draw"),
    path("<id:tournament_id>/draw/<id:round_id>/undo/", draws.undo, name="undo_draw"),
    path("<id:tournament_id>/draw/<id:round_id>/undo-pull/", draws.undo_pull, name="undo_pull"),
    path("<id:tournament_id>/rounds/<id:number>/", results.round_page, name="round"),
    path("<id:tournament_id>/pairings/<id:pairing_id>/result/", results.result, name="result"),
    path(
        "<id:tournament_id>/pairings/<id:pairing_id>/links/",
        reports.side_links,
        name="side_links",
    ),
    path(
        "<id:tournament_id>/pairings/<id:pairing_id>/links/<str:side>/<str:action>/",
        reports.side_link_change,
        name="side_link_change",
    ),
    path(
        "<id:tournament_id>/pairings/<id:pairing_id>/accept/",
        reports.accept,
        name="accept_report",
    ),
    path("<id:tournament_id>/result-check/", reports.result_check, name="result_check"),
    path("<id:tournament_id>/export.json", export.export, name="tournament_export"),
    path("<id:tournament_id>/history/", export.history, name="tournament_history"),
    path("<id:tournament_id>/ranking/", ranking.ranking_page, name="tournament_ranking"),
    path("<id:tournament_id>/ranking/stechen/", ranking.stechen, name="stechen"),
    path("<id:tournament_id>/ranking/lots/", ranking.lots, name="draw_lots"),
    path("<id:tournament_id>/consolation/", ranking.consolation, name="open_consolation"),
    path("<id:tournament_id>/print/bracket.pdf", printouts.print_bracket, name="print_bracket"),
    path("<id:tournament_id>/print/prizes.pdf", printouts.print_prizes, name="print_prizes"),
    path("<id:tournament_id>/rounds/<id:number>/draw.pdf", printouts.print_draw, name="print_draw"),
    path(
        "<id:tournament_id>/rounds/<id:number>/sheets.pdf",
        printouts.print_match_sheets,
        name="print_match_sheets",
    ),
    # announced nights: registration window, registrations, check-in (issue 28)
    path("<id:tournament_id>/registrations/", registrations.registrations, name="registrations"),
    path(
        "<id:tournament_id>/registrations/window/",
        registrations.window,
        name="registration_window",
    ),
    path(
        "<id:tournament_id>/registrations/terms/",
        registrations.terms,
        name="registration_terms",
    ),
    path(
        "<id:tournament_id>/registrations/release/",
        registrations.release_not_checked_in,
        name="registrations_release",
    ),
    path(
        "<id:tournament_id>/registrations/<id:registration_id>/<str:action>/",
        registrations.registration_action,
        name="registration_action",
    ),
    # Leben and points events (RULES.md 5.10, 6)
    path("<id:tournament_id>/cards/<id:card_id>/life/", formats.buy_life, name="buy_life"),
    path("<id:tournament_id>/cards/<id:card_id>/team/", formats.set_team, name="set_team"),
    path(
        "<id:tournament_id>/print/standings.pdf",
        formats.print_standings,
        name="print_standings",
    ),
]

public_patterns = [  # under the live bracket's public link, p/<token>/
    path("verify/", ranking.verify_page, name="verify_draws"),
    path("export.json", ranking.public_export, name="public_export"),
    path("seats/", public.public_seats, name="public_seats"),  # where do I play?
    path("register/", registrations.register, name="register"),  # an announced night
    path("widget/", club_face.bracket_widget, name="bracket_widget"),  # in a frame elsewhere
]

# The club's public face (issue 28), under k/<slug>/ while ``Club.public_page`` is set.
face_patterns = [
    path("", club_face.club_page, name="club_page"),
    path("nights.json", club_face.club_json, name="club_json"),
    path("calendar.ics", club_face.club_calendar, name="club_calendar"),
    path("colour.css", club_face.colour_css, name="club_colour"),
    path("widget/nights/", club_face.nights_widget, name="nights_widget"),
]
