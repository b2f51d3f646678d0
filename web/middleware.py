"""The play page's language: Django's ``LocaleMiddleware``, for ``/play/`` only.

Under ``/play/`` the language is the one chosen with ``?lang=`` (remembered in Django's
language cookie), else the cookie, else the browser's ``Accept-Language``, else
``LANGUAGE_CODE``. Everything else (the API, its docs, the admin) keeps
``LANGUAGE_CODE`` and its answers stay exactly as they were: no ``Content-Language``,
no ``Vary: Accept-Language``, the API's messages in English (docs/web.md "Languages").
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.locale import LocaleMiddleware
from django.utils import translation

PREFIX = "/play/"
ONE_YEAR = 365 * 24 * 3600


def chosen_language(request: HttpRequest) -> str | None:
    """``?lang=ru`` when it names one of ``LANGUAGES``."""
    lang = request.GET.get("lang", "")
    return lang if lang in dict(settings.LANGUAGES) else None


class PlayLocaleMiddleware(LocaleMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        if not request.path_info.startswith(PREFIX):
            translation.activate(settings.LANGUAGE_CODE)
            return
        lang = chosen_language(request)
        if lang is None:
            super().process_request(request)
            return
        translation.activate(lang)
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request: HttpRequest,
                         response: HttpResponseBase) -> HttpResponseBase:
        if not request.path_info.startswith(PREFIX):
            return response
        response = super().process_response(request, response)  # type: ignore[arg-type]
        lang = chosen_language(request)
        if lang is not None:
            response.set_cookie(settings.LANGUAGE_COOKIE_NAME, lang, max_age=ONE_YEAR,
                                path=settings.LANGUAGE_COOKIE_PATH, samesite="Lax",
                                secure=settings.SESSION_COOKIE_SECURE)
        return response
