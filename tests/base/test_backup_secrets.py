"""What a backup file must not hand its holder: the password hashes of accounts that are
not the club's alone (a club file), and the next digital draws' secret seeds (both kinds
of file, RULES.md 5.12). The seeds of drawn rounds stay: the audit replays them."""

import gzip
import io
import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import is_password_usable
from django.core.management import call_command

from base.backup_rows import left_out
from base.backups import backed_up_models
from clubs.models import Membership
from scoring import services as scoring_services
from scoring.rules import Redeal
from tests import factories
from tournaments.models import Round, Tournament
from tournaments.services.draws import pending_commitment
from tournaments.services.reading import load_state
from tournaments.simulation import simulate

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("folder")]
User = get_user_model()


def read(path: Path) -> dict:
    with gzip.open(path, "rt", encoding="utf-8") as stream:
        return json.load(stream)


def text_of(path: Path) -> str:
    with gzip.open(path, "rt", encoding="utf-8") as stream:
        return stream.read()


def backup(path: Path, *options: str) -> dict:
    call_command("backup", *options, str(path), stdout=io.StringIO())
    return read(path)


def accounts(document: dict) -> dict[str, dict]:
    return {
        o["fields"]["username"]: o["fields"]
        for o in document["objects"]
        if o["model"] == "auth.user"
    }


def test_a_club_file_keeps_the_password_hashes_of_the_clubs_own_accounts_only(tmp_path):
    club = factories.club()
    olga = factories.user(club, role="owner", username="olga")
    olga.set_password("olgas-passwort")
    olga.save()
    hans = factories.user(club, role="member", username="hans")  # in another club too
    Membership.objects.create(user=hans, club=factories.club(name="Nachbarn"), role="member")
    root = User.objects.create_superuser("root", "root@example.org", "roots-passwort")
    staff = factories.user(club, role="member", username="stefan")
    User.objects.filter(pk=staff.pk).update(is_staff=True)
    # the superuser is pulled in as the actor of a deal's history
    sheet = factories.sheet(club)
    scoring_services.record_entry(sheet, Redeal(), factories.key(), scoring_services.Actor(root))
    path = tmp_path / "club.json.gz"
    found = accounts(backup(path, "--club", club.slug))
    assert set(found) == {"olga", "hans", "root", "stefan"}
    assert found["olga"]["password"] == User.objects.get(username="olga").password
    text = text_of(path)
    for name in ("hans", "root", "stefan"):
        fields = found[name]
        assert not is_password_usable(fields["password"]), name
        assert User.objects.get(username=name).password not in text
        assert (fields["is_superuser"], fields["is_staff"], fields["email"]) == (False, False, "")
    assert "root@example.org" not in text
    # restored on a server of its own: the club's owner signs in, nobody else can
    call_command("restore", str(path), stdout=io.StringIO())
    assert User.objects.get(username="olga").check_password("olgas-passwort")
    assert not User.objects.get(username="root").has_usable_password()
    assert not User.objects.get(username="root").is_superuser
    assert not User.objects.get(username="hans").has_usable_password()


def test_a_whole_backup_keeps_every_accounts_hash(tmp_path):
    club = factories.club()
    factories.user(club, role="owner", username="olga")
    User.objects.create_superuser("root", "root@example.org", "roots-passwort")
    found = accounts(backup(tmp_path / "all.json.gz"))
    for name in ("olga", "root"):
        assert found[name]["password"] == User.objects.get(username=name).password


@pytest.mark.parametrize("kind", ["whole", "club"])
def test_no_unused_draw_seed_is_in_a_backup_and_a_restore_makes_new_ones(tmp_path, kind):
    club = factories.club()
    played = simulate(club, cards=8, players=6, max_cards=2, seed=1)  # every round drawn
    pending = factories.tournament(club, cards=8, sold=8)  # round 1 not yet drawn
    committed = pending_commitment(load_state(pending))
    assert committed is not None
    secrets = {t.pk: (t.draw_seed, t.draw_nonce) for t in Tournament.objects.filter(club=club)}
    drawn = {r.pk: (r.seed, r.nonce, r.commitment) for r in Round.objects.filter(tournament=played)}
    assert drawn and all(seed is not None for seed, _, _ in drawn.values())
    path = tmp_path / f"{kind}.json.gz"
    document = backup(path, *(["--club", club.slug] if kind == "club" else []))
    text = text_of(path)
    nights = [o for o in document["objects"] if o["model"] == "tournaments.tournament"]
    assert {o["pk"] for o in nights} == set(secrets)
    for o in nights:
        assert "draw_seed" not in o["fields"] and "draw_nonce" not in o["fields"]
    for seed, nonce in secrets.values():
        assert nonce not in text
        assert f": {seed}," not in text and f": {seed}}}" not in text
    # the drawn rounds keep their seeds, nonces and commitments, for the audit
    rounds = {
        o["pk"]: o["fields"] for o in document["objects"] if o["model"] == "tournaments.round"
    }
    for pk, (seed, nonce, commitment) in drawn.items():
        assert (rounds[pk]["seed"], rounds[pk]["nonce"], rounds[pk]["commitment"]) == (
            seed,
            nonce,
            commitment,
        )
    call_command("restore", str(path), stdout=io.StringIO())
    for t in Tournament.objects.filter(pk__in=secrets):
        assert t.draw_seed != secrets[t.pk][0] and t.draw_nonce != secrets[t.pk][1]
    again = pending_commitment(load_state(Tournament.objects.get(pk=pending.pk)))
    assert again is not None and again[0] == committed[0]
    assert again[1] != committed[1]  # a new commitment for the same round
    assert {
        r.pk: (r.seed, r.nonce, r.commitment) for r in Round.objects.filter(tournament=played)
    } == drawn


def test_every_field_left_out_of_a_backup_is_made_anew_by_its_default():
    leaving = {m._meta.label_lower: left_out(m) for m in backed_up_models() if left_out(m)}
    assert leaving == {"tournaments.tournament": ("draw_seed", "draw_nonce")}
    for model in backed_up_models():
        for name in left_out(model):
            assert model._meta.get_field(name).has_default(), (model, name)
