"""A registration's calendar feed gets a token of its own, apart from the link that
changes or cancels it: each existing registration a new random one."""

from django.db import migrations, models

import tournaments.models.registrations


def fill(apps, schema_editor):
    Registration = apps.get_model("tournaments", "Registration")
    rows = list(Registration.objects.filter(feed_token__isnull=True).only("pk"))
    for row in rows:
        row.feed_token = tournaments.models.registrations.registration_token()
    Registration.objects.bulk_update(rows, ["feed_token"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0014_public_face")]

    operations = [
        migrations.AddField(
            model_name="registration",
            name="feed_token",
            field=models.CharField(max_length=30, null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="registration",
            name="feed_token",
            field=models.CharField(
                default=tournaments.models.registrations.registration_token,
                max_length=30,
                unique=True,
            ),
        ),
    ]
