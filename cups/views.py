"""Cup pages: a body's page and its cups' admin pages (admins only, 404 for anyone
else), the club owner's join confirmation, the person links page (admins, and the
organisers of member clubs for their own players), the organiser's ticks on his night.
The public cup page is ``cups.public``."""

from dataclasses import dataclass, replace

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from base.errors import RuleError
from base.links import absolute_url
from base.numbers import whole_number
from clubs import audit
from clubs.access import access_for
from clubs.forms import put_rule_error, rule_error_text
from clubs.models import AuditEntry, Club, Player, Role
from cups import access, finals, persons, services
from cups.forms import AdminForm, BodyForm, CupForm, InviteForm, JoinForm, LinkForm, NightForm
from cups.models import Body, Cup, Link, Member, Night
from cups.reading import cup_data, night_label
from seasons import ranking
from tournaments.models import Tournament

# -- bodies ------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def bodies(request: HttpRequest) -> HttpResponse:
    """The bodies the user is an admin of, and a form to create one (any account)."""
    form = BodyForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            body = services.create_body(
                data["name"], data["slug"], actor=access.actor(request), key=data["key"]
            )
        except RuleError as error:
            put_rule_error(form, error, shown=("name", "slug"))
        else:
            return redirect("cups:body", slug=body.slug)
    mine = Body.objects.filter(admins=request.user.pk)
    status = 400 if request.method == "POST" else 200
    context = {
        "bodies": mine,
        "form": form,
        "invitations": services.open_invitations(request.user),  # type: ignore[arg-type]
    }
    return render(request, "cups/bodies.html", context, status=status)


def _body_page(
    request: HttpRequest, body: Body, *, status: int = 200, **forms: object
) -> HttpResponse:
    context = {
        "body": body,
        "members": Member.objects.live().filter(body=body).select_related("club"),
        "admins": body.admins.order_by("username"),
        "invited": body.invitations.filter(
            accepted_at__isnull=True, ended_at__isnull=True
        ).select_related("user"),
        "cups": body.cups.all(),
        "join_url": absolute_url(request, reverse("cups:join", kwargs={"token": body.join_token})),
        "admin_form": forms.get("admin_form") or AdminForm(),
        "cup_form": forms.get("cup_form") or CupForm(finals=_finals(body)),
    }
    return render(request, "cups/body.html", context, status=status)


def _finals(body: Body) -> QuerySet[Tournament]:
    """Nights that may be a cup's final: those of the body's member clubs."""
    clubs = Member.objects.live().filter(body=body).values("club_id")
    return (
        Tournament.objects.filter(club_id__in=clubs)
        .select_related("club")
        .order_by("-starts_at", "-id")
    )


@login_required
@require_safe
def body(request: HttpRequest, slug: str) -> HttpResponse:
    return _body_page(request, access.admin_body(request, slug))


HISTORY_MAX = 2000
"""The newest entries a body's history page shows (as the club's)."""


@login_required
@require_safe
def history(request: HttpRequest, slug: str) -> HttpResponse:
    """The body's history (its admins; 404 for anyone else): the entries of the body
    (clubs joined and removed, admins, the join link, person links) and of each of its
    cups (settings, nights counted and taken out, heats, the invite to the final),
    newest first, each cup's entry with the cup's name. A fixed number of queries,
    whatever the number of entries (at most ``HISTORY_MAX``)."""
    found = access.admin_body(request, slug)
    cups = dict(found.cups.values_list("pk", "name"))
    entries = list(
        AuditEntry.objects.filter(club=None)
        .filter(Q(scope="body", scope_id=found.pk) | Q(scope="cup", scope_id__in=list(cups)))
        .select_related("actor")
        .order_by("-at", "-id")[:HISTORY_MAX]
    )
    rows = [
        replace(row, action=f"{row.action} · {cups[entry.scope_id]}")
        if entry.scope == "cup"
        else row
        for entry, row in zip(entries, audit.history_rows(entries), strict=True)
    ]
    back = reverse("cups:body", kwargs={"slug": found.slug})
    return render(request, "audit.html", {"title": found.name, "rows": rows, "back": back})


@login_required
@require_POST
def add_admin(request: HttpRequest, slug: str) -> HttpResponse:
    found = access.admin_body(request, slug)
    form = AdminForm(request.POST)
    if form.is_valid():
        name = form.cleaned_data["username"]
        try:
            invitation = services.invite_admin(found, name, actor=access.actor(request))
        except RuleError as error:
            put_rule_error(form, error, shown=("username",))
        else:
            if invitation is None:
                messages.success(request, _("%(name)s is an admin already.") % {"name": name})
            else:
                messages.success(
                    request,
                    _(
                        "%(name)s is invited: an admin once the invitation is accepted on "
                        "the page of organising bodies."
                    )
                    % {"name": invitation.user.get_username()},
                )
            return redirect("cups:body", slug=found.slug)
    return _body_page(request, found, admin_form=form, status=400)


@login_required
@require_POST
def renew_join_link(request: HttpRequest, slug: str) -> HttpResponse:
    found = access.admin_body(request, slug)
    services.renew_join_link(found, actor=access.actor(request))
    messages.success(request, _("A new join link: the old one no longer works."))
    return redirect("cups:body", slug=found.slug)


@login_required
@require_POST
def remove_club(request: HttpRequest, slug: str, club_id: int) -> HttpResponse:
    found = access.admin_body(request, slug)
    member = Member.objects.live().filter(body=found, club_id=club_id).select_related("club")
    one = member.first()
    if one is None:
        raise Http404
    services.remove_club(found, one.club, actor=access.actor(request))
    messages.success(request, _("%(club)s is no longer a member.") % {"club": one.club.name})
    return redirect("cups:body", slug=found.slug)


@login_required
@require_POST
def new_cup(request: HttpRequest, slug: str) -> HttpResponse:
    found = access.admin_body(request, slug)
    form = CupForm(request.POST, finals=_finals(found))
    if form.is_valid():
        try:
            cup = services.save_cup(
                found, form.settings(), actor=access.actor(request), key=form.cleaned_data["key"]
            )
        except RuleError as error:
            put_rule_error(form, error, shown=form.fields)
        else:
            return redirect("cups:cup_admin", slug=found.slug, cup_slug=cup.slug)
    return _body_page(request, found, cup_form=form, status=400)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    """The join link: a club owner picks one of his clubs and confirms it joins."""
    found = Body.objects.filter(join_token=token).first()
    if found is None:
        raise Http404
    owned = Club.objects.filter(memberships__user=request.user.pk, memberships__role=Role.OWNER)
    form = JoinForm(request.POST or None, clubs=owned)
    if request.method == "POST" and form.is_valid():
        club = form.cleaned_data["club"]
        try:
            services.join(found, club, token, actor=access.actor(request))
        except RuleError as error:
            put_rule_error(form, error)
        else:
            messages.success(
                request,
                _("%(club)s is a member of %(body)s.") % {"club": club.name, "body": found.name},
            )
            return redirect("club", slug=club.slug)
    members = set(
        Member.objects.live().filter(body=found, club__in=owned).values_list("club_id", flat=True)
    )
    return render(
        request,
        "cups/join.html",
        {"body": found, "form": form, "owned": owned, "members": members},
        status=400 if request.method == "POST" else 200,
    )


# -- a cup's admin page ------------------------------------------------------------------


def _cup_page(
    request: HttpRequest, cup: Cup, *, status: int = 200, **forms: object
) -> HttpResponse:
    data = cup_data(cup)
    counted = {n.tournament_id for n in data.nights}
    # the member clubs' nights in the cup's days (an older or later one by its id)
    addable = _finals(cup.body).exclude(pk__in=counted)
    addable = addable.filter(starts_at__date__gte=cup.first_day, starts_at__date__lte=cup.last_day)
    if cup.final_id:
        addable = addable.exclude(pk=cup.final_id)
    context = {
        "body": cup.body,
        "cup": cup,
        "data": data,
        "nights": [(n, night_label(n)) for n in data.nights],
        "settings_form": forms.get("settings_form")
        or CupForm(initial=_cup_initial(cup), finals=_finals(cup.body)),
        "night_form": forms.get("night_form") or NightForm(nights=addable),
        "invite_form": InviteForm(),
        "invite_error": forms.get("invite_error"),
        "qualifiers": data.qualifiers(),
        "members": set(
            Member.objects.live().filter(body=cup.body).values_list("club_id", flat=True)
        ),
        "public_url": reverse("cups:cup", kwargs={"slug": cup.body.slug, "cup_slug": cup.slug}),
    }
    return render(request, "cups/cup_admin.html", context, status=status)


def _cup_initial(cup: Cup) -> dict:
    return {
        "name": cup.name,
        "slug": cup.slug,
        "first_day": cup.first_day,
        "last_day": cup.last_day,
        "points_key": ranking.key_text(cup.key_lines),
        "participation": cup.participation,
        "best_of": cup.best_of,
        "categories": ", ".join(cup.categories),
        "qualify_top": cup.qualify_top,
        "qualify_per_heat": cup.qualify_per_heat,
        "final": cup.final_id,
    }


@login_required
@require_safe
def cup_admin(request: HttpRequest, slug: str, cup_slug: str) -> HttpResponse:
    return _cup_page(request, access.admin_cup(request, slug, cup_slug))


@login_required
@require_POST
def cup_settings(request: HttpRequest, slug: str, cup_slug: str) -> HttpResponse:
    cup = access.admin_cup(request, slug, cup_slug)
    form = CupForm(request.POST, finals=_finals(cup.body))
    if form.is_valid():
        try:
            saved = services.save_cup(
                cup.body,
                form.settings(),
                actor=access.actor(request),
                key=form.cleaned_data["key"],
                cup=cup,
            )
        except RuleError as error:
            put_rule_error(form, error, shown=form.fields)
        else:
            messages.success(request, _("Cup saved."))
            return redirect("cups:cup_admin", slug=slug, cup_slug=saved.slug)
    return _cup_page(request, cup, settings_form=form, status=400)


@login_required
@require_POST
def add_night(request: HttpRequest, slug: str, cup_slug: str) -> HttpResponse:
    cup = access.admin_cup(request, slug, cup_slug)
    form = NightForm(request.POST, nights=_finals(cup.body))
    if form.is_valid():
        try:
            services.count_night(
                cup,
                form.cleaned_data["tournament"],
                heat=form.cleaned_data["heat"],
                actor=access.actor(request),
            )
        except RuleError as error:
            put_rule_error(form, error, shown=("tournament", "heat"))
        else:
            messages.success(request, _("The night counts in the cup."))
            return redirect("cups:cup_admin", slug=slug, cup_slug=cup.slug)
    return _cup_page(request, cup, night_form=form, status=400)


@login_required
@require_POST
def remove_night(request: HttpRequest, slug: str, cup_slug: str, night_id: int) -> HttpResponse:
    cup = access.admin_cup(request, slug, cup_slug)
    night = Night.objects.filter(cup=cup, pk=night_id).select_related("tournament__club").first()
    if night is None:
        raise Http404
    services.remove_night(night, actor=access.actor(request))
    messages.success(request, _("The night no longer counts in the cup."))
    return redirect("cups:cup_admin", slug=slug, cup_slug=cup.slug)


@login_required
@require_POST
def invite(request: HttpRequest, slug: str, cup_slug: str) -> HttpResponse:
    cup = access.admin_cup(request, slug, cup_slug)
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _cup_page(request, cup, invite_error=_("Send the form again."), status=400)
    try:
        done = finals.invite(cup, actor=access.actor(request), key=form.cleaned_data["key"])
    except RuleError as error:
        return _cup_page(request, cup, invite_error=rule_error_text(error), status=400)
    text = _("Registered for the final: %(names)s.") % {"names": ", ".join(done.registered) or "–"}
    if done.already:
        text += " " + _("Registered already: %(names)s.") % {"names": ", ".join(done.already)}
    messages.success(request, text)
    return redirect("cups:cup_admin", slug=slug, cup_slug=cup.slug)


# -- person links ------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerRow:
    """A club player on the links page: his live ``link`` or ``None``, the persons
    ``suggested`` for him (same name), and the form to link him."""

    player: Player
    link: Link | None
    suggested: list
    form: LinkForm | None


def _links_page(
    request: HttpRequest,
    body: Body,
    admin: bool,
    clubs: set[int],
    *,
    status: int = 200,
    bad: LinkForm | None = None,
) -> HttpResponse:
    members = Member.objects.live().filter(body=body).values("club_id")
    players = Player.objects.filter(club_id__in=members)
    if not admin:
        players = players.filter(club_id__in=clubs)
    # the players of nights counted in the body's cups, and any linked already
    played = Player.objects.filter(
        cards__tournament__cup_nights__cup__body=body,
        cards__tournament__cup_nights__removed_at__isnull=True,
    )
    linked = Link.objects.live().filter(body=body).values("player_id")
    shown = (
        (players.filter(pk__in=played.values("pk")) | players.filter(pk__in=linked))
        .distinct()
        .select_related("club")
        .order_by("name_key", "club__name", "id")
    )
    links = {
        link.player_id: link
        for link in Link.objects.live().filter(body=body).select_related("person")
    }
    everyone = access.joinable(admin, clubs, persons.persons_of(body))
    rows = []
    for player in shown:
        link = links.get(player.pk)
        form = None
        suggested: list = []
        if link is None:
            suggested = persons.suggestions(body, player)
            if not admin:
                suggested = [p for p in suggested if p in everyone]
            form = bad if bad is not None and bad.data.get("player") == str(player.pk) else None
            form = form or LinkForm(
                initial={"player": player.pk, "person": suggested[0].pk if suggested else "new"},
                players=shown,
                persons=everyone,
            )
        rows.append(PlayerRow(player, link, suggested, form))
    context = {"body": body, "admin": admin, "rows": rows, "persons": list(everyone)}
    return render(request, "cups/links.html", context, status=status)


@login_required
@require_safe
def links(request: HttpRequest, slug: str) -> HttpResponse:
    body, admin, clubs = access.linking_body(request, slug)
    return _links_page(request, body, admin, clubs)


@login_required
@require_POST
def link(request: HttpRequest, slug: str) -> HttpResponse:
    body, admin, clubs = access.linking_body(request, slug)
    allowed = Player.objects.filter(
        club_id__in=Member.objects.live().filter(body=body).values("club_id")
    )
    if not admin:
        allowed = allowed.filter(club_id__in=clubs)
    form = LinkForm(request.POST, players=allowed, persons=persons.persons_of(body))
    if form.is_valid() and not access.may_join(admin, clubs, form.cleaned_data["person"]):
        form.add_error(
            "person",
            _(
                "This person plays for another club too: a link to him needs an admin of "
                "the body, or an organiser of every club he plays for."
            ),
        )
    if form.is_valid():
        player = form.cleaned_data["player"]
        try:
            made = persons.link_player(
                body, player, form.cleaned_data["person"], actor=access.actor(request)
            )
        except RuleError as error:
            put_rule_error(form, error, shown=("person",))
        else:
            messages.success(
                request,
                _("%(player)s (%(club)s) counts as %(person)s.")
                % {"player": player.name, "club": player.club.name, "person": made.person.name},
            )
            return redirect("cups:links", slug=body.slug)
    if "player" in form.errors:
        raise Http404  # a player of another club: not shown, not said
    return _links_page(request, body, admin, clubs, bad=form, status=400)


@login_required
@require_POST
def unlink(request: HttpRequest, slug: str, link_id: int) -> HttpResponse:
    body, admin, clubs = access.linking_body(request, slug)
    found = (
        Link.objects.filter(body=body, pk=link_id).select_related("player__club", "person").first()
    )
    if found is None or not access.may_link(admin, clubs, found.player):
        raise Http404
    persons.unlink(found, actor=access.actor(request))
    messages.success(
        request,
        _("%(player)s no longer counts as %(person)s.")
        % {"player": found.player.name, "person": found.person.name},
    )
    return redirect("cups:links", slug=body.slug)


# -- the organiser's ticks on his night ----------------------------------------------------


@login_required
@require_POST
def tick(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    """The organiser's form on his night's desk: the cups it counts in."""
    club_access = access_for(request, slug, Role.ORGANISER)
    t = Tournament.objects.filter(club=club_access.club, pk=tournament_id).first()
    if t is None:
        raise Http404
    read = {whole_number(v) for v in request.POST.getlist("cup")}
    ticked = {number for number in read if number is not None}
    if len(ticked) < len(read):  # no form of this page sends anything but cup ids
        messages.error(request, _("This form is out of date: reload the page."))
        return redirect("tournament", slug=slug, tournament_id=t.pk)
    try:
        added, removed = services.set_ticks(t, ticked, actor=club_access.actor)
    except RuleError as error:
        messages.error(request, rule_error_text(error))
    else:
        if added or removed:
            messages.success(request, _("The cups of this night are saved."))
    return redirect("tournament", slug=slug, tournament_id=t.pk)
