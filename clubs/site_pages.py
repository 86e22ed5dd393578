"""The site administrator's page (``/site/``): what only the shell did for the whole
server; and the first-run page (``/setup/``, ``clubs.first_run``) that makes him. For superusers only: anonymous visitors are sent to sign in, every other account
gets 403.

- *Backup*: the whole database as a ``.json.gz`` download, one consistent snapshot made
  by the code of ``manage.py backup`` (``base.backups.backup_bytes``), in
  memory: nothing is written to the server's disk. Club owners get no backup: a file of
  the whole server holds every club's data and every account's password hash.
- *Reset link for any account*: an owner may not make one for another owner (owners
  must not take over each other's accounts, ``clubs.resets``); the site administrator
  may, for any account. The link is the mail reset's token (``clubs.resets.mail_tokens``):
  it works once, until the password changes, for ``PASSWORD_RESET_TIMEOUT``. Kept in
  the history of every club the account belongs to, and in the log.
"""

import logging

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from base.backups import Refused, backup_bytes
from base.clientip import limit_address
from base.links import absolute_url
from clubs import audit, first_run, resets
from clubs.access import visitor
from clubs.audit import Action
from clubs.members import BACKEND, qr
from clubs.models import Membership

log = logging.getLogger("bummerl")


class AccountForm(forms.Form):
    """The user name of the account to make a reset link for."""

    username = forms.CharField(label=gettext_lazy("User name"), max_length=150)

    def clean_username(self):
        name = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=name).first()
        if user is None:
            raise forms.ValidationError(_("There is no account called %(name)s.") % {"name": name})
        return user


def _superuser(request) -> None:
    if not request.user.is_superuser:
        raise PermissionDenied


def _page(request, *, form=None, reset=None, error="", status=200):
    return render(
        request,
        "site_admin.html",
        {"form": form or AccountForm(), "reset": reset, "error": error},
        status=status,
    )


@never_cache
@login_required
@require_safe
def site_admin(request):
    """The administrator's page: the backup download and the reset link form."""
    _superuser(request)
    return _page(request)


@never_cache
@login_required
@require_POST
def site_backup(request):
    """The whole database as ``bummerl-<UTC time>.json.gz`` (attachment), made in memory
    (``backup_bytes``); a backup that cannot be made: the page with the reason (503)."""
    _superuser(request)
    try:
        data, count = backup_bytes()
    except Refused as error:
        log.error("backup download refused: %s", error)
        return _page(
            request,
            error=_("The backup could not be made: %(reason)s") % {"reason": error},
            status=503,
        )
    name = timezone.now().strftime("bummerl-%Y%m%d-%H%M%S.json.gz")
    log.info("backup downloaded by %s: %d objects", request.user.get_username(), count)
    response = HttpResponse(data, content_type="application/gzip")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@never_cache
@login_required
@require_POST
def site_reset(request):
    """A password reset link for the account named in the form (shown once, with its QR
    code); an unknown name is said on the field (400)."""
    _superuser(request)
    form = AccountForm(request.POST)
    if not form.is_valid():
        return _page(request, form=form, status=400)
    user = form.cleaned_data["username"]
    token = resets.mail_tokens.make_token(user)
    uidb64 = urlsafe_base64_encode(force_bytes(user.pk))
    with transaction.atomic():
        for club_id in Membership.objects.filter(user=user).values_list("club_id", flat=True):
            audit.record(
                club_id,
                "club",
                club_id,
                Action.RESET_LINK_ISSUED,
                actor=visitor(request),
                before=None,
                after={"user": user.get_username(), "issued_by": request.user.get_username()},
            )
    log.info(
        "reset link for %s made by the site administrator %s",
        user.get_username(),
        request.user.get_username(),
    )
    url = absolute_url(
        request, reverse("password_reset_confirm", kwargs={"uidb64": uidb64, "token": token})
    )
    return _page(request, form=AccountForm(), reset={"user": user, "url": url, "qr": qr(url)})


class SetupForm(UserCreationForm):
    """The first account: the one-time code from the server's log, a user name and the
    password twice (Django's checks of both)."""

    code = forms.CharField(label=gettext_lazy("One-time code"), max_length=40)

    field_order = ["code", "username", "password1", "password2"]


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def setup(request):
    """The first-run page (``clubs.first_run``): 404 once any account exists. GET makes
    and logs the one-time code (once); POST with the right code makes the first account,
    a superuser, signs it in and sends it to found a club. A wrong code: 403, counted;
    locked after ``first_run.TRIES`` (403 with every code). A form error: 400."""
    if not first_run.needed():
        raise Http404
    first_run.ensure_code()
    form = SetupForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                user = first_run.make_first_account(
                    form.cleaned_data["code"],
                    form.cleaned_data["username"],
                    form.cleaned_data["password1"],
                    limit_address(request),
                )
            except first_run.Gone:
                raise Http404 from None
            except PermissionError as refused:
                status = 403
                if str(refused) == "locked":
                    message = _(
                        "Too many wrong codes from your address: try again in an hour. On "
                        "the server, make setup-code shows the code."
                    )
                else:
                    message = _("This is not the code from the server's log.")
                form.add_error("code", message)
            else:
                login(request, user, backend=BACKEND)
                messages.success(
                    request,
                    _("You are the site's administrator now. Found your club next."),
                )
                return redirect("club_new")
    return render(request, "registration/setup.html", {"form": form}, status=status)
