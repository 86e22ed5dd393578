"""Club pages: the club, its players, a player's history, opening and importing tables."""

import dataclasses
import json
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import EmptyPage, PageNotAnInteger
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from clubs.access import club_for, clubs_of
from clubs.models import Player, Role
from clubs.services import add_player
from clubs.tables import PlayerTable, SheetTable, TallyTable
from clubs.text import warn_unprintable
from scoring import services
from scoring.forms import ImportForm, OpenSheetForm, PlayerForm, RuleSetForm
from scoring.models import RuleSet, Sheet
from scoring.rules import RuleError
from scoring.tally import club_sheets, tally
from scoring.views import rule_error_text


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
    return render(request, "clubs/home.html", {"clubs": clubs})


def _season(request) -> int | None:
    value = request.GET.get("season", "")
    return int(value) if value.isdigit() and 2000 <= int(value) <= 2100 else None


@login_required
@require_GET
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
    rows = [dataclasses.asdict(r) | {"evenings": None} for r in tally(club_sheets(club, season))]
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
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def players(request, slug):
    club = club_for(request, slug)
    form = PlayerForm(request.POST or None)
    if request.method == "POST":
        club = club_for(request, slug, Role.SCORER)
        if form.is_valid():
            try:
                player = add_player(club, form.cleaned_data["name"])
            except RuleError as error:
                form.add_error("name", rule_error_text(error))
            else:
                warn_unprintable(request, player.name)
                next_url = request.POST.get("next")
                if next_url and next_url.startswith("/") and not next_url.startswith("//"):
                    return redirect(next_url)
                return redirect(f"{request.path}?added={player.pk}")
    query = request.GET.get("q", "").strip()
    found = Player.objects.filter(club=club)
    if query:
        found = found.search(query)
    table = PlayerTable(found, club=club, order_by=request.GET.get("sort"))
    paginate(table, request.GET.get("page"), 50)
    template = (
        "clubs/players.html#list"
        if request.htmx and request.method == "GET"
        else "clubs/players.html"
    )
    return render(request, template, {"club": club, "form": form, "table": table, "query": query})


@login_required
@require_GET
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
        return render(request, "clubs/_options.html", {"names": names})
    return JsonResponse({"names": names})


@login_required
@require_GET
def player(request, slug, player_id):
    club = club_for(request, slug)
    person = Player.objects.filter(club=club, pk=player_id).first()
    if person is None:
        raise Http404
    rows = tally(club_sheets(club).filter(seats__player=person))
    mine = next((r for r in rows if r.player_id == person.pk), None)
    return render(request, "clubs/player.html", {"club": club, "player": person, "tally": mine})


@login_required
@require_http_methods(["GET", "POST"])
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
        else:
            warn_unprintable(request, sheet.title, name=False)
            return redirect("sheet:page", pk=sheet.pk)
    return render(request, "clubs/open_table.html", {"club": club, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
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
                form.add_error("document", rule_error_text(error))
            else:
                added = [p.name for p in services.load_players(sheet) if p.pk not in known]
                text = _("Sheet imported.")
                if added:
                    text += " " + _("New players: %(names)s.") % {"names": ", ".join(added)}
                messages.success(request, text)
                warn_unprintable(request, *(p.name for p in services.load_players(sheet)))
                warn_unprintable(request, sheet.title, name=False)
                return redirect("sheet:page", pk=sheet.pk)
    return render(request, "clubs/import.html", {"club": club, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
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
        copy = services.copy_rule_set(club, source, key)
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
@require_http_methods(["GET", "POST"])
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
