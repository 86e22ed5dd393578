"""The URLs of ``make bench`` only (never the site's ``ROOT_URLCONF``): the site's own,
plus two yardsticks behind the same middleware and sign-in as the sheet:

- ``bench/read/``: a trivial view, the signed-in user named in a 1-line template;
- ``bench/write/``: a minimal write view, one row saved in a transaction and a 1-line
  template rendered.
"""

from django.db import transaction
from django.http import HttpResponse
from django.template import engines
from django.urls import path
from django.views.decorators.http import require_POST, require_safe

from bummerl.urls import urlpatterns as site
from clubs.models import AuditEntry

ONE_LINE = engines["django"].from_string("<p>{{ user.get_username }}: {{ what }}</p>")


@require_safe
def trivial(request):
    return HttpResponse(ONE_LINE.render({"user": request.user, "what": "ok"}, request))


@require_POST
def minimal_write(request):
    with transaction.atomic():
        row = AuditEntry.objects.create(
            club_id=int(request.POST["club"]), scope="bench", scope_id=1, action="bench write"
        )
    return HttpResponse(ONE_LINE.render({"user": request.user, "what": row.pk}, request))


urlpatterns = [
    *site,
    path("bench/read/", trivial),
    path("bench/write/", minimal_write),
]
