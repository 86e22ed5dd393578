import django.db.models.deletion
import tournaments.models
from django.db import migrations, models


def fill_references(apps, schema_editor):
    """Each registration made before references gets its own code."""
    Registration = apps.get_model("tournaments", "Registration")
    taken = set()
    for registration in Registration.objects.filter(reference__isnull=True).only("pk"):
        code = tournaments.models.transfer_reference()
        while code in taken:
            code = tournaments.models.transfer_reference()
        taken.add(code)
        Registration.objects.filter(pk=registration.pk).update(reference=code)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0010_sheet_fold_as_text"),
        ("tournaments", "0013_registrations"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="registration",
            name="registration_one_per_person",
        ),
        migrations.AddField(
            model_name="registration",
            name="confirmed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="registration",
            name="language",
            field=models.CharField(blank=True, help_text="of its mails", max_length=8),
        ),
        migrations.AddField(
            model_name="registration",
            name="offered_until",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="registration",
            name="reference",
            # empty at first: a default would give every existing row the same code
            field=models.CharField(max_length=12, null=True, verbose_name="transfer reference"),
        ),
        migrations.AddField(
            model_name="registration",
            name="reminded_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="tournament",
            name="checkin_closes",
            field=models.DateTimeField(
                blank=True,
                help_text="registrations not checked in by then release their cards",
                null=True,
                verbose_name="check-in closes",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="confirm_registrations",
            field=models.BooleanField(
                default=False, verbose_name="the organiser confirms each registration"
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="rule_set",
            field=models.ForeignKey(
                blank=True,
                help_text="of the match sheets; none: the preset",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="scoring.ruleset",
                verbose_name="rule set",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="transfer_to",
            field=models.CharField(
                blank=True,
                help_text="holder and IBAN; each registration's page shows its reference code",
                max_length=200,
                verbose_name="bank account for prepayment",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="venue",
            field=models.CharField(blank=True, max_length=200, verbose_name="venue"),
        ),
        migrations.AlterField(
            model_name="registration",
            name="status",
            field=models.CharField(
                choices=[
                    ("registered", "registered"),
                    ("waiting", "on the waiting list"),
                    ("offered", "cards offered"),
                    ("checked_in", "checked in"),
                    ("cancelled", "cancelled"),
                    ("refused", "refused"),
                    ("no_show", "did not come"),
                ],
                default="registered",
                max_length=12,
                verbose_name="status",
            ),
        ),
        migrations.RunPython(fill_references, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="registration",
            name="reference",
            field=models.CharField(
                default=tournaments.models.transfer_reference,
                max_length=12,
                unique=True,
                verbose_name="transfer reference",
            ),
        ),
        migrations.AddConstraint(
            model_name="registration",
            constraint=models.UniqueConstraint(
                condition=models.Q(
                    ("status__in", ("registered", "waiting", "offered", "checked_in"))
                ),
                fields=("tournament", "name_fold"),
                name="registration_one_per_person",
            ),
        ),
    ]
