from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = "Follows, challenges and guests"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import notify
        from social import hooks

        notify.subscribe(hooks.challenge_notices)  # after commit: a notice per invitation
        notify.subscribe(hooks.challenge_answered)  # and read once it is answered
