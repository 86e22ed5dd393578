"""German sorting and searching of names, the same on SQLite and PostgreSQL.

``german_key`` folds a name the way a German dictionary sorts it (DIN 5007, variant 1):
case is ignored, umlauts sort as their base vowel (ä as a), ß as ss. The key is stored
beside the name, so ordering and searching are plain column operations on every database.
"""

import unicodedata


def german_key(text: str) -> str:
    """``"Österreicher"`` -> ``"osterreicher"``, ``"Größwang"`` -> ``"grosswang"``."""
    folded = text.strip().casefold().replace("ß", "ss")
    decomposed = unicodedata.normalize("NFKD", folded)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def folded_name(text: str) -> str:
    """A name as typed, compared as the same person: Unicode NFC, inner whitespace
    collapsed, case folded (``" anna  Österreicher"`` and ``"Anna Österreicher"`` match)."""
    return " ".join(unicodedata.normalize("NFC", text).split()).casefold()
