import os
import shutil

import pytest

# Playwright's sync API runs an event loop in the test thread; Django's ORM refuses
# to run beside one unless told that this is a test process.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = (
    os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Playwright drives the system Chromium (no browser is downloaded)."""
    if not CHROMIUM:
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture
def browser_context_args(browser_context_args):
    """A small phone: 390 x 844."""
    return {**browser_context_args, "viewport": {"width": 390, "height": 844}, "locale": "de-AT"}


@pytest.fixture(scope="session", autouse=True)
def fast_password_hashing():
    """Passwords hashed with a fast hasher in the tests: Django's default takes a quarter
    of a second of CPU per hash on a fast machine, and the tests make hundreds of
    accounts and sign-ins. What the tests check of passwords (``check_password``, the
    sign-in) does not depend on the hasher; the site itself keeps Django's default."""
    from django.test.utils import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def fresh_printouts():
    """Every test starts without kept printouts (``base.printing``): the kept files live
    in one folder of the run. The limits' counts are rows of the test's database."""
    from django.core.cache import caches

    caches["printouts"].clear()
