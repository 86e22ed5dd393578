"""Names as players type them: one spelling stored, one identity, German sorting, and
which characters of a name the printouts cannot draw.

``clean_name`` is the stored form of a name: Unicode NFC (an "ö" typed as o plus a
combining diaeresis is the same "ö"), invisible characters removed (format characters
such as the zero-width space, soft hyphen, direction marks and byte-order mark, Unicode
category Cf, and control characters, Cc), every kind of whitespace (no-break, thin,
ideographic space, tabs) collapsed to one space, stripped. The zero-width joiner stays
only between two symbols, where it glues an emoji sequence (a family emoji).
``name_fold`` is a player's identity within a club: the clean name in compatibility
form (NFKC: full-width "Ａｎｎａ" is "Anna", the ligature "ﬁ" is "fi") and case-folded
(``str.casefold``), so "Brigitte Öhlinger", "brigitte  öhlinger" and
"Brigitte Öhlinger\u200b" are one person. The stored name stays NFC, as typed.
Umlauts are *not* folded: "Müller" and "Muller" may be two people. Case folding maps
ß to ss (the capital of ß is SS), so "Strauß" and "STRAUSS" are one person.
``german_key`` folds a name the way a German dictionary sorts it (DIN 5007, variant 1):
case is ignored, umlauts sort as their base vowel (ä as a), ß as ss. Both keys are
stored beside the name, so identity, ordering and searching are plain column
operations, the same on SQLite and PostgreSQL.
``name_search`` finds a typed part of a name in a ``german_key``, folding the spellings
without umlauts both ways: "Oe" finds "Öhlinger", "Göthe" finds "Goethe", "Mueller" and
"Müller" find each other, "Strasser" finds "Straßer" (ß is ss in the key already).
"""

import functools
import re
import unicodedata

from django.conf import settings
from django.contrib import messages
from django.utils.translation import gettext as _

ZWJ = "\u200d"

TYPED_MAX = 1000
"""The most characters of a name as typed (spaces and invisible characters included)
that the site cleans or looks up: a longer text is refused as too long a name, or finds
nobody, unread (cleaning a megabyte takes about a second)."""


def _kept(text: str, i: int) -> bool:
    """Is ``text[i]`` (whitespace aside) a visible part of a name? Format (Cf) and
    control (Cc) characters are not, except a zero-width joiner between two symbols."""
    ch = text[i]
    if unicodedata.category(ch) not in ("Cf", "Cc"):
        return True
    if ch != ZWJ or i == 0 or i + 1 == len(text):
        return False
    before, after = text[i - 1], text[i + 1]
    return unicodedata.category(after) == "So" and (
        unicodedata.category(before) in ("So", "Sk") or "\ufe00" <= before <= "\ufe0f"
    )


def clean_name(text: str) -> str:
    """``" Anna\\u00a0 O\\u0308sterreicher\\u200b "`` -> ``"Anna Österreicher"`` (NFC,
    invisible characters removed, one space). ``""`` for a name of nothing visible
    (``"\\u200b"``, ``"\\u00ad "``): the writers refuse it as empty."""
    text = unicodedata.normalize("NFC", text)
    visible = "".join(
        " " if ch.isspace() else ch for i, ch in enumerate(text) if ch.isspace() or _kept(text, i)
    )
    return " ".join(visible.split())


def name_fold(text: str) -> str:
    """The identity of a name in a club: ``"Brigitte Öhlinger"`` -> ``"brigitte öhlinger"``,
    ``"Ａｎｎａ"`` -> ``"anna"`` (NFKC, case folded, NFKC again: a stable key)."""
    compatible = unicodedata.normalize("NFKC", clean_name(text))
    return unicodedata.normalize("NFKC", " ".join(compatible.casefold().split()))


def german_key(text: str) -> str:
    """``"Österreicher"`` -> ``"osterreicher"``, ``"Größwang"`` -> ``"grosswang"``."""
    folded = text.strip().casefold().replace("ß", "ss")
    decomposed = unicodedata.normalize("NFKD", folded)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


_VOWEL_E = re.compile(r"([aou])e?")


def name_search(query: str) -> re.Pattern[str]:
    """The pattern that finds ``query`` in a name's ``german_key`` (``Player.name_key``),
    by ``.search``: case and umlauts folded, and "ae", "oe", "ue" the same as "ä", "ö",
    "ü" either way: each a, o or u of the query (its own ``german_key``, an "e" after it
    dropped) matches the vowel with or without an "e" after it. ``"Oes"`` ->
    ``oe?s``; the empty query finds every name. The pattern's text also serves a
    database ``__regex`` lookup (SQLite and PostgreSQL alike)."""
    parts, at = [], 0
    key = german_key(query)
    for m in _VOWEL_E.finditer(key):
        parts += [re.escape(key[at : m.start()]), m[1] + "e?"]
        at = m.end()
    parts.append(re.escape(key[at:]))
    return re.compile("".join(parts))


def with_kind(kind: str, name: str) -> str:
    """A thing's name after the word of its kind, that word once: ``("Saison", "2026")``
    -> ``"Saison 2026"``, ``("Saison", "Saison 2026")`` -> ``"Saison 2026"``, ``("der
    Saison", "saison 26")`` -> ``"der saison 26"`` (a name that begins with the kind's
    last word, in any case, keeps its own spelling)."""
    words = kind.split()
    first = name.split(maxsplit=1)[0].rstrip(".,:;-") if name.split() else ""
    if words and first.casefold() == words[-1].casefold():
        return " ".join([*words[:-1], name])
    return f"{kind} {name}"


PRINT_FONTS = ("DejaVuSans.woff", "DejaVuSans-Bold.woff", "Symbola-emoji.woff")
"""The fonts the PDFs embed (``static/fonts``, see ``templates/print/base.html``): DejaVu
Sans in two weights, then a subset of Symbola for emoji and symbols."""


@functools.cache
def _printable() -> frozenset[int]:
    """Code points every printout can draw: in both DejaVu weights (a winner's name is
    bold) or in Symbola. Read once from the fonts' cmaps."""
    from fontTools.ttLib import TTFont  # a WeasyPrint dependency, loaded on first use

    folder = settings.BASE_DIR / "static" / "fonts"
    regular, bold, symbols = (set(TTFont(folder / name).getBestCmap()) for name in PRINT_FONTS)
    return frozenset((regular & bold) | symbols)


def _invisible(ch: str) -> bool:
    """Joiners, variation selectors and other format characters draw nothing of their own."""
    return unicodedata.category(ch) == "Cf" or "\ufe00" <= ch <= "\ufe0f"


def unprintable(text: str) -> list[str]:
    """The characters of ``text`` that the shipped fonts cannot print, each once, in order:
    ``unprintable("Li 漢字 🍀")`` -> ``["漢", "字"]`` (the emoji prints). Whitespace and
    invisible format characters (zero-width joiner, variation selectors) are never listed."""
    printable = _printable()
    found: list[str] = []
    for ch in unicodedata.normalize("NFC", text):
        if ch.isspace() or _invisible(ch) or ord(ch) in printable or ch in found:
            continue
        found.append(ch)
    return found


def warn_unprintable(request, *texts: str, name: bool = True) -> None:
    """A warning on the next page when ``texts`` hold characters the printouts lack: the
    text is kept all the same (players write their names as they like)."""
    missing: list[str] = []
    for text in texts:
        missing += [ch for ch in unprintable(text or "") if ch not in missing]
    if not missing:
        return
    template = (
        _("Missing in printouts: %(chars)s — the name is saved all the same.")
        if name
        else _("Missing in printouts: %(chars)s — the text is saved all the same.")
    )
    messages.warning(request, template % {"chars": " ".join(missing)})
