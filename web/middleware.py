"""The language of an answer: Django's ``LocaleMiddleware`` for ``/play/``, and the
``Accept-Language`` header alone for the API.

Under ``/play/`` the language is the one chosen with ``?lang=`` (remembered in Django's
language cookie), else the cookie, else the browser's ``Accept-Language``, else
``LANGUAGE_CODE``. Under ``/api/`` it is the request's ``Accept-Language`` (the
cookie is not read: a client says what it wants on each request; the play page sends
its own language), else ``LANGUAGE_CODE``: the messages of the error shape are
translated, the codes and everything else stay as they are; an error answer to a
request with ``Accept-Language`` says ``Content-Language`` and ``Vary:
Accept-Language``. The API's docs and the admin keep ``LANGUAGE_CODE`` (docs/web.md
"Languages", docs/api.md "Errors").
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import trans_real

PREFIX = "/play/"
API_PREFIX = "/api/"
ONE_YEAR = 365 * 24 * 3600


def chosen_language(request: HttpRequest) -> str | None:
    """``?lang=ru`` when it names one of ``LANGUAGES``."""
    lang = request.GET.get("lang", "")
    return lang if lang in dict(settings.LANGUAGES) else None


def cookie_language(request: HttpRequest) -> str | None:
    """The language cookie's, when the site speaks it."""
    try:
        return translation.get_supported_language_variant(
            request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) or "")
    except LookupError:
        return None


DOCS_PREFIXES = ("/api/v1/docs/", "/api/v1/schema/")


def accepted_language(request: HttpRequest) -> str | None:
    """The first language of ``Accept-Language`` that the site speaks (``ru-RU`` is
    ``ru``), or ``None``. A language of quality 0 is one the client refuses (RFC 9110,
    12.4.2: ``ru;q=0`` means "not Russian"): never chosen, though Django's own parser
    lists it."""
    header = request.headers.get("Accept-Language", "")
    for code, quality in trans_real.parse_accept_lang_header(header):
        if code == "*" or quality <= 0:
            break
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return None


class PlayLocaleMiddleware(LocaleMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        if request.path_info.startswith(API_PREFIX) and not request.path_info.startswith(
                DOCS_PREFIXES):
            translation.activate(accepted_language(request) or settings.LANGUAGE_CODE)
            return
        if not request.path_info.startswith(PREFIX):
            translation.activate(settings.LANGUAGE_CODE)
            return
        # Django's order (?lang= here first): the cookie, the header, LANGUAGE_CODE — the
        # header read by accepted_language, which takes no language of quality 0.
        lang = (chosen_language(request) or cookie_language(request)
                or accepted_language(request) or settings.LANGUAGE_CODE)
        translation.activate(lang)
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request: HttpRequest,
                         response: HttpResponseBase) -> HttpResponseBase:
        if request.path_info.startswith(API_PREFIX):
            if response.status_code >= 400 and accepted_language(request):
                response.headers.setdefault("Content-Language", translation.get_language())
                patch_vary_headers(response, ("Accept-Language",))
            return response
        if not request.path_info.startswith(PREFIX):
            return response
        response = super().process_response(request, response)  # type: ignore[arg-type]
        lang = chosen_language(request)
        if lang is not None:
            response.set_cookie(settings.LANGUAGE_COOKIE_NAME, lang, max_age=ONE_YEAR,
                                path=settings.LANGUAGE_COOKIE_PATH, samesite="Lax",
                                secure=settings.SESSION_COOKIE_SECURE)
        return response
