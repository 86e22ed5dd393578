"""``make upgrade`` (``python3 -m bummerl.upgrade``): a club's server from the release that
wrote its data to the code checked out, in one command (README "Upgrading").

Standard library only, since it starts before the new release's packages are installed:
it reads the settings from the environment and from ``ENV_FILE`` (default
``/etc/bummerl.env``, where readable; the environment wins), finds the release whose
migrations the database holds (``bummerl.releases``, asked through the virtualenv's own
Python), and refuses, having changed nothing, where it cannot go on. Then a backup made
by that release's own code (its commit, unpacked in a temporary folder, run with the
virtualenv as it is) into ``backups/``, the packages (``make install``), the migrations,
the steps the release needs (``bummerl.releases.STEPS``), the presets and the worker's
schedule (``seed --no-demo``), the static files, and the restart of the site's systemd
units. Run as root, every step but the restart runs as the project folder's owner."""

from __future__ import annotations

import argparse
import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bummerl.releases import (
    PACKAGE_APPS,
    RELEASES,
    ROOT,
    STEPS,
    Release,
    code_migrations,
    code_version,
    last_migrations,
)

UNITS = ("bummerl", "bummerl-worker", "bummerl-push")

APPLIED = """
import json, os, sys
url = os.environ.get("DATABASE_URL", "")
path = os.environ.get("SQLITE_PATH", "")
if not url and not os.path.exists(path):
    print("null")
    sys.exit(0)
import django
from django.conf import settings
if url:
    import dj_database_url
    database = dj_database_url.parse(url)
else:
    database = {"ENGINE": "django.db.backends.sqlite3", "NAME": path}
settings.configure(DATABASES={"default": database})
django.setup()
from django.db import connection
if "django_migrations" not in connection.introspection.table_names():
    print("null")
    sys.exit(0)
with connection.cursor() as cursor:
    cursor.execute("SELECT app, name FROM django_migrations")
    print(json.dumps(cursor.fetchall()))
"""
"""Run by the virtualenv's Python: the applied migrations as [[app, name], …], or null
for a database without any. Django's settings of no release, only its database."""


class Refused(Exception):
    """The upgrade cannot go on; nothing was changed."""


class Stopped(Exception):
    """A step failed after the backup."""


def read_env_file(path: Path) -> dict[str, str]:
    """``KEY=value`` lines as systemd's EnvironmentFile reads them (comments, quotes)."""
    values: dict[str, str] = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line[0] in "#;" or "=" not in line:
            continue
        key, value = line.split("=", 1)
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        values[key] = value
    return values


def settings_env(root: Path, env_file: Path) -> dict[str, str]:
    """The environment every step runs with: the site's settings as its units have them,
    the laptop's secret key (``.secret_key``) and its SQLite file named outright, since
    the release's code runs from another folder."""
    env = dict(os.environ)
    if os.access(env_file, os.R_OK) and env_file.is_file():
        for key, value in read_env_file(env_file).items():
            env.setdefault(key, value)
    key_file = root / ".secret_key"
    if not env.get("DJANGO_SECRET_KEY") and key_file.is_file():
        env["DJANGO_SECRET_KEY"] = key_file.read_text().strip()
    if not env.get("DATABASE_URL") and not env.get("SQLITE_PATH"):
        env["SQLITE_PATH"] = str(root / "db.sqlite3")
    return env


class Upgrade:
    def __init__(self, root: Path, venv: str, python: str, env_file: Path):
        self.root = root
        self.venv = root / venv
        self.venv_name = venv
        self.python_name = python
        self.env = settings_env(root, env_file)
        owner = pwd.getpwuid(root.stat().st_uid).pw_name
        self.root_user = os.geteuid() == 0
        self.owner = owner if self.root_user and root.stat().st_uid != 0 else None
        self.installed = False

    # -- running things -------------------------------------------------------------

    def command(self, args: Sequence[str]) -> list[str]:
        return ["runuser", "-u", self.owner, "--", *args] if self.owner else list(args)

    def run(self, args: Sequence[str], cwd: Path | None = None) -> None:
        print("  " + " ".join(args), flush=True)
        done = subprocess.run(self.command(args), cwd=cwd or self.root, env=self.env)
        if done.returncode != 0:
            raise Stopped(" ".join(args))

    def output(self, args: Sequence[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            self.command(args), cwd=cwd or self.root, env=self.env, capture_output=True, text=True
        )

    def git(self, *args: str) -> subprocess.CompletedProcess:
        return self.output(["git", *args])

    def manage(self, *args: str, code: Path | None = None) -> None:
        self.run([str(self.venv / "bin" / "python"), "manage.py", *args], cwd=code)

    # -- what the data is -------------------------------------------------------------

    def applied(self) -> dict[str, set[str]] | None:
        python = self.venv / "bin" / "python"
        if not python.exists():
            raise Refused(
                f"there is no virtualenv {self.venv_name}/ in {self.root}: this is no installed "
                "site (a first installation: README Deployment)"
            )
        with tempfile.TemporaryDirectory() as empty:
            os.chmod(empty, 0o755)
            done = self.output([str(python), "-c", APPLIED], cwd=Path(empty))
        if done.returncode != 0:
            lines = (done.stderr or done.stdout).strip().splitlines() or ["no answer"]
            raise Refused(f"the database could not be read: {lines[-1]}")
        rows = json.loads(done.stdout)
        if rows is None:
            return None
        applied: dict[str, set[str]] = {}
        for app, name in rows:
            applied.setdefault(app, set()).add(name)
        return applied

    def release_of(self, applied: dict[str, set[str]]) -> Release | None:
        """The release that wrote the data; None when it is at this code's migrations."""
        code = code_migrations(self.root)
        ours = set(code) | {app for release in RELEASES for app in release.migrations}
        newer = sorted(
            f"{app}.{name}"
            for app, names in applied.items()
            for name in names
            if (app in ours and name not in code.get(app, ())) or app not in ours | PACKAGE_APPS
        )
        if newer:
            raise Refused(
                "the database was written by a newer release than this code (migrations it "
                f"does not know: {', '.join(newer[:5])}); a downgrade is not possible. Check out "
                "the release that wrote it again (git checkout vX.Y.Z), or restore a backup of "
                "this release"
            )
        last = last_migrations({app: applied.get(app, set()) for app in ours})
        if last == last_migrations(code):
            return None
        for release in RELEASES:
            if release.migrations == last:
                return release
        shown = ", ".join(f"{app} {name}" for app, name in sorted(last.items()))
        raise Refused(
            f"the database's migrations ({shown}) are those of no release and not of this "
            "code: an upgrade stopped half-way, or migrations were run by hand. Finish them by "
            f"hand ({self.venv_name}/bin/python manage.py migrate, and the steps CHANGELOG.md "
            "names) and run make upgrade again"
        )

    # -- the upgrade ----------------------------------------------------------------

    def check_checkout(self) -> None:
        status = self.git("status", "--porcelain", "--untracked-files=no")
        if status.returncode != 0:
            raise Refused(f"{self.root} is no git checkout: {status.stderr.strip()}")
        if status.stdout.strip():
            changed = ", ".join(line[3:] for line in status.stdout.splitlines()[:5])
            raise Refused(
                f"the checkout has local changes the upgrade would run over ({changed}); "
                "commit or stash them (git stash), or undo them (git checkout -- FILE)"
            )

    def release_code(self, release: Release, folder: Path) -> Path:
        """The release's code as its commit has it (``release.commit``, the commit its tag
        names), unpacked in ``folder``. A checkout without tags upgrades all the same; a
        shallow one that lacks the commit is refused."""
        found = self.git("cat-file", "-e", f"{release.commit}^{{commit}}")
        if found.returncode != 0:
            raise Refused(
                f"the data was written by release {release.version}, whose commit "
                f"{release.commit[:12]} ({release.tag}) is not in this checkout, so its code "
                "cannot make the backup: git fetch --tags (a shallow clone: git fetch --unshallow)"
            )
        tar = folder / "release.tar"
        code = folder / "code"
        done = self.git("archive", "--format=tar", "-o", str(tar), release.commit)
        if done.returncode == 0:
            self.output(["mkdir", str(code)])
            done = self.output(["tar", "-xf", str(tar), "-C", str(code)])
        if done.returncode != 0:
            raise Refused(f"the code of {release.tag} could not be unpacked: {done.stderr.strip()}")
        if last_migrations(code_migrations(code)) != release.migrations:
            raise Refused(
                f"the commit of {release.tag} does not hold release {release.version}'s migrations"
            )
        return code

    def backup(self, code: Path) -> Path:
        folder = self.root / "backups"
        if not folder.exists():
            self.run(["mkdir", "-m", "700", str(folder)])
        path = folder / time.strftime("bummerl-%Y%m%d-%H%M%S.json.gz")
        self.manage("backup", str(path), code=code)
        return path

    def install(self) -> None:
        """The packages, and the laptop's secret key where the site has none (as ``make
        migrate`` makes it: a laptop that ran without one ran in debug mode)."""
        if self.installed:
            return
        make = "make"
        self.run(
            [
                make,
                "--no-print-directory",
                "install",
                *([] if self.env.get("DJANGO_SECRET_KEY") else [".secret_key"]),
                f"VENV={self.venv_name}",
                f"PYTHON={self.python_name}",
            ]
        )
        self.installed = True
        if not self.env.get("DJANGO_SECRET_KEY"):
            self.env["DJANGO_SECRET_KEY"] = (self.root / ".secret_key").read_text().strip()

    def restart(self) -> None:
        systemctl = shutil.which("systemctl")
        units = []
        if systemctl:
            for unit in UNITS:
                found = subprocess.run(
                    [systemctl, "cat", f"{unit}.service"], capture_output=True, text=True
                )
                if found.returncode == 0:
                    units.append(f"{unit}.service")
        if not units:
            print(
                "Restart the site, its task worker and its push server now "
                "(no systemd unit bummerl.service found)."
            )
        elif self.root_user:
            self.run([systemctl or "systemctl", "restart", *units])
        else:
            print("Restart the site's units now, as root:")
            print(f"  sudo systemctl restart {' '.join(units)}")

    def __call__(self) -> None:
        self.check_checkout()
        applied = self.applied()
        release = self.release_of(applied) if applied else None
        fresh = not applied
        before = "none" if fresh else release.version if release else code_version(self.root)
        print(f"Bummerl before: {before}", flush=True)
        with tempfile.TemporaryDirectory(prefix="bummerl-upgrade-") as scratch:
            folder = Path(scratch)
            if self.owner:
                shutil.chown(folder, self.owner)
            code = self.release_code(release, folder) if release else self.root
            backup = None
            try:
                if fresh:
                    print("The database is empty: nothing to back up.")
                else:
                    if not release:
                        self.install()  # this code's backup needs its packages
                    backup = self.backup(code)
            except Stopped as stop:
                raise Refused(f"the backup did not succeed ({stop})") from None
        try:
            self.install()
            self.manage("migrate", "--noinput")
            for step in STEPS:
                app, name = step.after
                if name not in (applied or {}).get(app, set()) and name in code_migrations(
                    self.root
                ).get(app, ()):
                    print(f"  ({step.why})")
                    self.manage(*step.command)
            self.manage("seed", "--no-demo")
            self.manage("collectstatic", "--noinput", "-v0")
        except Stopped as stop:
            where = f"; the backup from before: {backup}" if backup else ""
            raise Stopped(f"the upgrade stopped at: {stop}{where}") from None
        self.restart()
        print(f"Bummerl now: {code_version(self.root)}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Upgrade this site to the code checked out.")
    parser.add_argument("--venv", default=".venv", help="the virtualenv, in the project folder")
    parser.add_argument("--python", default="python3", help="the Python that makes it")
    parser.add_argument(
        "--env-file",
        default=os.environ.get("ENV_FILE", "/etc/bummerl.env"),
        help="the site's settings, where readable (default: ENV_FILE or /etc/bummerl.env)",
    )
    options = parser.parse_args(argv)
    upgrade = Upgrade(ROOT, options.venv, options.python, Path(options.env_file))
    try:
        upgrade()
    except Refused as refused:
        print(f"Upgrade refused: {refused}. Nothing was changed.", file=sys.stderr)
        return 2
    except Stopped as stopped:
        print(f"Upgrade failed: {stopped}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
