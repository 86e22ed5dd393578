"""`manage.py backup --club SLUG`: one club's rows and the accounts and presets they
need, nothing of another club or of an organising body; the file restores into an empty
server as a whole database of that club (base.club_backups)."""

import io
import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from base.backups import backed_up_models, iter_objects
from base.club_backups import club_paths
from clubs.models import Club
from scoring import services as scoring_services
from scoring.models import RuleSet, Sheet
from tests import factories
from tests.base.test_backup import canonical, populate, read
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("folder")]
User = get_user_model()

# Every backed-up model that belongs to a club, and its way to the club.
CLUB_PATHS = {
    "clubs.club": "pk",
    "clubs.category": "club",
    "clubs.player": "club",
    "clubs.membership": "club",
    "clubs.invitation": "club",
    "clubs.auditentry": "club",
    "clubs.archived": "club",
    "scoring.ruleset": "club",
    "scoring.sheet": "club",
    "scoring.seat": "sheet__club",
    "scoring.deal": "sheet__club",
    "tournaments.tournament": "club",
    "tournaments.card": "tournament__club",
    "tournaments.round": "tournament__club",
    "tournaments.pull": "player__club",
    "tournaments.pairing": "tournament__club",
    "tournaments.result": "pairing__tournament__club",
    "tournaments.report": "pairing__tournament__club",
    "tournaments.tiebreak": "tournament__club",
    "tournaments.registration": "tournament__club",
    "seasons.season": "club",
    "seasons.rankingsettings": "club",
    "ratings.ratedgame": "club",
    "ratings.ratingchange": "game__club",
    "ratings.rating": "club",
}
# The rest: the server's accounts, and what an organising body owns.
SERVER_WIDE = {
    "auth.group",
    "auth.user",
    "cups.body",
    "cups.member",
    "cups.cup",
    "cups.night",
    "cups.person",
    "cups.link",
    "cups.admininvitation",
}


def test_which_models_belong_to_a_club_is_read_from_the_model_graph():
    found = {m._meta.label_lower: path for m, path in club_paths(Club).items()}
    assert found == CLUB_PATHS
    # A new model is either a club's or named here as the server's.
    assert {m._meta.label_lower for m in backed_up_models()} == set(CLUB_PATHS) | SERVER_WIDE


def club_backup(slug: str, path: Path) -> Path:
    out = io.StringIO()
    call_command("backup", "--club", slug, str(path), stdout=out)
    assert out.getvalue().startswith(f"Backup written to {path} (")
    return path


def test_a_club_file_holds_the_club_and_what_it_needs_and_nothing_of_others(tmp_path):
    club = populate()  # a row of every model, a body with a cup counting the night
    other = factories.club(name="Kartenrunde Steyr")
    stranger = factories.user(other, role="owner", username="sepp")
    scoring_services.record_entry(
        factories.sheet(other),
        scoring_services.core.Redeal(),
        factories.key(),
        scoring_services.Actor(stranger),
    )
    document = read(club_backup(club.slug, tmp_path / "club.json.gz"))
    assert document["club"] == club.slug
    objects = document["objects"]
    # Exactly the club's rows of the whole backup, the accounts it names and the presets.
    whole = {canonical(o): o for o in iter_objects()}
    club_ids = {label: set() for label in CLUB_PATHS}
    for label, path in CLUB_PATHS.items():
        model = next(m for m in backed_up_models() if m._meta.label_lower == label)
        club_ids[label] = set(
            model._base_manager.filter(**{path: club.pk}).values_list("pk", flat=True)
        )
    # The presets its tables, nights and own rule sets name.
    named = {
        *Sheet.objects.filter(club=club).values_list("rule_set", flat=True),
        *Tournament.objects.filter(club=club).values_list("rule_set", flat=True),
        *RuleSet.objects.filter(club=club).values_list("copied_from", flat=True),
    }
    presets = set(RuleSet.objects.filter(club=None, pk__in=named).values_list("pk", flat=True))
    assert presets
    expected = sorted(
        key
        for key, o in whole.items()
        if (o["model"] in CLUB_PATHS and o["pk"] in club_ids[o["model"]])
        or (o["model"] == "scoring.ruleset" and o["pk"] in presets)
        or (o["model"] == "auth.user" and o["fields"]["username"] == "olga")
        or o["model"] == "auth.group"
    )
    got = sorted(canonical(o) for o in objects)
    assert got == expected
    assert not {o["model"] for o in objects} & (SERVER_WIDE - {"auth.user", "auth.group"})
    assert "sepp" not in json.dumps(objects, ensure_ascii=False)
    assert "Kartenrunde Steyr" not in json.dumps(objects, ensure_ascii=False)


def test_a_club_file_restores_into_an_empty_server_as_that_club_alone(tmp_path):
    club = populate()
    factories.club(name="Kartenrunde Steyr")
    path = club_backup(club.slug, tmp_path / "club.json.gz")
    written = sorted(canonical(o) for o in read(path)["objects"])
    call_command("restore", str(path), stdout=io.StringIO())
    assert sorted(canonical(o) for o in iter_objects()) == written
    assert list(Club.objects.values_list("slug", flat=True)) == [club.slug]
    assert list(User.objects.values_list("username", flat=True)) == ["olga"]


def test_a_club_backup_of_an_unknown_club_is_refused_and_writes_nothing(tmp_path):
    populate()
    with pytest.raises(CommandError, match="Backup refused: there is no club 'keiner'"):
        call_command("backup", "--club", "keiner", str(tmp_path / "x.json.gz"))
    assert not (tmp_path / "x.json.gz").exists()
