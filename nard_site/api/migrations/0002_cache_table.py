"""The database cache's table (throttling and log-in counters without Redis).

``manage.py createcachetable`` makes it too; doing it here means a plain ``migrate``
leaves no server without it. A cache backend that is not the database's (Redis) is
skipped by the command.
"""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("api", "0001_initial")]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
