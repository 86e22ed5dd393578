"""The path converter of every id in the site's addresses: ``<id:tournament_id>``.

Django's ``<int:…>`` takes any number of digits, and a 20-digit id
(``99999999999999999999``) then reaches the database, where SQLite cannot even compare
it with a column (an OverflowError, a server error) once a lookup is not a plain
equality. ``id`` takes 1 to 18 digits, below the largest 64-bit integer
(``clubs.forms.MAX_ID``): a longer one matches no address and is answered 404 before a
view runs. It is registered once, when the ``bummerl`` app is ready (``BummerlConfig``).
"""


class IdConverter:
    """1 to 18 digits, read as an ``int``; written back as its digits."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(value)


class PublicConverter:
    """A link's token that is public by design (a night's public link ``p/<public:token>/``):
    the same characters as ``str``, but the server's log keeps it (``bummerl.logs``
    hides every other parameter named like a token, key, code or secret)."""

    regex = "[^/]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value) -> str:
        return str(value)
