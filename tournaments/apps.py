from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Preisschnapsen")

    def ready(self):
        from clubs.players import name_meetings
        from scoring.signals import link_open, sheet_changed
        from tournaments.links import sheet_link_open
        from tournaments.models import Pairing
        from tournaments.rows import meeting_name
        from tournaments.services.results import follow_match_sheet

        name_meetings(Pairing, meeting_name)
        sheet_changed.connect(follow_match_sheet, dispatch_uid="tournament-match-sheet")
        link_open.connect(sheet_link_open, dispatch_uid="tournament-match-sheet-link")
