# The game review's model, moved from games (games.0009_analysis) with its data: the
# state is created here and deleted from games (games.0010_analysis_to_reviews); the
# table, games_analysis, stays as it is.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('games', '0009_analysis'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Analysis',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('depth', models.PositiveSmallIntegerField()),
                        ('state', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('done', 'Done'), ('failed', 'Failed')], default='queued', max_length=8)),
                        ('turns_done', models.PositiveIntegerField(default=0)),
                        ('turns_total', models.PositiveIntegerField(default=0)),
                        ('results', models.JSONField(blank=True, help_text='Per game: computer.review.GameReview.as_dict().', null=True)),
                        ('error', models.TextField(blank=True, help_text='Why it failed (a record that does not replay).')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='analyses', to='games.match')),
                        ('requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'games_analysis',
                        'constraints': [models.UniqueConstraint(fields=('match', 'depth'), name='analysis_match_depth_unique')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
