"""Club pages: the club, its players, a player's history, opening and importing tables."""

import dataclasses
import json
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import EmptyPage, PageNotAnInteger
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from bummerl.htmx import partial_or_page, vary_on_htmx
from clubs import audit
from clubs.access import club_for, clubs_of
from clubs.models import AuditEntry, Player, Role
from clubs.services import add_player, known_player, merge_plan, merge_players, rename_player
from clubs.tables import PlayerTable, SheetTable, TallyTable
from clubs.text import clean_name, german_key, warn_unprintable
from scoring import services
from scoring.forms import ImportForm, OpenSheetForm, PlayerForm, RuleSetForm
from scoring.models import RuleSet, Sheet
from scoring.rules import RuleError
from scoring.tally import club_sheets, tally
from scoring.views import renew_key, rule_error_text


def paginate(table, page: str | None, per_page: int) -> None:
    """Page ``page`` of the table; the first page for a page that is not there."""
    try:
        table.paginate(page=int(page or 1), per_page=per_page)
    except (ValueError, EmptyPage, PageNotAnInteger):
        table.paginate(page=1, per_page=per_page)


def home(request):
    if not request.user.is_authenticated:
        return render(request, "clubs/welcome.html")
    clubs = list(clubs_of(request.user))
    if len(clubs) == 1:
        return redirect("club", slug=clubs[0].slug)
    for each in clubs:
        each.role_label = Role(each.role).label
    return render(request, "clubs/home.html", {"clubs": clubs})


def _season(request) -> int | None:
    value = request.GET.get("season", "")
    return int(value) if value.isdigit() and 2000 <= int(value) <= 2100 else None


@login_required
@require_safe
def club(request, slug):
    club = club_for(request, slug)
    season = _season(request)
    sheets = (
        Sheet.objects.filter(club=club)
        .prefetch_related("seats__player")
        .order_by("-created_at", "-id")
    )
    sheet_table = SheetTable(sheets, prefix="t-", order_by=request.GET.get("t-sort"))
    paginate(sheet_table, request.GET.get("t-page"), 20)
    rows = [
        dataclasses.asdict(r) | {"evenings": None, "name_key": german_key(r.name)}
        for r in tally(club_sheets(club, season))
    ]
    tally_table = TallyTable(rows, club=club, prefix="b-", order_by=request.GET.get("b-sort"))
    years = sorted({d.year for d in Sheet.objects.filter(club=club).dates("created_at", "year")})
    return render(
        request,
        "clubs/club.html",
        {
            "club": club,
            "sheet_table": sheet_table,
            "tally_table": tally_table,
            "season": season,
            "years": years,
            "can_manage": club.role in (Role.OWNER, Role.ORGANISER),
            "is_owner": club.role == Role.OWNER,
        },
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def players(request, slug):
    club = club_for(request, slug)
    form = PlayerForm(request.POST or None)
    existing = None
    if request.method == "POST":
        club = club_for(request, slug, Role.SCORER)
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
                form.add_error("name", rule_error_text(error))
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
    request, club, person, rename_form=None, merge_error=None, merge_name="", status=200
):
    rows = tally(club_sheets(club).filter(seats__player=person))
    mine = next((r for r in rows if r.player_id == person.pk), None)
    can_manage = club.role in (Role.OWNER, Role.ORGANISER)
    return render(
        request,
        "clubs/player.html",
        {
            "club": club,
            "player": person,
            "tally": mine,
            "can_manage": can_manage,
            "rename_form": rename_form or PlayerForm(initial={"name": person.name}),
            "merge_error": merge_error,
            "merge_name": merge_name,
        },
        status=status,
    )


@login_required
@require_safe
def player(request, slug, player_id):
    club = club_for(request, slug)
    return _player_page(request, club, _player_of(club, player_id))


@login_required
@require_POST
def rename(request, slug, player_id):
    """An organiser renames a player (a change of case too); a name of another player
    is refused: those two are merged instead."""
    club = club_for(request, slug, Role.ORGANISER)
    person = _player_of(club, player_id)
    form = PlayerForm(request.POST)
    if form.is_valid():
        old = person.name
        try:
            person = rename_player(person, form.cleaned_data["name"], services.Actor(request.user))
        except RuleError as error:
            form.add_error("name", rule_error_text(error))
        else:
            if person.name != old:
                messages.success(
                    request,
                    _("%(old)s is now called %(name)s.") % {"old": old, "name": person.name},
                )
            return redirect("player", slug=club.slug, player_id=person.pk)
    return _player_page(request, club, person, rename_form=form, status=400)


@login_required
@require_safe
def club_history(request, slug):
    """The club's history (organisers): renamed and merged players; owners also see who
    founded the club, invited, joined, changed roles and was removed."""
    club = club_for(request, slug, Role.ORGANISER)
    entries = audit.history("club", club.pk).filter(club=club)
    if club.role != Role.OWNER:
        entries = entries.exclude(action__in=MEMBERSHIP_ACTIONS)
    back = reverse("players", kwargs={"slug": club.slug})
    rows = audit.history_rows(entries[:2000])
    return render(request, "audit.html", {"title": club.name, "rows": rows, "back": back})


MEMBERSHIP_ACTIONS = (
    "club created",
    "invitation created",
    "invitation revoked",
    "invitation accepted",
    "role changed",
    "member removed",
    "reset link issued",
)
"""History entries of who belongs to the club: for its owners' eyes."""


MOVED = {
    "seat": gettext_lazy("Seats at tables (with their results and tallies)"),
    "card": gettext_lazy("Tournament cards"),
    "pull": gettext_lazy("Pulls from the pots"),
}
"""What a merge moves, by the model name of the rows (clubs.services.MergePlan)."""


def _merged_into(club, gone_id: int) -> str | None:
    """The message for a merge sent again: which player ``gone_id`` became, if merged."""
    entry = (
        AuditEntry.objects.filter(
            club=club, scope="club", scope_id=club.pk, action="players merged"
        )
        .filter(before__merged_id=gone_id)
        .first()
    )
    if entry is None:
        return None
    return _("%(gone)s is merged into %(name)s already.") % {
        "gone": entry.before.get("merged", ""),
        "name": entry.before.get("name", ""),
    }


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def merge(request, slug, player_id):
    """Merge another player into this one: the page names the other player (typed, in
    any case) and shows what moves; the organiser confirms with a POST."""
    club = club_for(request, slug, Role.ORGANISER)
    keep = _player_of(club, player_id)
    source = request.POST if request.method == "POST" else request.GET
    other_id = source.get("other", "")
    gone = None
    if other_id.isdigit():
        gone = Player.objects.filter(club=club, pk=int(other_id)).first()
        if gone is None:
            done = _merged_into(club, int(other_id))
            if done:
                messages.info(request, done)
                return redirect("player", slug=club.slug, player_id=keep.pk)
    elif clean_name(source.get("name", "")):
        gone = known_player(club, source["name"])
        if gone is None:
            error = _("No player of this club is called %(name)s.") % {
                "name": clean_name(source["name"])
            }
            return _player_page(
                request, club, keep, merge_error=error, merge_name=source["name"], status=400
            )
    if gone is None:
        return _player_page(
            request, club, keep, merge_error=_("Name the other player."), status=400
        )
    plan = merge_plan(keep, gone)
    if request.method == "POST" and plan.clash is None:
        try:
            merge_players(keep, gone, services.Actor(request.user))
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


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def open_table(request, slug):
    club = club_for(request, slug, Role.SCORER)
    initial = {}
    for i in (1, 2, 3):
        value = request.GET.get(f"p{i}", "")
        if value.isdigit():
            initial[f"player_{i}"] = int(value)
    if request.GET.get("variant"):
        initial["variant"] = request.GET["variant"]
    if request.GET.get("rules", "").isdigit():
        initial["rule_set"] = int(request.GET["rules"])
    form = OpenSheetForm(request.POST or None, club=club, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            sheet = services.open_sheet(
                club,
                data["variant"],
                data["players"],
                data["rule_set"],
                title=data["title"],
                actor=services.Actor(request.user),
                key=data["key"],
            )
        except RuleError as error:
            form.add_error(None, rule_error_text(error))
            renew_key(form, error)
        else:
            warn_unprintable(request, sheet.title, name=False)
            return redirect("sheet:page", pk=sheet.pk)
    return render(request, "clubs/open_table.html", {"club": club, "form": form})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def import_table(request, slug):
    club = club_for(request, slug, Role.SCORER)
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            document = json.loads(form.cleaned_data["text"])
        except json.JSONDecodeError as error:
            form.add_error(
                "document",
                _("Not JSON: line %(line)s, column %(col)s.")
                % {"line": error.lineno, "col": error.colno},
            )
        except (ValueError, RecursionError):
            form.add_error("document", _("This JSON cannot be read as a sheet."))
        else:
            known = set(Player.objects.filter(club=club).values_list("pk", flat=True))
            try:
                sheet = services.import_document(
                    club,
                    document,
                    services.Actor(request.user),
                    form.cleaned_data["title"],
                    form.cleaned_data["key"],
                )
            except RuleError as error:
                field = None if error.field == "key" else "document"
                form.add_error(field, rule_error_text(error))
                renew_key(form, error)
            else:
                seated = services.load_players(sheet)
                added = [p.name for p in seated if p.pk not in known]
                typed = [clean_name(n) for n in document["players"]]
                respelled = [
                    _("%(typed)s is %(name)s") % {"typed": t, "name": p.name}
                    for t, p in zip(typed, seated, strict=False)
                    if p.pk in known and t != p.name
                ]
                text = _("Sheet imported.")
                if added:
                    text += " " + _("New players: %(names)s.") % {"names": ", ".join(added)}
                if respelled:
                    text += " " + _("Known players in another spelling: %(names)s.") % {
                        "names": "; ".join(respelled)
                    }
                messages.success(request, text)
                warn_unprintable(request, *(p.name for p in services.load_players(sheet)))
                warn_unprintable(request, sheet.title, name=False)
                return redirect("sheet:page", pk=sheet.pk)
    return render(request, "clubs/import.html", {"club": club, "form": form})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def rule_sets(request, slug):
    """The presets and the club's own rule sets; copying one makes it the club's."""
    club = club_for(request, slug)
    available = RuleSet.objects.filter(club__isnull=True) | RuleSet.objects.filter(club=club)
    if request.method == "POST":
        club = club_for(request, slug, Role.ORGANISER)
        source_id = request.POST.get("copy", "")
        source = available.filter(pk=source_id).first() if source_id.isdigit() else None
        if source is None:
            raise Http404
        try:
            key = uuid.UUID(request.POST.get("key", ""))
        except ValueError:
            key = None
        try:
            copy = services.copy_rule_set(club, source, key)
        except RuleError as error:
            messages.error(request, rule_error_text(error))
            return redirect("rule_sets", slug=club.slug)
        return redirect("rule_set", slug=club.slug, rule_set_id=copy.pk)
    return render(
        request,
        "clubs/rule_sets.html",
        {
            "club": club,
            "rule_sets": available.order_by("club_id", "name"),
            "can_manage": club.role in (Role.OWNER, Role.ORGANISER),
            "key": uuid.uuid4(),
        },
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def rule_set(request, slug, rule_set_id):
    """Change the values, names and options of one of the club's rule sets."""
    club = club_for(request, slug, Role.ORGANISER)
    item = RuleSet.objects.filter(club=club, pk=rule_set_id).first()
    if item is None:
        raise Http404
    form = RuleSetForm(request.POST or None, rules=item.rules)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_rule_set(item, form.to_data())
        except RuleError as error:
            form.add_error(None, rule_error_text(error))
        else:
            messages.success(request, _("Rule set saved. Tables opened from now on use it."))
            return redirect("rule_set", slug=club.slug, rule_set_id=item.pk)
    return render(request, "clubs/rule_set.html", {"club": club, "rule_set": item, "form": form})
