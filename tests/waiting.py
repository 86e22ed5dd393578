"""Waiting in a browser test for something the page says through JavaScript.

Playwright's ``page.wait_for_function`` evaluates its predicate with ``eval`` inside the
page, which the site's Content-Security-Policy forbids (``base.csp``: no
``'unsafe-eval'``). ``wait_until`` asks the same through ``page.evaluate`` (which the
browser runs for the test as its own, outside the policy) until it is true.
"""

import time

from playwright.sync_api import Error, Page


def wait_until(page: Page, expression: str, arg=None, timeout: float = 30000) -> None:
    """Wait until ``expression`` (a JavaScript expression, or a function taking ``arg``)
    is truthy in ``page``, asked every 50 ms; a page being replaced meanwhile (a reload)
    is asked again. AssertionError naming the expression after ``timeout`` ms."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        try:
            if page.evaluate(expression, arg):
                return
        except Error as error:
            if "context was destroyed" not in str(error) and "navigat" not in str(error):
                raise
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout:.0f} ms: {expression}")
        page.wait_for_timeout(50)
