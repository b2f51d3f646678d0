from django.apps import AppConfig


class FairplayConfig(AppConfig):
    """Fair play: evidence from the reviews of rated games, a staff queue, decisions."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "fairplay"

    def ready(self) -> None:
        from fairplay import hooks
        from games import notify

        notify.subscribe(hooks.committed)  # a rated match's end queues its cheap review
