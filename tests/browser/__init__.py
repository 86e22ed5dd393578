"""Browser tests: real Chromium through Playwright (``tests/conftest.py`` finds it)."""


def pasted(page) -> str:
    """What the page put on the clipboard, read back as a person would: pasted with
    Ctrl+V into a field added for it (and removed again).

    The site's Permissions-Policy refuses ``clipboard-read`` to its own pages (they only
    write), so ``navigator.clipboard.readText()`` is refused there.
    """
    page.evaluate(
        """() => {
            const field = document.createElement("textarea");
            field.id = "pasted-by-test";
            document.body.append(field);
            field.focus();
        }"""
    )
    page.keyboard.press("ControlOrMeta+V")
    field = page.locator("#pasted-by-test")
    value = field.input_value()
    field.evaluate("field => field.remove()")
    return value
