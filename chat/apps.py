from django.apps import AppConfig


class ChatConfig(AppConfig):
    """Chat rooms (a match's players and spectators, and any kind registered in
    :mod:`chat.rooms`), blocks, reports and the staff's moderation."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "chat"

    def ready(self) -> None:
        from chat import matches

        matches.register()
