from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import notify
        from ratings import hooks

        notify.contribute(hooks.statements_for)  # rating updates, written with the change
