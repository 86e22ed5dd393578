"""The answers of the invited and the asked (issue 38): an account invited to be an
admin of a body accepts or declines on its page of bodies, and an organiser of a club
accepts or declines his night as a cup's final on the night's desk. Nothing of a body
acts on a club or an account before it answers."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base.errors import RuleError
from clubs.access import access_for
from clubs.forms import rule_error_text
from clubs.models import Role
from cups import access, services
from cups.models import AdminInvitation, Cup
from tournaments.models import Tournament


@login_required
@require_POST
def answer_invitation(request: HttpRequest, invitation_id: int) -> HttpResponse:
    """The invited account accepts or declines (``answer`` ``accept``/``decline``) its
    invitation to be an admin of a body; 404 for anyone else."""
    found = (
        AdminInvitation.objects.filter(pk=invitation_id, user=request.user.pk)
        .select_related("body", "user")
        .first()
    )
    answer = request.POST.get("answer")
    if found is None or answer not in ("accept", "decline"):
        raise Http404
    admin = services.answer_admin(found, accept=answer == "accept", actor=access.actor(request))
    if admin:
        messages.success(request, _("You are an admin of %(body)s.") % {"body": found.body.name})
        return redirect("cups:body", slug=found.body.slug)
    messages.success(request, _("Invitation declined."))
    return redirect("cups:bodies")


@login_required
@require_POST
def answer_final(request: HttpRequest, slug: str, tournament_id: int, cup_id: int) -> HttpResponse:
    """An organiser of the night's club accepts or declines (``answer``) the night as a
    cup's final, on the night's desk."""
    club_access = access_for(request, slug, Role.ORGANISER)
    t = Tournament.objects.filter(club=club_access.club, pk=tournament_id).first()
    cup = Cup.objects.filter(pk=cup_id, final=t).select_related("body").first() if t else None
    answer = request.POST.get("answer")
    if t is None or cup is None or answer not in ("accept", "decline"):
        raise Http404
    try:
        services.answer_final(cup, t, accept=answer == "accept", actor=club_access.actor)
    except RuleError as error:
        messages.error(request, rule_error_text(error))
    else:
        if answer == "accept":
            messages.success(request, _("This night is the final of %(cup)s.") % {"cup": cup.name})
        else:
            messages.success(request, _("Declined as the final of %(cup)s.") % {"cup": cup.name})
    return redirect("tournament", slug=slug, tournament_id=t.pk)
