"""The first-run page: on a server without any account, /setup/ makes the first account
(a superuser) with the one-time code the server writes to its log; without the code,
nothing."""

import logging
import re

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from clubs import first_run
from tests import factories

pytestmark = pytest.mark.django_db
PASSWORD = "Herz-Dame-2026"


@pytest.fixture(autouse=True)
def code_file(settings, tmp_path):
    settings.SETUP_CODE_FILE = tmp_path / "cache" / "setup-code.json"
    return settings.SETUP_CODE_FILE


def english() -> Client:
    client = Client()
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def logged_codes(caplog) -> list[str]:
    """The codes of the WARNING lines of the logger ``bummerl`` captured so far."""
    return [
        re.search(r"code (\S+) to make", record.getMessage()).group(1)
        for record in caplog.records
        if record.name == "bummerl"
        and record.levelno == logging.WARNING
        and "/setup/" in record.getMessage()
    ]


def send(client, code, username="obmann", password=PASSWORD, again=PASSWORD):
    data = {"code": code, "username": username, "password1": password, "password2": again}
    return client.post(reverse("setup"), data)


def test_the_first_visitor_with_the_logged_code_makes_the_first_account(caplog, code_file):
    caplog.set_level(logging.INFO, logger="bummerl")
    visitor = english()
    assert visitor.get(reverse("setup")).status_code == 200
    assert visitor.get(reverse("setup")).status_code == 200
    codes = logged_codes(caplog)
    assert len(codes) == 1  # shown once
    code = codes[0]
    assert re.fullmatch(r"[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}", code)
    assert code.replace("-", "") not in code_file.read_text()  # kept hashed
    assert oct(code_file.stat().st_mode & 0o777) == "0o600"

    wrong = send(visitor, "AAAA-BBBB-CCCC")
    assert wrong.status_code == 403
    assert "This is not the code from the server&#x27;s log." in wrong.content.decode()
    mismatch = send(visitor, code, again="something-else-9")
    assert mismatch.status_code == 400
    assert not get_user_model().objects.exists()

    made = send(visitor, code.lower())  # case and dashes do not count
    assert made.status_code == 302
    assert made["Location"] == reverse("club_new")
    user = get_user_model().objects.get()
    assert (user.username, user.is_superuser, user.is_staff) == ("obmann", True, True)
    assert user.check_password(PASSWORD)
    assert visitor.session["_auth_user_id"] == str(user.pk)
    assert not code_file.exists()  # works once
    # once an account exists there is no page, with or without the code
    assert english().get(reverse("setup")).status_code == 404
    assert send(english(), code, username="zweiter").status_code == 404
    assert get_user_model().objects.count() == 1
    assert len(logged_codes(caplog)) == 1


def test_five_wrong_codes_lock_the_page_even_for_the_right_one(caplog, code_file):
    caplog.set_level(logging.INFO, logger="bummerl")
    visitor = english()
    visitor.get(reverse("setup"))
    code = logged_codes(caplog)[0]
    for _ in range(first_run.TRIES):
        assert send(visitor, "WRONG-CODE").status_code == 403
    locked = send(visitor, code)
    assert locked.status_code == 403
    assert "Too many wrong codes: this page is locked. Delete the file setup-code.json" in (
        locked.content.decode()
    )
    assert not get_user_model().objects.exists()
    # the operator deletes the file: the next visit logs a new code, which works
    code_file.unlink()
    english().get(reverse("setup"))
    new = logged_codes(caplog)[-1]
    assert new != code
    assert send(english(), new).status_code == 302


def test_a_server_with_an_account_has_no_first_run_page(caplog, code_file):
    caplog.set_level(logging.INFO, logger="bummerl")
    factories.user(username="anna")
    assert Client().get(reverse("setup")).status_code == 404
    assert send(Client(), "ABCD-EFGH-JKLM").status_code == 404
    assert logged_codes(caplog) == []
    assert not code_file.exists()
    assert get_user_model().objects.count() == 1


def test_the_welcome_page_shows_the_way_to_the_first_run_page_until_an_account_exists():
    assert reverse("setup") in Client().get("/").content.decode()
    factories.user(username="anna")
    assert reverse("setup") not in Client().get("/").content.decode()


def test_the_page_speaks_german_first(caplog):
    body = Client().get(reverse("setup")).content.decode()
    for text in ("Erster Start", "Einmal-Code", "Erstes Konto anlegen"):
        assert text in body


def test_a_new_server_logs_its_one_time_code_as_it_starts(caplog, code_file):
    from django.core.management import call_command

    caplog.set_level(logging.INFO, logger="bummerl")
    call_command("seed", no_demo=True, verbosity=0)  # what make serve runs before gunicorn
    (code,) = logged_codes(caplog)
    call_command("seed", no_demo=True, verbosity=0)
    assert logged_codes(caplog) == [code]  # once: the page takes it from there
    assert send(Client(), code).status_code == 302
    assert get_user_model().objects.get().is_superuser
    call_command("seed", no_demo=True, verbosity=0)
    assert logged_codes(caplog) == [code]  # an account exists: no code any more
