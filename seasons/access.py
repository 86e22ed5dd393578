"""Who reads a club's rankings (the season ranking, the rating list): its members, and
anyone when the owner made the ranking pages public (``RankingSettings.public``)."""

from django.http import Http404, HttpRequest

from clubs.access import Access, member_access
from clubs.models import Club


def ranking_access(request: HttpRequest, slug: str) -> tuple[Club, Access | None] | None:
    """The club and the visitor's ``Access`` (None: a visitor reading a public ranking);
    None when the club's rankings are not public and the visitor has not signed in.
    A signed-in visitor who is no member of a club with private rankings gets 404."""
    access = member_access(request, slug)
    if access is not None:
        return access.club, access
    club = Club.objects.filter(slug=slug, ranking_settings__public=True).first()
    if club is not None:
        return club, None
    if request.user.is_authenticated:
        raise Http404
    return None
