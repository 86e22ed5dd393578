"""Club pages: the start page, the club's players, a player (rename, merge), the club's
history. The club's own page with its tables is ``scoring.views.tables``."""

import dataclasses
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from base.errors import RuleError
from base.htmx import partial_or_page, vary_on_htmx
from base.text import TYPED_MAX, clean_name, warn_unprintable
from clubs import audit
from clubs.access import Access, access_for, club_for, clubs_of
from clubs.audit import Action
from clubs.forms import PlayerForm, put_rule_error, read_id, rule_error_text
from clubs.models import AuditEntry, Club, Player, Role
from clubs.players import add_player, known_player, merge_plan, merge_players, rename_player
from clubs.tables import PlayerTable, paginate

PLAYER_FIGURES: list[Callable[[Club, Player], dict]] = []
"""Functions ``(club, player) -> context`` whose values a player's page shows: the apps
built on clubs add theirs in ``AppConfig.ready`` (scoring: the player's Bummerl tally,
``tally``), so that clubs needs to know nothing of them."""


def home(request):
    if not request.user.is_authenticated:
        # a new server without any account: the way to its first-run page (/setup/)
        first_run = not get_user_model().objects.exists()
        return render(request, "clubs/welcome.html", {"first_run": first_run})
    clubs = list(clubs_of(request.user))
    if len(clubs) == 1:
        return redirect("club", slug=clubs[0].slug)
    for each in clubs:
        each.role_label = Role(each.role).label
    return render(request, "clubs/home.html", {"clubs": clubs})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def players(request, slug):
    access = access_for(request, slug)
    club = access.club
    form = PlayerForm(request.POST or None)
    existing = None
    if request.method == "POST":
        if not access.can_score:
            raise PermissionDenied
        next_url = request.POST.get("next")
        if not (next_url and next_url.startswith("/") and not next_url.startswith("//")):
            next_url = None
        if form.is_valid():
            try:
                player = add_player(club, form.cleaned_data["name"])
            except RuleError as error:
                existing = known_player(club, form.cleaned_data["name"])
                if existing is not None and next_url:
                    # Typed at the table in another case: that player is there to choose.
                    messages.info(request, rule_error_text(error))
                    return redirect(next_url)
                put_rule_error(form, error, "name")
            else:
                warn_unprintable(request, player.name)
                if next_url:
                    return redirect(next_url)
                return redirect(f"{request.path}?added={player.pk}")
    query = request.GET.get("q", "").strip()
    found = Player.objects.filter(club=club)
    if query:
        found = found.search(query)
    table = PlayerTable(found, club=club, order_by=request.GET.get("sort"))
    paginate(table, request.GET.get("page"), 50)
    context = {"club": club, "form": form, "table": table, "query": query, "existing": existing}
    if request.method == "POST":  # a refused name: the whole page, with its error
        return render(request, "clubs/players.html", context)
    return partial_or_page(request, "clubs/players.html", "list", context)


@login_required
@require_safe
def player_search(request, slug):
    """Names for a type-ahead: ``?q=mül`` finds Müller (JSON list of names; for htmx,
    the ``<option>``s of a datalist, reading the ``name`` field)."""
    club = club_for(request, slug)
    query = (request.GET.get("q") or request.GET.get("name") or "").strip()
    names = (
        list(Player.objects.filter(club=club).search(query).values_list("name", flat=True)[:10])
        if query
        else []
    )
    if request.htmx:
        return vary_on_htmx(render(request, "clubs/_options.html", {"names": names}))
    return vary_on_htmx(JsonResponse({"names": names}))


def _player_of(club, player_id) -> Player:
    person = Player.objects.filter(club=club, pk=player_id).first()
    if person is None:
        raise Http404
    return person


def _player_page(
    request,
    access: Access,
    person,
    rename_form=None,
    merge_error=None,
    merge_name="",
    status=200,
):
    context = {
        "club": access.club,
        "player": person,
        "can_manage": access.can_manage,
        "rename_form": rename_form or PlayerForm(initial={"name": person.name}),
        "merge_error": merge_error,
        "merge_name": merge_name,
    }
    for figures in PLAYER_FIGURES:
        context.update(figures(access.club, person))
    return render(request, "clubs/player.html", context, status=status)


@login_required
@require_safe
def player(request, slug, player_id):
    access = access_for(request, slug)
    return _player_page(request, access, _player_of(access.club, player_id))


@login_required
@require_POST
def rename(request, slug, player_id):
    """An organiser renames a player (a change of case too); a name of another player
    is refused: those two are merged instead."""
    access = access_for(request, slug, Role.ORGANISER)
    club = access.club
    person = _player_of(club, player_id)
    form = PlayerForm(request.POST)
    if form.is_valid():
        old = person.name
        try:
            person = rename_player(person, form.cleaned_data["name"], access.actor)
        except RuleError as error:
            put_rule_error(form, error, "name")
        else:
            if person.name != old:
                messages.success(
                    request,
                    _("%(old)s is now called %(name)s.") % {"old": old, "name": person.name},
                )
            return redirect("player", slug=club.slug, player_id=person.pk)
    return _player_page(request, access, person, rename_form=form, status=400)


@login_required
@require_safe
def club_history(request, slug):
    """The club's history (organisers): renamed and merged players; owners also see who
    founded the club, invited, joined, changed roles and was removed."""
    access = access_for(request, slug, Role.ORGANISER)
    club = access.club
    entries = audit.history("club", club.pk).filter(club=club)
    if not access.is_owner:
        entries = entries.exclude(action__in=MEMBERSHIP_ACTIONS)
    back = reverse("players", kwargs={"slug": club.slug})
    rows = audit.history_rows(entries[:2000])
    return render(request, "audit.html", {"title": club.name, "rows": rows, "back": back})


MEMBERSHIP_ACTIONS = (
    Action.CLUB_CREATED,
    Action.INVITATION_CREATED,
    Action.INVITATION_REVOKED,
    Action.INVITATION_ACCEPTED,
    Action.ROLE_CHANGED,
    Action.MEMBER_REMOVED,
    Action.RESET_LINK_ISSUED,
    Action.RESET_LINK_USED,
    Action.SIGN_IN_UNLOCKED,
    Action.E_MAIL_CHANGED,
)
"""History entries of who belongs to the club: for its owners' eyes."""


MOVED = {
    "seat": gettext_lazy("Seats at tables (with their results and tallies)"),
    "card": gettext_lazy("Tournament cards"),
    "pull": gettext_lazy("Pulls from the pots"),
}
"""What a merge moves, by the model name of the rows (clubs.players.MergePlan)."""


def _merged_into(club, gone_id: int) -> str | None:
    """The message for a merge sent again: which player ``gone_id`` became, if merged."""
    entry = (
        AuditEntry.objects.filter(
            club=club, scope="club", scope_id=club.pk, action=Action.PLAYERS_MERGED
        )
        .filter(before__merged_id=gone_id)
        .first()
    )
    if entry is None:
        return None
    before = entry.before or {}
    return _("%(gone)s is merged into %(name)s already.") % {
        "gone": before.get("merged", ""),
        "name": before.get("name", ""),
    }


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def merge(request, slug, player_id):
    """Merge another player into this one: the page names the other player (typed, in
    any case) and shows what moves; the organiser confirms with a POST."""
    access = access_for(request, slug, Role.ORGANISER)
    club = access.club
    keep = _player_of(club, player_id)
    source = request.POST if request.method == "POST" else request.GET
    other_id = read_id(source, "other")  # None for abc, ², 20 digits: read as not given
    typed = source.get("name", "")
    gone = None
    if other_id is not None:
        gone = Player.objects.filter(club=club, pk=other_id).first()
        if gone is None:
            done = _merged_into(club, other_id)
            if done:
                messages.info(request, done)
                return redirect("player", slug=club.slug, player_id=keep.pk)
    elif len(typed) > TYPED_MAX:
        error = _("A name has at most 80 characters.")
        return _player_page(request, access, keep, merge_error=error, status=400)
    elif clean_name(typed):
        gone = known_player(club, source["name"])
        if gone is None:
            error = _("No player of this club is called %(name)s.") % {
                "name": clean_name(source["name"])
            }
            return _player_page(
                request, access, keep, merge_error=error, merge_name=source["name"], status=400
            )
    if gone is None:
        return _player_page(
            request, access, keep, merge_error=_("Name the other player."), status=400
        )
    plan = merge_plan(keep, gone)
    if request.method == "POST" and plan.clash is None:
        try:
            merge_players(keep, gone, access.actor)
        except RuleError as error:
            plan = dataclasses.replace(plan, clash=error)
        else:
            messages.success(
                request,
                _("%(gone)s and %(name)s are one player now: %(name)s.")
                % {"gone": gone.name, "name": keep.name},
            )
            return redirect("player", slug=club.slug, player_id=keep.pk)
    return render(
        request,
        "clubs/merge.html",
        {
            "club": club,
            "keep": keep,
            "gone": gone,
            "plan": plan,
            "moves": [(MOVED.get(kind, kind), n) for kind, n in plan.moves.items()],
            "clash": rule_error_text(plan.clash) if plan.clash else None,
        },
        status=400 if plan.clash else 200,
    )
