"""Forms of a club: founding it, inviting members, joining, changing roles, naming a
player; and ``put_rule_error``, the one way every app shows a RuleError on a form.

They read the POST, nothing more; the writers in ``clubs.services`` decide what may
stand and raise RuleErrors that the views put on the field they name.
"""

import uuid
from collections.abc import Collection

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext as gettext_now
from django.utils.translation import gettext_lazy as _

from clubs.errors import RuleError
from clubs.models import Role


def rule_error_text(error: RuleError) -> str:
    """The error's message, translated and filled in; "Deal 3: ..." when it names an
    entry of a sheet."""
    text = gettext_now(error.template)
    if error.params:
        text = text % error.params
    if error.index is not None:
        return gettext_now("Deal %(number)s: %(text)s") % {
            "number": error.index + 1,
            "text": text,
        }
    return text


def renew_key(form: forms.Form, error: RuleError) -> None:
    """A one-time key that was used for something else: the form shown again gets a new
    one, so that sending it again makes a new entry."""
    if error.field == "key":
        form.data = form.data.copy()
        form.data["key"] = str(uuid.uuid4())


def put_rule_error(
    form: forms.Form,
    error: RuleError,
    field: str | None = None,
    *,
    shown: Collection[str] = (),
) -> None:
    """Show ``error`` on ``form``: on the field it names when that field is one of
    ``shown`` (the fields the form shows), else on ``field`` (None: above the form). A
    refused one-time key (``error.field == "key"``, a hidden field) always goes above
    the form, and the form gets a new key (``renew_key``)."""
    if error.field in shown and error.field != "key":
        target = error.field
    elif error.field == "key":
        target = None
    else:
        target = field
    form.add_error(target, rule_error_text(error))
    renew_key(form, error)


def new_key() -> uuid.UUID:
    return uuid.uuid4()


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Name of the club"), max_length=100)
    key = forms.UUIDField(widget=forms.HiddenInput, initial=new_key)


class InvitationForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices, initial=Role.MEMBER)
    key = forms.UUIDField(widget=forms.HiddenInput, initial=new_key)


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)


class JoinForm(UserCreationForm):
    """A new account: user name and the password twice (Django's checks of both)."""
