from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from clubs.models import Player
        from clubs.views import PLAYER_FIGURES
        from ratings.follow import match_result_changed, player_deleted, sheet_games_changed
        from ratings.views import player_figures
        from scoring.signals import games_changed
        from tournaments.signals import result_changed

        games_changed.connect(sheet_games_changed, dispatch_uid="ratings-sheet")
        result_changed.connect(match_result_changed, dispatch_uid="ratings-result")
        post_delete.connect(player_deleted, sender=Player, dispatch_uid="ratings-player")
        if player_figures not in PLAYER_FIGURES:
            PLAYER_FIGURES.append(player_figures)
