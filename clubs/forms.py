"""Forms of a club's start: founding it, inviting members, joining, changing roles.

They read the POST, nothing more; the writers in ``clubs.services`` decide what may
stand and raise RuleErrors that the views put on the field they name.
"""

import uuid

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from clubs.models import Role


def new_key() -> uuid.UUID:
    return uuid.uuid4()


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
