"""The site speaks German (de-AT) unless the visitor picked another language with the
switch, which stores it in the language cookie. The browser's Accept-Language is not
consulted: a club's phones should all show the same words at the table."""

import codecs
from urllib.parse import parse_qsl

from django.conf import settings
from django.http import HttpResponse, HttpResponseBadRequest
from django.utils import translation
from django.utils.translation import gettext as _

from base.htmx import sign_in_answer
from bummerl.logs import private_path


class LanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.languages = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request):
        code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if code not in self.languages:
            code = settings.LANGUAGE_CODE
        translation.activate(code)
        request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)
        return response


class RefuseNulMiddleware:
    """A NUL character in the address or a form value is never typed by a person, and
    PostgreSQL cannot store or compare it: such a request gets a plain 400."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        values = [request.path, *request.GET.values()]
        if request.method == "POST" and request.content_type != "multipart/form-data":
            values += list(request.POST.values())
        if any("\x00" in value for value in values):
            return HttpResponseBadRequest("NUL character in the request")
        return self.get_response(request)


class RefuseBrokenTextMiddleware:
    """A form whose text is not valid UTF-8 (a broken client, or one that sends another
    encoding without saying so) is refused with 400, in the visitor's language, before
    any view reads it: Django would read each broken byte as U+FFFD and a view would
    store that in place of what was meant.

    A urlencoded body is read once more, strictly (``utf8_form``). A multipart body is
    suspect only when a field Django read holds U+FFFD; it is refused when the body does
    not hold that character itself in UTF-8 (then Django put it there for bytes that
    are no UTF-8). Uploaded files' contents are bytes and not checked here."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.languages = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request):
        if request.method == "POST" and not self.utf8(request):
            code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
            with translation.override(code if code in self.languages else settings.LANGUAGE_CODE):
                body = _(
                    "The form held characters that are not UTF-8: nothing was saved. Reload the "
                    "page and send it again."
                )
            return HttpResponseBadRequest(body, content_type="text/plain; charset=utf-8")
        return self.get_response(request)

    @staticmethod
    def utf8(request) -> bool:
        if request.content_type == "application/x-www-form-urlencoded":
            return utf8_form(request.body)
        if request.content_type == "multipart/form-data":
            body = request.body  # kept: Django reads the form from it (RequestChecks bound it)
            values = [v for _key, vs in request.POST.lists() for v in vs]
            names = [f.name or "" for _key, fs in request.FILES.lists() for f in fs]
            texts = [*request.POST.keys(), *values, *request.FILES.keys(), *names]
            if any(REPLACEMENT in text for text in texts):
                return REPLACEMENT.encode() in body
        return True


REPLACEMENT = "\ufffd"


def utf8_form(body: bytes) -> bool:
    """Whether a urlencoded ``body`` is UTF-8 throughout: its bytes, and the bytes its
    %-escapes stand for."""
    try:
        text = body.decode("utf-8")
        parse_qsl(text, keep_blank_values=True, encoding="utf-8", errors="strict")
    except (UnicodeDecodeError, ValueError):
        return False
    return True


class NoStoreMiddleware:
    """Pages show a sheet, a desk, a bracket as they are now: no browser keeps a copy to
    show again after Back, where an old form would carry an old one-time key and an old
    state (``Cache-Control: no-store``, unless the view set its own caching). Static
    files never reach this: WhiteNoise answers them earlier, with their own caching."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not response.has_header("Cache-Control"):
            response["Cache-Control"] = "no-store"
        return response


class NoIndexMiddleware:
    """Every answer of a private link's page (a table's entry link, a match, a player's
    own link, a registration, a personal link, an invitation: ``bummerl.logs.private_path``,
    read from the URLconf) carries ``X-Robots-Tag: noindex``: a search engine that comes
    upon such a link (a shared chat, a referrer) keeps it out of its index. Pages, PDFs,
    JSON and refusals alike."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if private_path(request.path_info):
            response["X-Robots-Tag"] = "noindex"
        return response


class RequestChecksMiddleware:
    """Refuse, before its body is read, a request that no page of the site could take:

    - a body longer (by its Content-Length) than ``settings.BUMMERL_REQUEST_MAX_BYTES``:
      413, saying the import's limit in kilobytes (an import is the only large thing
      sent; Django itself would refuse it later with a bare 400);
    - a body declared in a ``charset`` other than UTF-8, or in one no codec knows
      (``Content-Type: …; charset=latin-1`` or ``…; charset=x-nonsense``): 400. The
      site's pages send UTF-8 only, and an unknown charset would make reading the form
      fail later with a server error.

    The answer is plain text in the visitor's language (the language cookie, as in
    ``LanguageMiddleware``)."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.languages = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request):
        refusal = self.refusal(request)
        if refusal is None:
            return self.get_response(request)
        status, text = refusal
        code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        with translation.override(code if code in self.languages else settings.LANGUAGE_CODE):
            body = str(text())
        return HttpResponse(body, status=status, content_type="text/plain; charset=utf-8")

    @staticmethod
    def refusal(request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.BUMMERL_REQUEST_MAX_BYTES:
            return (
                413,
                lambda: (
                    _(
                        "The request is too large (%(size)s kB): a sheet to import has at most "
                        "%(limit)s kB."
                    )
                    % {
                        "size": -(-length // 1024),
                        "limit": settings.BUMMERL_IMPORT_MAX_BYTES // 1024,
                    }
                ),
            )
        charset = request.content_params.get("charset") if request.content_params else None
        if charset is not None:
            try:
                name = codecs.lookup(charset.strip().strip('"')).name
            except LookupError:
                name = None
            if name != "utf-8":
                return 400, lambda: _("The form was sent in another charset than UTF-8.")
        return None


class SignInMiddleware:
    """A request sent to sign in first (a redirect to ``LOGIN_URL``, from
    ``login_required`` or a sheet's access) comes back, once signed in, to the page it
    was sent from, never to a URL that only takes a POST (``/record/`` answers GET with
    405): for a POST or an htmx request, ``next`` is that page (``page_behind``), else
    the site's home.

    An htmx request, or one of the site's scripts (which send ``HX-Request`` too), is
    answered 401 with the sign-in address in ``Bummerl-Sign-In`` instead of the
    redirect, which ``fetch`` would follow silently and htmx would swap into the page:
    the page's script keeps what was typed (``live.js`` a deal, in its queue) and says
    that nothing was saved, with a link to sign in (``site.js``)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return sign_in_answer(request, self.get_response(request))
