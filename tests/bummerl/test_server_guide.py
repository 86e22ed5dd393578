"""The server guide (docs/server.md) a volunteer follows: one numbered path, naming every
file of deploy/, only real ``make`` targets, and in its table every setting the site
reads from the environment."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "server.md"
# A target the guide names before it is in the Makefile (none now).
TO_BE_ADDED: set[str] = set()


def guide() -> str:
    return GUIDE.read_text("utf-8")


def makefile_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text("utf-8")
    return {
        name
        for match in re.finditer(r"^([A-Za-z0-9_.-]+(?: [A-Za-z0-9_.-]+)*):(?!=)", text, re.M)
        for name in match.group(1).split()
    }


def environment_settings() -> set[str]:
    """Every environment variable a module of the site reads by name: through the typed
    readers of ``bummerl.env`` or ``os.environ``/``os.getenv`` (not the tests' own)."""
    reads = re.compile(
        r"""(?:env_(?:str|int|bool|list)\(|os\.environ\.get\(|os\.environ\[|os\.getenv\()\s*["']([A-Z][A-Z0-9_]*)["']"""
    )
    packages = [p for p in ROOT.iterdir() if (p / "__init__.py").is_file() and p.name != "tests"]
    files = [ROOT / "manage.py", *(f for package in packages for f in package.rglob("*.py"))]
    return {name for path in files for name in reads.findall(path.read_text("utf-8"))}


def table_settings() -> set[str]:
    return set(re.findall(r"^\| `([A-Z][A-Z0-9_]*)` \|", guide(), re.M))


def test_the_guide_is_one_numbered_path():
    steps = [int(n) for n in re.findall(r"^## (\d+)\. ", guide(), re.M)]
    assert steps == list(range(1, len(steps) + 1))
    assert 10 <= len(steps) <= 14


def test_the_guide_names_every_file_of_deploy():
    text = guide()
    missing = [
        p.name for p in sorted((ROOT / "deploy").iterdir()) if f"deploy/{p.name}" not in text
    ]
    assert missing == []


def test_every_make_target_the_guide_names_is_in_the_makefile():
    # a command: at a line's start, after "&&" or a backtick (not the package "make")
    named = set(re.findall(r"(?:^|&& |`)make (?:-C \S+ )?([a-z][a-z-]*)", guide(), re.M))
    assert {"serve", "backup", "restore", "upgrade"} <= named
    missing = named - makefile_targets()
    assert missing <= TO_BE_ADDED, missing


def test_the_makefile_targets_are_read():
    assert {"run", "test", "serve", "backup", "restore", "upgrade"} <= makefile_targets()


def test_the_guides_table_has_every_setting_the_site_reads():
    read = environment_settings()
    assert {"DJANGO_SECRET_KEY", "DATABASE_URL", "BUMMERL_PUSH_URL", "DJANGO_EMAIL_FROM"} <= read
    assert sorted(read - table_settings()) == []
    # and names none that the site does not read
    assert sorted(table_settings() - read) == []


def test_the_database_role_may_create_databases_and_upgrading_backs_up_first():
    text = guide()
    assert "createuser --createdb" in text  # make restore checks a file in a scratch database
    upgrade = text[text.index("## 12. ") :]
    assert "git pull && make upgrade" in upgrade
    assert "Sicherung" in upgrade
    assert "/etc/bummerl.env" in text and "chmod 640 /etc/bummerl.env" in text


def test_the_guide_speaks_du():
    assert not re.search(r"\b(Sie|Ihnen|Ihr|Ihre|Ihrem|Ihren|Ihrer|Ihres)\b", guide())
