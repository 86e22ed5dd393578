from django.db import migrations, models


def how_they_left(apps, schema_editor):
    """Deals struck before this field: corrected when a deal replaces them, else struck
    out (an undo was stored as a strike-out)."""
    Deal = apps.get_model("scoring", "Deal")
    voided = Deal.objects.filter(voided_at__isnull=False)
    replaced = Deal.objects.filter(replaces__isnull=False).values("replaces_id")
    voided.filter(pk__in=replaced).update(voided_as="corrected")
    voided.filter(voided_as="").update(voided_as="struck")


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0010_sheet_fold_as_text"),
    ]

    operations = [
        migrations.AddField(
            model_name="deal",
            name="voided_as",
            field=models.CharField(
                blank=True,
                choices=[
                    ("undone", "undone"),
                    ("struck", "struck out"),
                    ("corrected", "corrected"),
                ],
                help_text="how it left the sheet: undone, struck out or corrected (empty: it stands)",
                max_length=10,
            ),
        ),
        migrations.RunPython(how_they_left, migrations.RunPython.noop),
    ]
