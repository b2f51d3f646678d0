from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = "Live streams"

    def ready(self) -> None:
        from games import notify
        from live import transports
        from live.limits import open_streams
        from nard_site import metrics

        notify.subscribe(transports.committed)
        metrics.gauge("nard_open_streams", "Open streams and long-polls.", open_streams.total)
