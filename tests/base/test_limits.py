"""The site's limits count in the database (``base.limits``): no full or cleared cache
forgets a count, every process counts the same, and ended windows are purged."""

import subprocess
import sys
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.core.cache import caches
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from base import limits
from base.models import Count
from tests import factories
from tests.serving import database_env

TOO_MANY_DE = "Zu viele neue Ausdrucke in kurzer Zeit: bitte in 10 Minuten noch einmal versuchen."


def fill_printouts_cache() -> None:
    """600 entries in the printouts' cache (500 at most: it culls), then cleared."""
    cache = caches["printouts"]
    for number in range(600):
        cache.set(f"filler:{number}", b"x" * 10)
    cache.clear()


@pytest.mark.django_db
def test_a_limit_allows_exactly_its_uses_in_its_window(monkeypatch):
    clock = [timezone.now()]
    monkeypatch.setattr(timezone, "now", lambda: clock[0])
    assert [limits.take("k", 3, 60) for _ in range(5)] == [True, True, True, False, False]
    assert limits.used("k") == 3
    assert limits.take("other", 3, 60)  # another key counts apart
    clock[0] += timedelta(seconds=59)
    assert not limits.take("k", 3, 60)
    clock[0] += timedelta(seconds=1)
    assert limits.used("k") == 0
    assert limits.take("k", 3, 60)
    assert limits.used("k") == 1
    assert Count.objects.count() == 1  # "other" ended with it and was purged


@pytest.mark.django_db
def test_purge_deletes_only_the_windows_that_ended(monkeypatch):
    limits.take("short", 1, 10)
    limits.take("long", 1, 1000)
    later = timezone.now() + timedelta(seconds=11)
    assert limits.purge(later) == 1
    assert list(Count.objects.values_list("key", flat=True)) == ["long"]


@pytest.mark.django_db
def test_the_printout_limit_holds_when_the_printouts_cache_is_full_or_cleared(settings):
    settings.PRINT_RENDERS = 2
    sheet = factories.sheet(factories.club())
    phone = Client()
    blank = reverse("entry:print_blank", kwargs={"token": sheet.entry_token})
    summary = reverse("entry:print_summary", kwargs={"token": sheet.entry_token})
    assert phone.get(blank).status_code == 200
    assert phone.get(summary).status_code == 200
    fill_printouts_cache()  # the kept PDFs are gone: each would be made anew
    for url in (blank, summary):
        refused = phone.get(url)
        assert refused.status_code == 429
        assert refused.content.decode() == TOO_MANY_DE


@pytest.mark.django_db
def test_the_registration_limit_holds_when_the_printouts_cache_is_full_or_cleared(settings):
    settings.REGISTRATION_POSTS = 1
    t = factories.announced_night()
    url = reverse("register", kwargs={"token": t.public_token})
    visitor = Client()
    data = {"name": "Anna Berger", "cards": 1, "contact": ""}
    assert visitor.post(url, {**data, "key": factories.key()}).status_code == 302
    fill_printouts_cache()
    again = visitor.post(url, {**data, "name": "Ben Huber", "key": factories.key()})
    assert again.status_code == 429
    assert "Zu viele Anmeldungen von dieser Adresse" in again.content.decode()


TAKE = """
import django, os, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "tests.settings"
django.setup()
from base import limits
print(",".join(str(int(limits.take("shared", 5, 600))) for _ in range(int(sys.argv[1]))))
"""


@pytest.mark.django_db(transaction=True)
def test_two_processes_count_in_one_limit():
    env = {"PATH": "/usr/bin:/bin", "HOME": str(django_settings.BASE_DIR)} | database_env()

    def other_process(uses: int) -> str:
        done = subprocess.run(
            [sys.executable, "-c", TAKE, str(uses)],
            cwd=django_settings.BASE_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert other_process(3) == "1,1,1"
    assert limits.take("shared", 5, 600)  # this process counts the fourth
    assert other_process(2) == "1,0"
    assert limits.used("shared") == 5


@pytest.mark.django_db
def test_the_workers_schedule_purges_ended_windows(monkeypatch):
    from tournaments import jobs

    limits.take("ended", 1, 10)
    limits.take("open", 1, 1000)
    later = timezone.now() + timedelta(seconds=11)
    monkeypatch.setattr(timezone, "now", lambda: later)
    jobs.tick()
    assert list(Count.objects.values_list("key", flat=True)) == ["open"]
