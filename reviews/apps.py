from django.apps import AppConfig


class ReviewsConfig(AppConfig):
    """The game review: its model, requests, job, reads, API and admin summary."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "reviews"

    def ready(self) -> None:
        from games import review_hooks
        from reviews import admin, selectors, services, tasks

        review_hooks.register(review_hooks.Review(
            is_open=selectors.is_open, briefs=selectors.briefs, exported=selectors.exported,
            match_summary=admin.summary, game_summary=admin.game_summary,
            task_path=tasks.ANALYSE, queue_name=tasks.ANALYSIS_QUEUE, reclaim=services.reclaim_lost,
            resume=services.resume_analyses))
