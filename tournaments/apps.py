from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Preisschnapsen")

    def ready(self):
        from scoring.signals import sheet_changed
        from tournaments.services.sheets import follow_match_sheet

        sheet_changed.connect(follow_match_sheet, dispatch_uid="tournament-match-sheet")
