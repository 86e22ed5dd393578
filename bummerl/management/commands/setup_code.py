"""``manage.py setup_code`` (``make setup-code``): the one-time code of a new server's
first-run page (``clubs.first_run``), where the operator looks for it."""

from django.core.management.base import BaseCommand

from clubs import first_run


class Command(BaseCommand):
    help = (
        "Prints the one-time code of /setup/ while the server has no account; --new makes "
        "a new one (the old one and its wrong tries are void); --log writes it to the log "
        "instead (what each start of the site does)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--new", action="store_true", help="make a new code")
        parser.add_argument("--log", action="store_true", help="write it to the log only")

    def handle(self, *args, new=False, log=False, **options):
        if log:
            first_run.log_code()
            return
        if not first_run.needed():
            self.stdout.write(
                "This server has accounts: there is no first-run code. A site administrator "
                "makes a password reset link for any account on /site/."
            )
            return
        code = first_run.shown(first_run.current_code(new=new))
        self.stdout.write(
            f"One-time code: {code}\n"
            "Open /setup/ on the site and enter it with a name and a password for the first "
            "account (a site administrator). It works once."
        )
