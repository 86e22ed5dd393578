"""No line of a template is over 120 characters: the HTML templates as djlint formats
them (``make test`` checks that with ``djlint --check``, [tool.djlint] in pyproject.toml),
and the others (the mail's text, the service worker) as written, where every line break
is one of the output."""

from pathlib import Path

from django.conf import settings

LIMIT = 120


def template_files() -> list[Path]:
    """Every file under the project's template folders: templates/ and an app's own
    (``<app>/templates/``)."""
    root = Path(settings.BASE_DIR)
    folders = [root / "templates", *root.glob("*/templates")]
    return sorted(
        p for folder in folders if folder.is_dir() for p in folder.rglob("*") if p.is_file()
    )


def test_the_template_folders_are_found():
    names = {path.name for path in template_files()}
    assert {"base.html", "registration.txt", "sw.js"} <= names


def test_no_template_line_is_over_120_characters():
    root = Path(settings.BASE_DIR)
    long = [
        f"{path.relative_to(root)}:{number}: {len(line)} characters"
        for path in template_files()
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if len(line) > LIMIT
    ]
    assert long == []
