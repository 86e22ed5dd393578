from django.urls import path

from tournaments import views

club_patterns = [
    path("", views.tournament_list, name="tournaments"),
    path("<int:tournament_id>/", views.tournament, name="tournament"),
    path("<int:tournament_id>/sell/", views.sell, name="sell"),
    path("<int:tournament_id>/cards/<int:card_id>/paid/", views.mark_paid, name="mark_paid"),
    path("<int:tournament_id>/cards/<int:card_id>/withdraw/", views.withdraw, name="withdraw_card"),
    path("<int:tournament_id>/lower/", views.lower, name="lower_cards"),
    path("<int:tournament_id>/draw/", views.draw_next, name="draw_next"),
    path("<int:tournament_id>/draw/physical/", views.physical_draw, name="physical_draw"),
    path("<int:tournament_id>/draw/<int:round_id>/undo/", views.undo, name="undo_draw"),
    path("<int:tournament_id>/draw/<int:round_id>/undo-pull/", views.undo_pull, name="undo_pull"),
    path("<int:tournament_id>/rounds/<int:number>/", views.round_page, name="round"),
    path("<int:tournament_id>/pairings/<int:pairing_id>/result/", views.result, name="result"),
    path("<int:tournament_id>/export.json", views.export, name="tournament_export"),
    path("<int:tournament_id>/history/", views.history, name="tournament_history"),
    path("<int:tournament_id>/print/bracket.pdf", views.print_bracket, name="print_bracket"),
    path("<int:tournament_id>/print/prizes.pdf", views.print_prizes, name="print_prizes"),
    path("<int:tournament_id>/rounds/<int:number>/draw.pdf", views.print_draw, name="print_draw"),
    path(
        "<int:tournament_id>/rounds/<int:number>/sheets.pdf",
        views.print_match_sheets,
        name="print_match_sheets",
    ),
]
