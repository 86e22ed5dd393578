from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Preisschnapsen")

    def ready(self):
        from scoring.signals import partie_decided
        from tournaments.services import sheet_decided_match

        partie_decided.connect(sheet_decided_match, dispatch_uid="tournament-match-sheet")
