from django.apps import AppConfig


class ApiConfig(AppConfig):
    """API plumbing shared by every app: errors, parsing, schema, idempotency keys."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "nard_site.api"
    label = "api"
