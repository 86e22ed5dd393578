from django.db import migrations, models


def reported_sides(apps, schema_editor):
    """A result made final from a report before these fields: the side of the confirmed
    or accepted report of the same match, score and winner reported before it (and, when
    confirmed, the other side)."""
    Result = apps.get_model("tournaments", "Result")
    Report = apps.get_model("tournaments", "Report")
    settled = Report.objects.filter(outcome__in=("confirmed", "accepted")).order_by("-reported_at")
    for report in settled.iterator():
        confirmed = report.outcome == "confirmed"
        Result.objects.filter(
            pairing_id=report.pairing_id,
            winner_id=report.winner_id,
            score=report.score,
            from_sheet=False,
            recorded_by__isnull=confirmed,
            recorded_at__gte=report.reported_at,
            reported_side="",
        ).update(
            reported_side=report.side,
            confirmed_side=("right" if report.side == "left" else "left") if confirmed else "",
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_registration_feed_token"),
    ]

    operations = [
        migrations.AddField(
            model_name="result",
            name="reported_side",
            field=models.CharField(
                blank=True,
                help_text="the side (left, right) whose own link reported the result; empty "
                "when entered with the match link, by a user or by the score sheet",
                max_length=5,
            ),
        ),
        migrations.AddField(
            model_name="result",
            name="confirmed_side",
            field=models.CharField(
                blank=True, help_text="the side whose own link confirmed the report", max_length=5
            ),
        ),
        migrations.RunPython(reported_sides, migrations.RunPython.noop),
    ]
