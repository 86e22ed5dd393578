import clubs.models
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0007_archived_tables"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="colour",
            field=models.CharField(
                default="#0b5d3b",
                help_text="#rrggbb, for the club's public page and widgets",
                max_length=7,
                validators=[clubs.models.colour_check],
                verbose_name="club colour",
            ),
        ),
        migrations.AddField(
            model_name="club",
            name="public_page",
            field=models.BooleanField(
                default=False,
                help_text="its upcoming nights, past results, calendar feed and widgets",
                verbose_name="club page public",
            ),
        ),
    ]
