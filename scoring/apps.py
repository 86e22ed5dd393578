from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Score keeping")

    def ready(self):
        from clubs.views import PLAYER_FIGURES
        from scoring.tally import player_figures

        if player_figures not in PLAYER_FIGURES:
            PLAYER_FIGURES.append(player_figures)
