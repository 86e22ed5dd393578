"""Private links on every page and printout, for every kind of visitor.

A private link (a table's entry link, a match link, an invitation) lets its holder write
without an account. Whoever may not open the page that hands the link out (the table's
link page: organisers and owners; the round page's match links: the same; invitations:
owners) must not find it anywhere else either: not in the text of a page, an htmx
partial or a PDF, and not behind a QR code.

The walk starts from the home page (or, for a link holder, from his link), follows every
link and ``hx-get`` of the club's pages, and adds the pages ``test_access_walk`` names.
Every QR code (inline SVG or PNG on a page, drawn into a PDF) is rendered with
Ghostscript and read with zbar (``zbarimg``); without those two tools the QR part is
skipped and the text part still runs.
"""

import html
import io
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

import pytest
from django.db.models import Q
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from clubs import invitations
from tests import factories
from tests.bummerl.test_access_walk import pages as named_pages
from tournaments.models import Card, Pairing, Registration, Tournament
from tournaments.personal import personal_token
from tournaments.rows import rows
from tournaments.services.reading import load_state
from tournaments.services.sheets import Actor, open_match_sheet
from tournaments.simulation import simulate

pytestmark = pytest.mark.django_db

ACCOUNTS = ("member", "scorer", "organiser", "owner")
LINK_PAGE = {"organiser", "owner"}  # who the link pages (table link, round page) let in
TOOLS = shutil.which("zbarimg") and shutil.which("gs")
SKIP = ("/accounts/logout", "/admin/", "/i18n/", "/static/", "/favicon", "/healthz")


@pytest.fixture
def world():
    factories.presets()
    club = factories.club()
    sheet = factories.sheet(club)
    t = simulate(club, cards=8, players=6, max_cards=2, seed=1, stop_after=1)
    state = load_state(t)
    open_pairings = [r.pairing for r in rows(state, state.pairings[state.current.pk])]
    open_pairings = [p for p in open_pairings if p.kind == "match" and not state.results.get(p.pk)]
    played = open_pairings[0]
    match_sheet = open_match_sheet(played, Actor())
    owner = factories.user(club, role="owner")
    invitation = invitations.create_invitation(club, "member", owner)
    factories.announced_registration(club)  # an announced night's registration (issue 28)
    clients = {"anonymous": Client()}
    for role in ACCOUNTS:
        clients[role] = Client()
        clients[role].force_login(owner if role == "owner" else factories.user(club, role=role))
    return {
        "club": club,
        "sheet": sheet,
        "tournament": t,
        "played": played,
        "match_sheet": match_sheet,
        "invitation": invitation,
        "clients": clients,
    }


def private_links(world) -> dict[str, tuple[str, set[str]]]:
    """Every private token of the club: its link, and who may see it."""
    links = {
        world["sheet"].entry_token: (f"/e/{world['sheet'].entry_token}/", LINK_PAGE),
        world["match_sheet"].entry_token: (f"/e/{world['match_sheet'].entry_token}/", LINK_PAGE),
        world["invitation"].token: (f"/j/{world['invitation'].token}/", {"owner"}),
    }
    for pairing in Pairing.objects.filter(tournament=world["tournament"]):
        links[pairing.token] = (f"/m/{pairing.token}/", LINK_PAGE)
        for token in (pairing.left_token, pairing.right_token):  # each player's own link
            links[token] = (f"/s/{token}/", LINK_PAGE)
    for r in Registration.objects.filter(tournament__club=world["club"]):  # its holder's only
        links[r.token] = (f"/p/r/{r.token}/", set())
    for card in Card.objects.filter(tournament=world["tournament"]):  # his night's link
        token = personal_token(world["tournament"].pk, card.player_id)
        links[token] = (f"/p/me/{token}/", LINK_PAGE)
    return links


def public_codes(world) -> set[str]:
    """QR codes that carry no private token: the public live brackets (on the room
    screens), those of a public club page's nights too (issue 28), and the club's blank
    score sheets' address of a new table (issue 42: it opens a table only for a member
    allowed to, like the club's own page)."""
    nights = Tournament.objects.filter(Q(club=world["club"]) | Q(club__public_page=True))
    opening = reverse("open_table", kwargs={"slug": world["club"].slug})
    return {
        *(
            f"http://testserver/p/{token}/"  # the announced night's too (issue 28)
            for token in nights.values_list("public_token", flat=True)
        ),
        *(
            f"http://testserver{opening}?variant={variant}"
            for variant in ("schnapsen", "dreierschnapsen", "bauernschnapsen")
        ),
    }


def visitors(world) -> dict[str, tuple[Client, list[str], set[str]]]:
    """Who walks: client, start pages, the tokens he holds himself."""
    named, _state = named_pages(world["club"], world["sheet"], world["tournament"])
    # The named link pages are walked by their holders below, not by every visitor.
    named = [
        url for url, _codes in named if not url.startswith(("/e/", "/m/", "/s/", "/p/me/", "/p/r/"))
    ]
    sheet, played = world["sheet"], world["played"]
    out = {
        role: (world["clients"][role], ["/", *named], set()) for role in ("anonymous", *ACCOUNTS)
    }
    out["table link holder"] = (Client(), [f"/e/{sheet.entry_token}/"], {sheet.entry_token})
    out["match link holder"] = (
        Client(),
        [f"/m/{played.token}/", f"/e/{world['match_sheet'].entry_token}/"],
        {played.token, world["match_sheet"].entry_token},
    )
    t = world["tournament"]
    mine = personal_token(t.pk, played.left.player_id)
    out["personal link holder"] = (Client(), [f"/p/me/{mine}/"], {mine})
    registration = Registration.objects.get(tournament__club=world["club"])
    out["registration holder"] = (Client(), [f"/p/r/{registration.token}/"], {registration.token})
    return out


def allowed(persona: str, held: set[str], token: str, links) -> bool:
    return token in held or persona in links[token][1]


def hrefs(body: str) -> list[str]:
    found = re.findall(r'(?:href|hx-get)="([^"]+)"', body)
    return [html.unescape(url) for url in found]


def walk(client: Client, starts: list[str]) -> dict[str, tuple[str, bytes]]:
    """Every page reachable from ``starts`` by GET: url -> (content type, body); each
    HTML page also as its htmx partial (url + " [htmx]")."""
    seen: dict[str, tuple[str, bytes]] = {}
    todo = list(starts)
    while todo:
        url = todo.pop()
        if url in seen or any(url.startswith(s) for s in SKIP):
            continue
        response = client.get(url)
        kind = response.get("Content-Type", "")
        body = response.content if response.status_code == 200 else b""
        seen[url] = (kind, body)
        if response.status_code != 200 or not kind.startswith("text/html"):
            continue
        partial = client.get(url, headers={"HX-Request": "true"})
        if partial.status_code == 200:
            seen[url + " [htmx]"] = (kind, partial.content)
        for link in hrefs(body.decode()):
            parts = urlsplit(urljoin(url, link))
            # A table's sort order shows the same rows again: not walked.
            query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if "sort" not in k])
            if parts.netloc in ("", "testserver") and parts.path.startswith("/"):
                todo.append(parts.path + (f"?{query}" if query else ""))
    return seen


def pdf_text(body: bytes) -> str:
    """The text of a PDF and the targets of its link annotations."""
    reader = PdfReader(io.BytesIO(body))
    text = [page.extract_text() for page in reader.pages]
    for page in reader.pages:
        for annotation in page.get("/Annots") or []:
            action = annotation.get_object().get("/A")
            if action and "/URI" in action:
                text.append(str(action["/URI"]))
    return "\n".join(text)


_READ: dict[int, list[str]] = {}


def qr_codes(pdf: bytes) -> list[str]:
    """Every QR code drawn in ``pdf``, decoded: Ghostscript renders the pages, zbarimg
    reads them (once per distinct document)."""
    if hash(pdf) not in _READ:
        _READ[hash(pdf)] = _qr_codes(pdf)
    return _READ[hash(pdf)]


def _qr_codes(pdf: bytes) -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.pdf"
        source.write_bytes(pdf)
        subprocess.run(
            ["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pnggray", "-r100"]
            + [f"-sOutputFile={folder}/page-%04d.png", str(source)],
            check=True,
            capture_output=True,
        )
        images = sorted(str(p) for p in Path(folder).glob("page-*.png"))
        done = subprocess.run(
            ["zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", *images],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode in (0, 4), done.stderr  # 4: no code on any page
        return [line for line in done.stdout.splitlines() if line]


_DRAWN: dict[int, bytes] = {}


def page_images_pdf(body: str) -> bytes | None:
    """The QR-like pictures of an HTML page (inline SVG, PNG data) on a PDF, or None."""
    from weasyprint import HTML

    pictures = re.findall(r"<svg\b.*?</svg>", body, flags=re.S)
    pictures += re.findall(r'<img [^>]*src="data:image/[^"]+"[^>]*>', body)
    if not pictures:
        return None
    boxes = "".join(f'<div style="width:60mm;margin:10mm">{p}</div>' for p in pictures)
    style = "<style>svg, img { width: 60mm; height: 60mm; }</style>"
    if hash(boxes) not in _DRAWN:
        _DRAWN[hash(boxes)] = HTML(string=f"<html><body>{style}{boxes}</body></html>").write_pdf()
    return _DRAWN[hash(boxes)]


def findings(world) -> tuple[list, dict]:
    """(what a visitor sees that he may not, the links each visitor's QR codes gave)."""
    links = private_links(world)
    wrong, decoded = [], {}
    for persona, (client, starts, held) in visitors(world).items():
        decoded[persona] = set()
        walked = walk(client, starts)
        for url, (kind, body) in walked.items():
            if not body:
                continue
            if kind.startswith("application/pdf"):
                text, pdf = pdf_text(body), body
            else:
                text = body.decode(errors="replace")
                pdf = page_images_pdf(text) if "html" in kind else None
            for token in links:
                if token in text and not allowed(persona, held, token, links):
                    wrong.append((persona, url, "text", links[token][0]))
            if pdf is None or not TOOLS:
                continue
            for code in qr_codes(pdf):
                if code in public_codes(world):
                    continue
                decoded[persona].add(code)
                target = urlsplit(code)
                token = next((t for t, (path, _) in links.items() if path == target.path), None)
                exact = token is not None and code == f"http://testserver{links[token][0]}"
                if not exact or not allowed(persona, held, token, links):
                    wrong.append((persona, url, "qr", code))
    return wrong, decoded


@pytest.mark.heavy
def test_no_visitor_finds_a_private_link_the_link_page_would_not_show_him(world):
    wrong, decoded = findings(world)
    assert wrong == []
    if not TOOLS:
        pytest.skip("QR codes not read: needs zbarimg (zbar-tools) and gs (ghostscript)")
    table = f"http://testserver/e/{world['sheet'].entry_token}/"
    matches = {
        f"http://testserver/m/{p.token}/"
        for p in Pairing.objects.filter(tournament=world["tournament"], kind="match")
        if p.round and p.round.number == 1
    }
    # The walk reads QR codes: the organisers' link page, blank sheet and match sheets.
    assert table in decoded["organiser"] and table in decoded["owner"]
    assert matches - decoded["organiser"] == set()
    assert decoded["member"] == decoded["scorer"] == decoded["anonymous"] == set()
    assert decoded["table link holder"] <= {table}
    assert decoded["personal link holder"] == set()
    personal = {
        f"http://testserver/p/me/{personal_token(world['tournament'].pk, c.player_id)}/"
        for c in Card.objects.filter(tournament=world["tournament"])
    }
    assert personal - decoded["organiser"] == set()  # the desk's "Personal links"


@pytest.mark.skipif(not TOOLS, reason="needs zbarimg (zbar-tools) and gs (ghostscript)")
def test_blank_sheet_carries_the_entry_link_only_for_organisers(world):
    sheet = world["sheet"]
    url = reverse("sheet:print_blank", kwargs={"pk": sheet.pk})
    codes = {
        role: qr_codes(world["clients"][role].get(url).content)
        for role in ("member", "scorer", "organiser", "owner")
    }
    link = f"http://testserver/e/{sheet.entry_token}/"
    assert codes == {"member": [], "scorer": [], "organiser": [link], "owner": [link]}
    via_link = Client().get(reverse("entry:print_blank", kwargs={"token": sheet.entry_token}))
    assert via_link.status_code == 200
    assert qr_codes(via_link.content) == []
