"""A club's tables and rule sets: the club's page (its tables and Bummerl tally), opening
and importing a table, and the rule sets the club plays by."""

import dataclasses
import json
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from base.errors import RuleError
from base.htmx import partial_or_page
from base.text import TYPED_MAX, clean_name, german_key, warn_unprintable
from clubs.access import Access, access_for, club_for
from clubs.forms import put_rule_error, read_id, rule_error_text
from clubs.models import Player, Role
from clubs.players import add_player, known_player
from clubs.tables import paginate
from scoring import reading, upkeep
from scoring import rules as core
from scoring.forms import ImportForm, OpenSheetForm, RuleSetForm, TitleForm
from scoring.models import RuleSet, Sheet, Variant
from scoring.rulesets import copy_rule_set, update_rule_set
from scoring.tables import SheetTable, TallyTable
from scoring.tally import club_sheets, tally, variants_played
from scoring.transfer import import_document


def _season(request) -> int | None:
    """The year of ``?season=`` (2000 to 2100); None without one or for another value."""
    return read_id(request.GET, "season", min_value=2000, max_value=2100)


@login_required
@require_safe
def club(request, slug):
    """The club's tables and its Bummerl tally of one game at a time (``?game=``, the
    game played most in the season when none is chosen) and one season (``?season=``)."""
    access = access_for(request, slug)
    club = access.club
    season = _season(request)
    sheets = (
        upkeep.listed_sheets(club).prefetch_related("seats__player").order_by("-created_at", "-id")
    )
    sheet_table = SheetTable(sheets, prefix="t-", order_by=request.GET.get("t-sort"))
    paginate(sheet_table, request.GET.get("t-page"), 20)
    in_season = club_sheets(club, season)
    games = variants_played(in_season)
    game = request.GET.get("game", "")
    if game not in {value for value, _label, _count in games}:
        # The game this club played most in the season; at a tie, the first.
        game = max(games, key=lambda g: g[2])[0] if games else ""
    rows = [
        dataclasses.asdict(r) | {"evenings": None, "name_key": german_key(r.name)}
        for r in (tally(in_season.filter(variant=game)) if game else [])
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
            "games": games,
            "game": game,
            "can_manage": access.can_manage,
            "is_owner": access.is_owner,
            # the printout's own words: the tabs above name the games (one label, one action)
            "blank_sheets": [
                (v.value, _("Sheet for %(game)s") % {"game": v.label}) for v in Variant
            ],
        },
    )


def _owners_sheet(request, slug, pk) -> tuple[Access, Sheet]:
    """(the owner's access, the club's table ``pk``); 404 for a table of another club."""
    access = access_for(request, slug, Role.OWNER)
    sheet = Sheet.objects.filter(club=access.club, pk=pk).first()
    if sheet is None:
        raise Http404
    return access, sheet


def _manage_page(request, club, *, forms=None, status=200):
    """The owner's page of the club's tables: each listed table with its title to change
    and *Archivieren*; the archive with *Wiederherstellen*. ``forms``: a form sent with
    an error, by table id."""
    forms = forms or {}
    listed = list(
        upkeep.listed_sheets(club).prefetch_related("seats__player").order_by("-created_at", "-id")
    )
    table: dict[str, list[dict[str, Any]]] = {"listed": [], "archived": []}
    for kind, sheets in (
        ("listed", listed),
        ("archived", upkeep.archived_sheets(club).prefetch_related("seats__player")),
    ):
        for sheet in sheets:
            players = [seat.player for seat in sorted(sheet.seats.all(), key=lambda s: s.position)]
            table[kind].append(
                {
                    "sheet": sheet,
                    "name": sheet.name_with(players),
                    "form": forms.get(sheet.pk) or TitleForm(initial={"title": sheet.title}),
                }
            )
    return render(
        request,
        "scoring/manage_tables.html",
        {"club": club, "listed": table["listed"], "archived": table["archived"]},
        status=status,
    )


@login_required
@require_safe
def manage_tables(request, slug):
    """The club's tables and its archive, for its owners (others 403)."""
    return _manage_page(request, club_for(request, slug, Role.OWNER))


@login_required
@require_POST
def rename_table(request, slug, pk):
    """A table's new title (empty: its players' names); a refused title is shown on the
    table's field (400)."""
    access, sheet = _owners_sheet(request, slug, pk)
    club = access.club
    form = TitleForm(request.POST)
    if form.is_valid():
        try:
            sheet = upkeep.rename_sheet(sheet, form.cleaned_data["title"], access.actor)
        except RuleError as error:
            put_rule_error(form, error, shown=("title",))
        else:
            messages.success(request, _("The table is renamed."))
            return redirect("manage_tables", slug=club.slug)
    return _manage_page(request, club, forms={sheet.pk: form}, status=400)


@login_required
@require_POST
def archive_table(request, slug, pk):
    """Put the table in the archive (out of the club's lists)."""
    access, sheet = _owners_sheet(request, slug, pk)
    club = access.club
    if upkeep.archive_sheet(sheet, access.actor):
        messages.success(
            request,
            _("The table is in the archive: its link, its page and the rankings keep it."),
        )
    return redirect("manage_tables", slug=club.slug)


@login_required
@require_POST
def restore_table(request, slug, pk):
    """Take the table out of the archive (back in the club's lists)."""
    access, sheet = _owners_sheet(request, slug, pk)
    club = access.club
    if upkeep.restore_sheet(sheet, access.actor):
        messages.success(request, _("The table is back in the club's lists."))
    return redirect("manage_tables", slug=club.slug)


SEAT_FIELDS = ("player_1", "player_2", "player_3", "player_4")
OPEN_FIELDS = ("key", "variant", "title", *SEAT_FIELDS, "rule_set")


def _seat_new_player(request, club, data: dict) -> tuple[dict, str, str]:
    """Add the player typed as ``new_player`` on the open-table page, or take the club's
    player of that name, and put them in the first empty seat of the chosen game.

    Returns ``(data, error, notice)``: the form values with the seat filled, the
    refusal for the name field ("" when none) and the sentence that says where the
    player sits ("" when refused)."""
    typed = request.POST.get("new_player", "")
    if len(typed) > TYPED_MAX:
        return data, _("A name has at most 80 characters."), ""
    name = clean_name(typed)
    if not name:
        return data, _("Type the new player's name."), ""
    try:
        person = add_player(club, name)
    except RuleError as error:
        known = known_player(club, name)
        if known is None:
            return data, rule_error_text(error), ""
        person = known
        notice = rule_error_text(error) + " "
    else:
        warn_unprintable(request, person.name)
        notice = ""
    seats = 3
    if data.get("variant") in Variant.values:
        seats = core.Variant(data["variant"]).seats
    chosen = [str(data.get(f)) for f in SEAT_FIELDS[:seats]]
    if str(person.pk) in chosen:
        return data, "", notice + _("%(name)s sits at the table already.") % {"name": person.name}
    empty = next((i for i, value in enumerate(chosen) if not value or value == "None"), None)
    if empty is None:
        return (
            data,
            "",
            notice + _("%(name)s is ready to choose: every seat is taken.") % {"name": person.name},
        )
    data[SEAT_FIELDS[empty]] = person.pk
    return (
        data,
        "",
        notice + _("%(name)s sits in seat %(seat)s.") % {"name": person.name, "seat": empty + 1},
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def open_table(request, slug):
    """Open a table; the same form adds a player who is new to the club (``add``, or a
    name typed in ``new_player`` when the form is sent by Enter) and keeps everything
    chosen so far. htmx swaps the form (partial ``openform``)."""
    access = access_for(request, slug, Role.SCORER)
    club = access.club
    initial = {}
    for i in (1, 2, 3, 4):
        player_id = read_id(request.GET, f"p{i}")
        if player_id is not None:
            initial[f"player_{i}"] = player_id
    if request.GET.get("variant"):
        initial["variant"] = request.GET["variant"]
    rule_set_id = read_id(request.GET, "rules")
    if rule_set_id is not None:
        initial["rule_set"] = rule_set_id
    context = {"club": club, "new_player": "", "new_player_error": "", "new_player_notice": ""}
    adding = request.method == "POST" and (
        request.POST.get("add") or clean_name(request.POST.get("new_player", "")[:TYPED_MAX])
    )
    if adding:
        data = {name: request.POST.get(name, "") for name in OPEN_FIELDS}
        data, error, notice = _seat_new_player(request, club, data)
        form = OpenSheetForm(club=club, initial={k: v for k, v in data.items() if v != ""})
        context.update(new_player_error=error, new_player_notice=notice)
        if error:
            context["new_player"] = request.POST.get("new_player", "")
        status = 400 if error and not request.htmx else 200
        context["form"] = form
        return partial_or_page(request, "scoring/open_table.html", "openform", context, status)
    if request.method == "POST" and request.POST.get("switch"):
        # A game picked (htmx, on the radio's change): the form again with that game's
        # seats and rule set, nothing checked yet.
        data = {name: request.POST.get(name, "") for name in OPEN_FIELDS}
        if data["variant"] != Variant.BAUERNSCHNAPSEN:
            data["player_4"] = ""
        blank = OpenSheetForm(club=club)
        data["rule_set"] = blank.fitting_rule_set(data["variant"], data["rule_set"])
        context["form"] = OpenSheetForm(club=club, initial={k: v for k, v in data.items() if v})
        return partial_or_page(request, "scoring/open_table.html", "openform", context)
    form = OpenSheetForm(request.POST or None, club=club, initial=initial)
    if request.method == "POST" and not form.is_valid() and "rule_set" in form.errors:
        # Sent without JavaScript after picking Bauernschnapsen: the form comes back
        # with the game's own rule set chosen, beside the refusal that says why.
        fitting = form.fitting_rule_set(form.data.get("variant"), form.data.get("rule_set", ""))
        shown = request.POST.copy()
        shown["rule_set"] = fitting
        form.data = shown
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            sheet = upkeep.open_sheet(
                club,
                data["variant"],
                data["players"],
                data["rule_set"],
                title=data["title"],
                actor=access.actor,
                key=data["key"],
            )
        except RuleError as error:
            put_rule_error(form, error)
        else:
            warn_unprintable(request, sheet.title, name=False)
            return redirect("sheet:page", pk=sheet.pk)
    context["form"] = form
    return partial_or_page(request, "scoring/open_table.html", "openform", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def import_table(request, slug):
    access = access_for(request, slug, Role.SCORER)
    club = access.club
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
                sheet = import_document(
                    club,
                    document,
                    access.actor,
                    form.cleaned_data["title"],
                    form.cleaned_data["key"],
                )
            except RuleError as error:
                put_rule_error(form, error, "document")
            else:
                seated = reading.load_players(sheet)
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
                warn_unprintable(request, *(p.name for p in reading.load_players(sheet)))
                warn_unprintable(request, sheet.title, name=False)
                return redirect("sheet:page", pk=sheet.pk)
    return render(request, "scoring/import.html", {"club": club, "form": form})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def rule_sets(request, slug):
    """The presets and the club's own rule sets; copying one makes it the club's."""
    access = access_for(request, slug)
    club = access.club
    available = RuleSet.objects.filter(club__isnull=True) | RuleSet.objects.filter(club=club)
    if request.method == "POST":
        if not access.can_manage:
            raise PermissionDenied
        source_id = read_id(request.POST, "copy")
        source = available.filter(pk=source_id).first() if source_id is not None else None
        if source is None:
            raise Http404
        try:
            key = uuid.UUID(request.POST.get("key", ""))
        except ValueError:
            key = None
        try:
            copy = copy_rule_set(club, source, key, actor=access.actor)
        except RuleError as error:
            messages.error(request, rule_error_text(error))
            return redirect("rule_sets", slug=club.slug)
        return redirect("rule_set", slug=club.slug, rule_set_id=copy.pk)
    return render(
        request,
        "scoring/rule_sets.html",
        {
            "club": club,
            "rule_sets": available.order_by("club_id", "name"),
            "can_manage": access.can_manage,
            "key": uuid.uuid4(),
        },
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def rule_set(request, slug, rule_set_id):
    """Change the values, names and options of one of the club's rule sets."""
    access = access_for(request, slug, Role.ORGANISER)
    club = access.club
    item = RuleSet.objects.filter(club=club, pk=rule_set_id).first()
    if item is None:
        raise Http404
    form = RuleSetForm(request.POST or None, rules=item.rules)
    if request.method == "POST" and form.is_valid():
        try:
            update_rule_set(item, form.to_data(), actor=access.actor)
        except RuleError as error:
            put_rule_error(form, error)
        else:
            messages.success(request, _("Rule set saved. Tables opened from now on use it."))
            return redirect("rule_set", slug=club.slug, rule_set_id=item.pk)
    return render(request, "scoring/rule_set.html", {"club": club, "rule_set": item, "form": form})
