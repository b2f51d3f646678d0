# The game review's model moved to its own app (reviews.0001_initial): its state leaves
# games here; its table, games_analysis, and its rows stay.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0009_analysis'),
        ('reviews', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='Analysis')],
            database_operations=[],
        ),
    ]
