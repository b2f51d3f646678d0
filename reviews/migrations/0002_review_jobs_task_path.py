# A review's job is named by its task's import path. The task moved from games.tasks to
# reviews.tasks: the jobs already in the queue's table (waiting, running, or failed with
# a lost worker, which count toward an analysis's losses) are renamed with it, so a
# review queued before the upgrade still runs after it.

from django.db import migrations

OLD = "games.tasks.analyse"
NEW = "reviews.tasks.analyse"


def _rename(old: str, new: str):  # type: ignore[no-untyped-def]
    def rename(apps, schema_editor):  # type: ignore[no-untyped-def]
        apps.get_model("django_tasks_database", "DBTaskResult").objects.filter(
            task_path=old).update(task_path=new)
    return rename


class Migration(migrations.Migration):

    dependencies = [
        ('reviews', '0001_initial'),
        ('django_tasks_database', '0001_initial'),
    ]

    operations = [
        migrations.RunPython(_rename(OLD, NEW), _rename(NEW, OLD)),
    ]
