from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import notify
        from tournaments import chat, hooks

        notify.subscribe(hooks.committed)  # each tournament match's end, after its commit
        chat.register()  # the tournament's room among chat's kinds of place
