"""The site speaks to a club in one voice: du, never the formal Sie, in every German text
(the translations' msgstr, any German in a template); and its pages send nobody to a
way that is no longer the site's (the reset page to the site's administration page, the
lock page to the owner's unlock button on *Mitglieder*, the README to the members page
for a member's mail address)."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests import factories

ROOT = Path(settings.BASE_DIR)
# The formal address, capitalised: Sie, Ihnen, Ihr, Ihre, Ihrem, Ihren, Ihrer, Ihres. The
# lowercase "sie" and "ihr" (they, her, their) are the plain voice and stay; a sentence
# about a third party starts otherwise ("Die Karten …", "Der Link …"), so that a capital
# Sie or Ihr is always the formal one.
FORMAL = re.compile(r"\b(Sie|Ihnen|Ihr|Ihre|Ihrem|Ihren|Ihrer|Ihres)\b")


def msgstrs(path: Path) -> list[tuple[str, str]]:
    """``(msgid, msgstr)`` of every live entry of the .po file at ``path``, each plural
    form its own pair; obsolete ``#~`` entries and comments left out."""
    entries: list[tuple[str, str]] = []
    msgid, field = "", None
    for line in path.read_text("utf-8").splitlines():
        if line.startswith('"') and field is not None:
            if field == "msgid":
                msgid += _quoted(line)
            else:
                entries[-1] = (msgid, entries[-1][1] + _quoted(line))
        elif line.startswith("msgid "):
            msgid, field = _quoted(line), "msgid"
        elif line.startswith("msgstr"):
            entries.append((msgid, _quoted(line)))
            field = "msgstr"
        else:  # msgid_plural (its English is not German), a comment, a blank line
            field = None
    return [(msgid, text) for msgid, text in entries if msgid]


def _quoted(line: str) -> str:
    return line[line.index('"') + 1 : line.rindex('"')]


def test_the_german_translations_are_read_whole():
    entries = dict(msgstrs(ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"))
    assert entries["Members"] == "Mitglieder"
    assert entries["Hello %(name)s,"] == "Servus %(name)s,"
    assert len(entries) > 1500


def test_no_german_translation_uses_the_formal_voice():
    formal = [
        (msgid, text)
        for msgid, text in msgstrs(ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po")
        if FORMAL.search(text)
    ]
    assert formal == []


def test_no_template_or_script_of_the_site_uses_the_formal_voice():
    """Templates carry English msgids, but any German written into one (a printout's
    word, a mail) or into a script is held to the same voice."""
    folders = [ROOT / "templates", *ROOT.glob("*/templates"), ROOT / "static"]
    files = [
        p for folder in folders for p in folder.rglob("*") if p.suffix in {".html", ".txt", ".js"}
    ]
    assert len(files) > 50
    formal = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in files
        for match in FORMAL.finditer(path.read_text("utf-8"))
    ]
    assert formal == []


def test_the_voice_check_finds_the_formal_and_lets_the_plain_pass():
    assert FORMAL.search("Wählen Sie, wie Ergebnisse geprüft werden.")
    assert FORMAL.search("Ihr Link gilt dann nicht mehr.")
    assert not FORMAL.search("Die Karten werden frei, sobald sie bezahlt sind; ihr Platz bleibt.")


@pytest.mark.django_db
def test_the_reset_page_sends_owners_to_the_site_administration_page():
    page = Client().get(reverse("password_reset")).content.decode()
    assert "changepassword" not in page
    assert (
        "Obleute: der Verwalter der Seite erstellt dir unter „Verwaltung der Seite“ "
        f"({reverse('site_admin')}) einen Link zum Zurücksetzen." in page
    )


@pytest.mark.django_db
def test_the_lock_page_says_the_owner_unlocks_on_the_members_page():
    factories.user(username="anna")
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "anna", "password": "wrong"})
    locked = client.post(reverse("login"), {"username": "anna", "password": "pw-anna"})
    assert locked.status_code == 429
    assert (
        "Die Anmeldung für diesen Namen ist für 15 Minuten gesperrt. Versuch es dann nochmals, "
        "oder frag den Obmann deines Vereins: er gibt sie unter „Mitglieder“ frei."
    ) in " ".join(locked.content.decode().split())


def test_the_readme_sends_a_members_mail_address_to_the_members_page():
    readme = " ".join((ROOT / "README.md").read_text("utf-8").split())
    assert "set in the admin" not in readme
    assert "an owner sets it on the club's *Mitglieder* page" in readme
    assert (
        "Owners who forgot theirs: a site administrator makes them a reset link on `/site/`"
        in readme
    )


def test_the_stock_words_that_reach_a_page_are_said_in_the_du_voice():
    """Django's file field and django-axes bring German of their own with "Sie": the
    import form's file field and the lock's messages carry the site's words instead."""
    from django.utils import translation

    from scoring.forms import ImportForm

    file_errors = ImportForm().fields["file"].error_messages
    words = [
        file_errors["invalid"],
        file_errors["contradiction"],
        settings.AXES_COOLOFF_MESSAGE,
        settings.AXES_PERMALOCK_MESSAGE,
    ]
    with translation.override("de"):
        german = [str(text) for text in words]
    assert german[0] == "Es kam keine Datei an: wähl die Datei nochmals und schick sie noch einmal."
    assert [text for text in german if FORMAL.search(text)] == []


def formal_messages_of_installed_apps() -> list[str]:
    """The msgids of Django's own catalog and of every installed app's (the
    administration pages' left out) whose German is formal."""
    import django
    import polib
    from django.apps import apps

    folders = [Path(django.__file__).parent / "conf" / "locale"]
    folders += [
        Path(app.path) / "locale"
        for app in apps.get_app_configs()
        if app.name != "django.contrib.admin" and Path(app.path).parent != ROOT
    ]
    found = []
    for folder in folders:
        path = folder / "de" / "LC_MESSAGES" / "django.po"
        if not path.exists():
            continue
        for entry in polib.pofile(str(path)):
            texts = [entry.msgstr, *entry.msgstr_plural.values()]
            if not entry.obsolete and any(FORMAL.search(t) for t in texts):
                found.append(entry.msgid)
    return found


def test_django_s_and_the_packages_formal_messages_speak_in_the_site_s_voice():
    """Django's German (a file field, the CSRF failure page) and axes' lock message
    (the sign-in page) say *Sie*: the site's catalog, read first, says them with *du*;
    ``base.voice`` lists them so that makemessages keeps them."""
    from django.utils import translation

    from base.voice import DJANGO_MESSAGES

    found = formal_messages_of_installed_apps()
    assert len(found) >= 10  # Django's and axes' own
    assert sorted(found) == sorted(DJANGO_MESSAGES)
    with translation.override("de-at"):
        said = {msgid: translation.gettext(msgid) for msgid in found}
    assert [text for text in said.values() if FORMAL.search(text) or text in found] == []
    assert said["Account locked: too many login attempts. Please try again later."] == (
        "Zugang gesperrt: zu viele falsche Anmeldeversuche. Versuch es später noch einmal."
    )
