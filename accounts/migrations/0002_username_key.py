from django.db import migrations, models


def fill_keys(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    for user in User.objects.all().only("pk", "username"):
        User.objects.filter(pk=user.pk).update(username_key=user.username.casefold())


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_key",
            field=models.CharField(editable=False, max_length=300, null=True),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="user",
            name="username_key",
            field=models.CharField(
                editable=False, max_length=300, unique=True,
                help_text="The username case-folded: what makes usernames unique regardless "
                          "of case."),
        ),
        migrations.RemoveConstraint(model_name="user", name="user_username_ci_unique"),
    ]
