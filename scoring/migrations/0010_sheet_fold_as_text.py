from django.db import migrations, models


def no_fold_as_object(apps, schema_editor):
    """Back to a JSON field: a sheet without a kept fold ("") gets the empty object."""
    apps.get_model("scoring", "Sheet").objects.filter(fold="").update(fold="{}")


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0009_fastsheet_fold"),
    ]

    operations = [
        migrations.AlterField(
            model_name="sheet",
            name="fold",
            field=models.TextField(
                blank=True,
                default="",
                editable=False,
                help_text="where its last two games began, kept for speed (scoring.foldcache)",
            ),
        ),
        migrations.RunPython(migrations.RunPython.noop, no_fold_as_object),
    ]
