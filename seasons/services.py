"""The only writers of seasons and ranking settings. Each runs in one transaction,
locks the club row (two owners saving at once cannot make overlapping seasons), keeps
the change in the club's history and takes a one-time key: a key sent again with the
same values returns the first result, with other values it is refused."""

import datetime as dt
import uuid

from django.db import transaction

from base.errors import RuleError, gettext_noop, key_reused
from clubs import audit
from clubs.audit import Action
from clubs.models import Club
from seasons import ranking
from seasons.models import RankingSettings, Season


def _season_dict(season: Season) -> dict:
    return {
        "season": season.name,
        "first_day": season.first_day.isoformat(),
        "last_day": season.last_day.isoformat(),
    }


def save_season(
    club: Club,
    name: str,
    first_day: dt.date,
    last_day: dt.date,
    actor: audit.Actor,
    key: uuid.UUID,
    season: Season | None = None,
) -> Season:
    """Create a season (``season`` None) or change ``season``; returns it.

    Refused (RuleError): ``last_day`` before ``first_day`` (field ``last_day``); days
    shared with another season of the club (field ``first_day``, naming it); an empty
    name (``name``); a ``key`` used for something else (``key``)."""
    name = " ".join(name.split())
    if not name:
        raise RuleError("name", gettext_noop("Give the season a name."))
    if last_day < first_day:
        raise RuleError("last_day", gettext_noop("The last day comes before the first day."))
    with transaction.atomic():
        Club.objects.select_for_update(no_key=True).filter(pk=club.pk).first()
        earlier = Season.objects.filter(key=key).first()
        if earlier is not None:
            same = (earlier.club_id, earlier.name, earlier.first_day, earlier.last_day) == (
                club.pk,
                name,
                first_day,
                last_day,
            )
            if not same:
                raise key_reused()
            return earlier
        others = Season.objects.filter(club=club, first_day__lte=last_day, last_day__gte=first_day)
        if season is not None:
            others = others.exclude(pk=season.pk)
        clash = others.order_by("first_day").first()
        if clash is not None:
            raise RuleError(
                "first_day",
                gettext_noop("These days overlap “%(season)s” (%(first)s to %(last)s)."),
                season=clash.name,
                first=f"{clash.first_day:%d.%m.%Y}",
                last=f"{clash.last_day:%d.%m.%Y}",
            )
        before = None
        if season is None:
            season = Season(club=club)
        else:
            season = Season.objects.select_for_update(no_key=True).get(pk=season.pk, club=club)
            before = _season_dict(season)
        season.name, season.first_day, season.last_day, season.key = name, first_day, last_day, key
        season.save()
        audit.record(
            club.pk,
            "club",
            club.pk,
            Action.SEASON_SAVED,
            actor=actor,
            before=before,
            after=_season_dict(season),
        )
    return season


def _settings_dict(s: RankingSettings) -> dict:
    return {
        "points_key": ranking.key_text(s.key_lines),
        "participation": s.participation,
        "min_games": s.min_games,
        "pick": s.pick,
        "public": s.public,
    }


def save_settings(
    club: Club,
    *,
    points_key: list[ranking.KeyLine],
    participation: int,
    min_games: int,
    pick: str,
    public: bool,
    actor: audit.Actor,
    key: uuid.UUID,
) -> RankingSettings:
    """Store the club's ranking settings (RULES.md 7); a ``key`` sent again with the
    same values returns them, with others it is refused (``key``)."""
    with transaction.atomic():
        Club.objects.select_for_update(no_key=True).filter(pk=club.pk).first()
        current, _created = RankingSettings.objects.get_or_create(club=club)
        wanted = RankingSettings(
            club=club,
            points_key=[[k.first, k.last, k.points] for k in points_key],
            participation=participation,
            min_games=min_games,
            pick=pick,
            public=public,
        )
        if current.key == key:
            if _settings_dict(current) != _settings_dict(wanted):
                raise key_reused()
            return current
        if RankingSettings.objects.filter(key=key).exists():
            raise key_reused()
        before = _settings_dict(current)
        for name in ("points_key", "participation", "min_games", "pick", "public"):
            setattr(current, name, getattr(wanted, name))
        current.key = key
        current.save()
        audit.record(
            club.pk,
            "club",
            club.pk,
            Action.RANKING_SETTINGS_CHANGED,
            actor=actor,
            before=before,
            after=_settings_dict(current),
        )
    return current
