"""What the sheet's browser tests share: a Dreierschnapsen sheet of a new club (Anna,
Ben, Clara) and a small phone's browser context."""

import pytest
from playwright.sync_api import Browser

from tests import factories

PHONE = {"width": 360, "height": 640}


@pytest.fixture
def sheet():
    return factories.sheet(factories.club())


@pytest.fixture
def phone_context(browser: Browser):
    context = browser.new_context(viewport=PHONE, locale="de-AT")
    yield context
    context.close()
