"""Names as players type them: one spelling stored, one identity, German sorting.

``clean_name`` is the stored form of a name: Unicode NFC (an "ö" typed as o plus a
combining diaeresis is the same "ö"), inner whitespace collapsed to one space, stripped.
``name_fold`` is a player's identity within a club: the clean name case-folded
(``str.casefold``), so "Brigitte Öhlinger" and "brigitte  öhlinger" are one person.
Umlauts are *not* folded: "Müller" and "Muller" may be two people. Case folding maps
ß to ss (the capital of ß is SS), so "Strauß" and "STRAUSS" are one person.
``german_key`` folds a name the way a German dictionary sorts it (DIN 5007, variant 1):
case is ignored, umlauts sort as their base vowel (ä as a), ß as ss. Both keys are
stored beside the name, so identity, ordering and searching are plain column
operations, the same on SQLite and PostgreSQL.
"""

import unicodedata


def clean_name(text: str) -> str:
    """``" Anna\\u00a0 O\\u0308sterreicher "`` -> ``"Anna Österreicher"`` (NFC, one space)."""
    return unicodedata.normalize("NFC", " ".join(text.split()))


def name_fold(text: str) -> str:
    """The identity of a name in a club: ``"Brigitte Öhlinger"`` -> ``"brigitte öhlinger"``."""
    return unicodedata.normalize("NFC", clean_name(text).casefold())


def german_key(text: str) -> str:
    """``"Österreicher"`` -> ``"osterreicher"``, ``"Größwang"`` -> ``"grosswang"``."""
    folded = text.strip().casefold().replace("ß", "ss")
    decomposed = unicodedata.normalize("NFKD", folded)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))
