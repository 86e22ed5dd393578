"""The models of ``base``: a printout the task worker makes (``base.printing``), and the
counts of the site's limits (``base.limits``).

A ``PrintJob`` row is the printout's job, one per printout whatever the timing: its
``key`` (the hash of what the printout shows, in which language, for which address) is
unique, so two organisers asking at the same moment find one row and start one job. The
PDF itself is kept in the printouts' file cache under the same key."""

from django.db import models


class PrintJob(models.Model):
    class Step(models.TextChoices):
        WAITING = "waiting", "waiting for the worker"
        READING = "reading", "reading the night and making the QR codes"
        MAKING = "making", "laying out the pages"
        DONE = "done", "done"
        FAILED = "failed", "failed"

    key = models.CharField(max_length=64, unique=True, help_text="sha256 of the printout")
    job = models.CharField(max_length=200, help_text="dotted path: job(*args, base=…)")
    args = models.JSONField(help_text="the job's arguments: ids, strings")
    language = models.CharField(max_length=10)
    base = models.CharField(max_length=200, help_text="the site's address, for QR codes")
    warning = models.TextField(blank=True, help_text="base.links.phones_warning, or empty")
    name = models.CharField(max_length=200, help_text="the file's name and state")
    step = models.CharField(max_length=10, choices=Step.choices, default=Step.WAITING)
    run = models.PositiveIntegerField(default=1, help_text="the number of the latest start")
    tries = models.PositiveSmallIntegerField(
        default=0, help_text="starts since it was asked that ended without a PDF"
    )
    asked_at = models.DateTimeField(help_text="when it was asked for, or asked again")
    beat = models.DateTimeField(help_text="the latest step or sign of life of its start")
    error = models.CharField(max_length=300, blank=True, help_text="why the last start failed")
    retry_key = models.UUIDField(
        null=True, blank=True, unique=True, help_text="one-time key of the latest retry form"
    )

    def __str__(self) -> str:
        return f"{self.name}: {self.step} (start {self.run})"


class Count(models.Model):
    """One limit's count for one key (``base.limits``): how many times it was counted in
    the window that began at ``start`` and ends at ``ends``. Kept in the database, so it
    is neither evicted nor forgotten and every server process and host counts the same."""

    key = models.CharField(max_length=120, unique=True, help_text="limit and whom it counts")
    start = models.DateTimeField(help_text="the window's beginning")
    ends = models.DateTimeField(db_index=True, help_text="the window's end; purged after it")
    count = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.key}: {self.count} until {self.ends:%Y-%m-%d %H:%M:%S}"
