from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from django_tasks.signals import task_enqueued

        from games import notify, tasks

        notify.subscribe(tasks.committed)  # the computer's turns, after each commit
        task_enqueued.connect(tasks.ring_the_worker, dispatch_uid="games.ring_the_worker")
