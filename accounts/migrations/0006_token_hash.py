"""API tokens stored as the SHA-256 of their keys.

Creates ``accounts.ApiToken`` and moves every token of DRF's ``authtoken_token`` table
(where keys were stored as they are) into it as a hash, so that every client's key keeps
working; then empties that table (``rest_framework.authtoken`` is no longer installed; the
empty table may be dropped). Reversing drops ``ApiToken``: every token is then revoked
(the keys cannot be recovered from their hashes).
"""

import hashlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

OLD_TABLE = "authtoken_token"


def hash_existing_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if OLD_TABLE not in connection.introspection.table_names():
        return  # a database made after DRF's tokens left: nothing to move
    ApiToken = apps.get_model("accounts", "ApiToken")
    qn = schema_editor.quote_name
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {qn('key')}, {qn('user_id')}, {qn('created')} "
                       f"FROM {qn(OLD_TABLE)}")
        rows = cursor.fetchall()
    hashed = [(hashlib.sha256(key.encode("ascii")).hexdigest(), user_id, created)
              for key, user_id, created in rows]
    ApiToken.objects.bulk_create([ApiToken(key_hash=digest, user_id=user_id)
                                  for digest, user_id, _created in hashed])
    for digest, _user_id, created in hashed:  # when each was made (auto_now_add said now)
        ApiToken.objects.filter(key_hash=digest).update(created=created)
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {qn(OLD_TABLE)}")


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0005_user_is_bot"),
    ]

    operations = [
        migrations.CreateModel(
            name="ApiToken",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                           verbose_name="ID")),
                ("key_hash", models.CharField(
                    editable=False, help_text="SHA-256 of the key, in hex: the key is not stored.",
                    max_length=64, unique=True)),
                ("created", models.DateTimeField(auto_now_add=True)),
                ("user", models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE, related_name="api_tokens",
                    to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "verbose_name": "API token",
                "indexes": [models.Index(fields=["user", "created"],
                                         name="accounts_ap_user_id_fc7ae1_idx")],
            },
        ),
        migrations.RunPython(hash_existing_tokens, migrations.RunPython.noop),
    ]
