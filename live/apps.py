from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = "Live streams"

    def ready(self) -> None:
        from games import notify
        from live import fanout

        notify.subscribe(fanout.committed)
