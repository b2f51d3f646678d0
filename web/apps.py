from django.apps import AppConfig


class WebConfig(AppConfig):
    """The page people play on (``/play/``): a client of the public API, nothing more."""

    name = "web"
    default_auto_field = "django.db.models.BigAutoField"
