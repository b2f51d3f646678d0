import unicodedata

from django.db import migrations, models


def refill_keys(apps, schema_editor):
    """Keys are now NFKC(casefold(NFKC(username))) (accounts.names.username_key)."""
    User = apps.get_model("accounts", "User")
    for user in User.objects.all().only("pk", "username"):
        name = unicodedata.normalize("NFKC", user.username)
        key = unicodedata.normalize("NFKC", name.casefold())
        User.objects.filter(pk=user.pk).update(username_key=key)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0003_user_options")]

    operations = [
        migrations.RunPython(refill_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="user",
            name="username_key",
            field=models.CharField(
                editable=False, max_length=300, unique=True,
                help_text="The username normalised (NFKC) and case-folded: what makes "
                          "usernames unique regardless of case."),
        ),
    ]
