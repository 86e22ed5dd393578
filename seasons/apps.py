from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = _("Seasons and rankings")

    def ready(self):
        from clubs.views import PLAYER_FIGURES
        from seasons.player import player_figures

        if player_figures not in PLAYER_FIGURES:
            PLAYER_FIGURES.append(player_figures)
