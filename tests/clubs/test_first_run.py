"""The first-run page: on a server without any account, /setup/ makes the first account
(a superuser) with the one-time code the server writes to its log; without the code,
nothing."""

import io
import logging
import re
import time

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
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
    # kept for the server's user alone, and shown again where the operator looks
    assert oct(code_file.stat().st_mode & 0o777) == "0o600"
    out = io.StringIO()
    call_command("setup_code", stdout=out)
    assert f"One-time code: {code}\n" in out.getvalue()

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


def test_five_wrong_codes_lock_the_page_for_their_address_alone(caplog, code_file):
    caplog.set_level(logging.INFO, logger="bummerl")
    outsider = Client(REMOTE_ADDR="203.0.113.9", HTTP_ACCEPT_LANGUAGE="en")
    outsider.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    outsider.get(reverse("setup"))
    code = logged_codes(caplog)[0]
    for n in range(1, first_run.TRIES + 1):
        answer = send(outsider, "WRONG-CODE")
        assert answer.status_code == 403
        assert ("Too many wrong codes" in answer.content.decode()) == (n == first_run.TRIES)
    locked = send(outsider, code)
    assert locked.status_code == 403
    assert (
        "Too many wrong codes from your address: try again in an hour. On the server, make "
        "setup-code shows the code." in locked.content.decode()
    )
    # The same network (an IPv6 /64) counts as one address.
    v6 = [Client(REMOTE_ADDR=f"2001:db8:1:2::{n}") for n in range(1, first_run.TRIES + 2)]
    assert [send(c, "WRONG-CODE").status_code for c in v6] == [403] * (first_run.TRIES + 1)
    assert "Zu viele falsche Codes von deiner Adresse" in send(v6[-1], code).content.decode()
    assert not get_user_model().objects.exists()
    # The operator, from an address of his own, is not shut out.
    assert send(Client(REMOTE_ADDR="198.51.100.7"), code).status_code == 302
    assert get_user_model().objects.get().username == "obmann"


def test_make_setup_code_shows_the_code_and_makes_a_new_one_when_asked(caplog, code_file):
    caplog.set_level(logging.INFO, logger="bummerl")
    first, again, new = io.StringIO(), io.StringIO(), io.StringIO()
    call_command("setup_code", stdout=first)
    call_command("setup_code", stdout=again)
    assert first.getvalue() == again.getvalue()
    (code,) = logged_codes(caplog)  # made once, logged once
    assert first.getvalue().startswith(f"One-time code: {code}\nOpen /setup/ ")
    call_command("setup_code", new=True, stdout=new)
    fresh = re.search(r"code: (\S+)", new.getvalue()).group(1)
    assert fresh != code and logged_codes(caplog) == [code, fresh]
    assert send(Client(), code).status_code == 403  # the old one is void
    assert send(Client(), fresh).status_code == 302
    done = io.StringIO()
    call_command("setup_code", stdout=done)
    assert done.getvalue().startswith("This server has accounts: there is no first-run code.")


def test_a_file_of_an_earlier_release_gives_way_to_a_new_code(caplog, code_file):
    """0.3.0 kept only the code's hash: that code cannot be shown, so a new one is made."""
    caplog.set_level(logging.INFO, logger="bummerl")
    code_file.parent.mkdir(parents=True)
    code_file.write_text('{"sha256": "00", "wrong": 5}')
    out = io.StringIO()
    call_command("setup_code", stdout=out)
    (code,) = logged_codes(caplog)
    assert send(Client(), code).status_code == 302


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


def test_the_welcome_page_names_every_game_and_the_preisschnapsen_nights():
    page = Client().get("/").content.decode()
    assert (
        "Aufschreiben für Schnapsen, Dreierschnapsen und Bauernschnapsen: jedes Spiel mit "
        "wenigen Tipps, Punkte, Bummerl, Schneider und der Stand des Abends."
    ) in re.sub(r"\s+", " ", page)
    assert "Und die Preisschnapsen-Abende des Vereins: Anmeldung, Auslosung" in page
    assert (
        '<meta name="description" content="Bummerl: Aufschreiben für Schnapsen, '
        'Dreierschnapsen, Bauernschnapsen und Preisschnapsen-Abende">'
    ) in re.sub(r"\s+", " ", page)
    assert f'<a class="button" href="{reverse("login")}">Einloggen</a>' in page


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


@pytest.mark.django_db(transaction=True)
def test_each_start_of_the_server_logs_the_code_once_it_listens():
    """The end of `make serve`'s output and the unit's journal: gunicorn's own log."""
    from tests.serving import deployed, why_not_deployed

    if why := why_not_deployed(push=False):
        pytest.skip(why)
    with deployed(push=False) as site:
        log = site.work / "gunicorn.log"
        for _ in range(200):
            if "one-time code" in log.read_text():
                break
            time.sleep(0.1)
        text = log.read_text()
    lines = text.splitlines()
    listening = next(i for i, line in enumerate(lines) if "Listening at" in line)
    (at,) = [i for i, line in enumerate(lines) if "one-time code" in line]
    assert at > listening
    assert re.search(
        r" WARNING bummerl \d+: No account yet: open /setup/ and enter the one-time "
        r"code [A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4} to make",
        lines[at],
    )
