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
