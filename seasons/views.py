"""Season pages: the club's seasons and ranking settings (owners change them), a
season's ranking and the all-time ranking (*Ewige Rangliste*), with their export
(CSV/ODS/XLSX) and printout.

Who sees what (``ranking_access``): the club's members see everything; when the owner
made the ranking pages public, anyone sees the rankings and the list of seasons, with
no link further into the club (player pages stay for members).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from base.errors import RuleError
from base.printing import pdf_response
from base.spreadsheets import TableExport
from base.text import with_kind
from clubs.access import access_for
from clubs.forms import put_rule_error
from clubs.models import Role
from clubs.tables import paginate
from seasons import ranking
from seasons.access import ranking_access
from seasons.forms import SeasonForm, SettingsForm
from seasons.models import RankingSettings, Season
from seasons.services import save_season, save_settings
from seasons.standings import settings_of, standings
from seasons.tables import GameTable, PointsTable

PER_PAGE = 50
EXPORT_FORMATS = ("csv", "ods", "xlsx")


def _season_of(club, season_id) -> Season | None:
    if season_id is None:
        return None
    season = Season.objects.filter(club=club, pk=season_id).first()
    if season is None:
        raise Http404
    return season


def _settings_form(settings: RankingSettings, data=None) -> SettingsForm:
    return SettingsForm(
        data,
        initial={
            "pick": settings.pick,
            "min_games": settings.min_games,
            "points_key": ranking.key_text(settings.key_lines),
            "participation": settings.participation,
            "public": settings.public,
        },
    )


def _index_page(request, club, access, season_form=None, settings_form=None, status=200):
    settings = settings_of(club)
    owner = access is not None and access.is_owner
    context = {
        "club": club,
        "member": access is not None,
        "is_owner": owner,
        "seasons": Season.objects.filter(club=club),
        "settings": settings,
    }
    if owner:
        context["season_form"] = season_form or SeasonForm()
        context["settings_form"] = settings_form or _settings_form(settings)
    return render(request, "seasons/index.html", context, status=status)


@require_safe
def index(request, slug):
    found = ranking_access(request, slug)
    if found is None:
        return redirect_to_login(request.get_full_path())
    return _index_page(request, *found)


@login_required
@require_POST
def season_save(request, slug, season_id=None):
    """An owner creates a season, or changes one (``season_id``)."""
    access = access_for(request, slug, Role.OWNER)
    club = access.club
    season = _season_of(club, season_id)
    form = SeasonForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            saved = save_season(
                club,
                data["name"],
                data["first_day"],
                data["last_day"],
                access.actor,
                data["key"],
                season,
            )
        except RuleError as error:
            put_rule_error(form, error, shown=("name", "first_day", "last_day"))
        else:
            said = with_kind(_("Season"), saved.name)  # "Saison 2026", never "Saison Saison"
            messages.success(request, _("%(season)s saved.") % {"season": said})
            return redirect("seasons:index", slug=club.slug)
    return _index_page(request, club, access, season_form=form, status=400)


@login_required
@require_POST
def settings_save(request, slug):
    access = access_for(request, slug, Role.OWNER)
    club = access.club
    form = SettingsForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            save_settings(
                club,
                points_key=data["points_key"],
                participation=data["participation"],
                min_games=data["min_games"],
                pick=data["pick"],
                public=data["public"],
                actor=access.actor,
                key=data["key"],
            )
        except RuleError as error:
            put_rule_error(form, error)
        else:
            messages.success(request, _("Ranking settings saved."))
            return redirect("seasons:index", slug=club.slug)
    return _index_page(request, club, access, settings_form=form, status=400)


def ranking_tables(club, season: Season | None, settings, *, link_players: bool):
    """Every table the club keeps for ``season`` (None: all seasons), ranked: a list of
    ``(code, label, table)``, code ``"points"`` or the game's variant."""
    first, last = (season.first_day, season.last_day) if season else (None, None)
    found = standings(club, first, last, settings, with_points=settings.shows_points)
    result = []
    if settings.shows_per_game:
        for game in found.games:
            rows = ranking.by_bummerl_per_game(game.rows, settings.min_games)
            table = GameTable(rows, club=club, link_players=link_players)
            result.append((game.variant, game.label, table))
    if settings.shows_points:
        table = PointsTable(ranking.by_points(found.points), club=club, link_players=link_players)
        result.append(("points", _("Tournament points"), table))
    return result


@require_safe
def season_ranking(request, slug, season_id=None):
    """A season's ranking (``season_id`` None: all seasons), one table at a time
    (``?table=`` a game's variant or ``points``), paginated; ``?_export=csv|ods|xlsx``
    gives the whole table as a file, in the same order."""
    found = ranking_access(request, slug)
    if found is None:
        return redirect_to_login(request.get_full_path())
    club, access = found
    season = _season_of(club, season_id)
    settings = settings_of(club)
    tables = ranking_tables(club, season, settings, link_players=access is not None)
    chosen = request.GET.get("table")
    current = next((t for t in tables if t[0] == chosen), tables[0] if tables else None)
    export = request.GET.get("_export")
    name = season.name if season else _("All-time ranking")
    if current is not None and export in EXPORT_FORMATS:
        exporter = TableExport(export, current[2], dataset_kwargs={"title": str(current[1])[:31]})
        return exporter.response(f"{_file_stem(club, season)}-{current[0]}.{export}")
    if current is not None:
        paginate(current[2], request.GET.get("page"), PER_PAGE)
    return render(
        request,
        "seasons/ranking.html",
        {
            "club": club,
            "member": access is not None,
            "season": season,
            "name": name,
            "settings": settings,
            "tables": tables,
            "current": current,
            "export_formats": EXPORT_FORMATS,
        },
    )


def _file_stem(club, season) -> str:
    return f"rangliste-{club.slug}-{season.pk if season else 'ewig'}"


@require_safe
def season_print(request, slug, season_id=None):
    """The ranking as PDF (A4): every table the club keeps, with the club's name and
    the points key."""
    found = ranking_access(request, slug)
    if found is None:
        return redirect_to_login(request.get_full_path())
    club = found[0]
    season = _season_of(club, season_id)
    settings = settings_of(club)
    context = {
        "club": club,
        "season": season,
        "name": season.name if season else _("All-time ranking"),
        "settings": settings,
        "key": settings.key_lines,
        "tables": ranking_tables(club, season, settings, link_players=False),
    }
    return pdf_response(request, "print/season.html", context, f"{_file_stem(club, season)}.pdf")
