from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = "Live streams"

    def ready(self) -> None:
        from accounts import notices
        from games import notify
        from live import transports
        from live.limits import open_streams
        from nard_site import metrics

        notify.subscribe(transports.committed)
        notices.subscribe(transports.noticed)
        metrics.gauge("nard_open_streams", "Open streams and long-polls.", open_streams.total)
