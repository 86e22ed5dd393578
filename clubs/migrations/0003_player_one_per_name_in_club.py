from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0002_player_name_fold_merge_duplicates"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                fields=("club", "name_fold"), name="one_player_per_name_in_club"
            ),
        ),
    ]
