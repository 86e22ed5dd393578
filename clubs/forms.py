"""Forms of a club: founding it, inviting members, joining, changing roles, naming a
player; and ``put_rule_error``, the one way every app shows a RuleError on a form.

They read the POST, nothing more; the writers in ``clubs.services`` decide what may
stand and raise RuleErrors that the views put on the field they name.
"""

import uuid
from collections.abc import Collection
from typing import TypeVar

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.http import QueryDict
from django.utils.translation import gettext as gettext_now
from django.utils.translation import gettext_lazy as _

from base.errors import RuleError
from base.numbers import DIGITS, MAX_ID
from clubs.models import Category, Role, colour_check

F = TypeVar("F", bound=forms.Field)


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


def renew_key(form: forms.BaseForm, error: RuleError) -> None:
    """A one-time key that was used for something else: the form shown again gets a new
    one, so that sending it again makes a new entry."""
    if error.field == "key":
        data = form.data.copy() if isinstance(form.data, QueryDict) else dict(form.data)
        data["key"] = str(uuid.uuid4())
        form.data = data


def put_rule_error(
    form: forms.BaseForm,
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


def form_field(form: forms.BaseForm, name: str, kind: type[F]) -> F:
    """The field ``name`` of ``form``, which is a ``kind`` (e.g. a ``ModelChoiceField``
    whose query a form sets): a form's fields are typed as any ``Field``."""
    field = form.fields[name]
    if not isinstance(field, kind):
        raise TypeError(f"the field {name} is a {type(field).__name__}, not a {kind.__name__}")
    return field


def new_key() -> uuid.UUID:
    return uuid.uuid4()


class IdField(forms.IntegerField):
    """An id, or another whole number, that a page sends (a hidden field, a parameter of
    the address): ASCII digits (``base.numbers``) from ``min_value`` (1 unless given) to
    ``max_value`` (``MAX_ID`` unless given). What is not a whole number in that range
    (``abc``, ``²``, ``٣``, ``1.5``, ``-1``, 20 digits) is refused with the
    IntegerField's errors."""

    def __init__(self, *, min_value=1, max_value=MAX_ID, **kwargs):
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def to_python(self, value):
        if isinstance(value, str) and value.strip() and not DIGITS.fullmatch(value.strip()):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


def read_id(data, name: str, *, min_value: int = 1, max_value: int = MAX_ID) -> int | None:
    """``data[name]`` (a QueryDict of GET or POST, or a dict) read by an ``IdField``
    from ``min_value`` to ``max_value``: the number, or None when it is missing or
    refused. Raises nothing."""
    field = IdField(min_value=min_value, max_value=max_value, required=False)
    try:
        return field.clean(data.get(name))
    except forms.ValidationError:
        return None


def read_ids(data, name: str, most: int) -> list[int] | None:
    """Every value of ``name`` in the QueryDict ``data`` (``getlist``) that ``read_id``
    reads, in order (values it refuses are left out); None when more than ``most``
    values were sent (a page of the site never sends so many). Raises nothing."""
    values = data.getlist(name)
    if len(values) > most:
        return None
    found = (read_id({name: value}, name) for value in values)
    return [value for value in found if value is not None]


class IdChoiceField(forms.ModelChoiceField):
    """A choice of one row of a query by its id, as a page sends it: ASCII digits only
    (``base.numbers``); anything else (``²``, ``٣``, ``-1``) is not a choice of the list,
    whatever id the database might read it as."""

    def to_python(self, value):
        if isinstance(value, str) and value.strip() and not DIGITS.fullmatch(value.strip()):
            raise forms.ValidationError(
                self.error_messages["invalid_choice"], code="invalid_choice"
            )
        return super().to_python(value)


class LinesField(forms.CharField):
    """A text of one entry per line (a points key, a prize list), as a textarea: at
    most ``max_lines`` lines that are not blank and ``max_length`` characters, so that
    the form's parser never reads more. Too many lines are refused first, naming the
    limit and the count ("At most 1000 lines, this text has 20000."), then too many
    characters, the same way; the cleaned value is the text (stripped)."""

    default_error_messages = {
        "max_lines": _("At most %(limit)s lines, this text has %(count)s."),
        "max_length": _("At most %(limit_value)s characters, this text has %(show_value)s."),
    }

    def __init__(self, *, max_lines: int, max_length: int, **kwargs):
        kwargs.setdefault("widget", forms.Textarea)
        super().__init__(max_length=max_length, **kwargs)
        self.max_lines = max_lines

    def validate(self, value):
        super().validate(value)
        count = sum(1 for line in (value or "").splitlines() if line.strip())
        if count > self.max_lines:
            raise forms.ValidationError(
                self.error_messages["max_lines"],
                code="max_lines",
                params={"limit": self.max_lines, "count": count},
            )


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)


class CategoryPostForm(forms.Form):
    """A post of the categories page: the ``name`` of a new category, or, with
    ``category`` (a hidden field: one of ``club``'s categories), the ``name`` of a
    player to put in it or (``member`` "0") take out. Names have at most 80
    characters."""

    category = IdChoiceField(queryset=Category.objects.none(), required=False)
    name = forms.CharField(
        max_length=80,
        required=False,
        error_messages={"max_length": _("A name has at most 80 characters.")},
    )
    member = forms.CharField(required=False)

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        form_field(self, "category", forms.ModelChoiceField).queryset = Category.objects.filter(
            club=club
        )


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


class EmailForm(forms.Form):
    """A member's e-mail address, where a password reset by mail goes; empty: none.
    Another account may have the same address."""

    email = forms.EmailField(label=_("E-mail address"), required=False, max_length=254)


class ClubNameForm(forms.Form):
    """The club's new name (its address stays)."""

    name = forms.CharField(label=_("Name of the club"), max_length=100)


class ClubFaceForm(forms.Form):
    """The club's public page switched on or off, and the club's colour (``#rrggbb``)."""

    public_page = forms.BooleanField(label=_("Club page public"), required=False)
    colour = forms.CharField(
        label=_("Club colour"),
        max_length=7,
        min_length=7,
        validators=[colour_check],
        widget=forms.TextInput(attrs={"type": "color"}),
    )
