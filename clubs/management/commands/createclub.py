"""``manage.py createclub NAME --owner USER``: found a club for scripts (as the site's
"Found a club" page does): the account USER becomes its owner. Prints the club's slug."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from base.errors import RuleError
from clubs.services import create_club


class Command(BaseCommand):
    help = "Found a club owned by an existing account; prints its address (/c/<slug>/)."

    def add_arguments(self, parser):
        parser.add_argument("name", help="the club's name")
        parser.add_argument("--owner", required=True, help="user name of the owner")

    def handle(self, *args, **options):
        users = get_user_model()
        owner = users.objects.filter(**{users.USERNAME_FIELD: options["owner"]}).first()
        if owner is None:
            raise CommandError(
                f"No user named {options['owner']!r}: create it first (createsuperuser)."
            )
        try:
            club = create_club(options["name"], owner)
        except RuleError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            f"Club {club.name!r} founded, owner {owner.get_username()}: /c/{club.slug}/"
        )
