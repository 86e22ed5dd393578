"""The site speaks German (de-AT) unless the visitor picked another language with the
switch, which stores it in the language cookie. The browser's Accept-Language is not
consulted: a club's phones should all show the same words at the table."""

from django.conf import settings
from django.http import HttpResponseBadRequest
from django.utils import translation


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
