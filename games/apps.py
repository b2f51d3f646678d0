from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from games import notify, tasks

        notify.subscribe(tasks.committed)  # the computer's turns, after each commit
