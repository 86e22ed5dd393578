"""The writes of a score sheet: record, correct and strike out a deal.

Each view validates the entry form and calls one writer of ``scoring.services``; the
rule core's RuleError comes back on the form field it names. Plain POSTs are redirected
(or the page is shown again with the errors); htmx POSTs get the ``#sheet`` partial.

Every write form carries its one-time ``key`` and the state ``after`` it was rendered
from; a write refused because the sheet changed meanwhile shows what changed and one
button that sends the same entry again from the state now shown ("Record anyway").
"""

from django.contrib import messages
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from base.errors import RuleError
from base.htmx import vary_on_htmx
from clubs.forms import put_rule_error, rule_error_text
from scoring import reading, services
from scoring.changes import SheetChanged
from scoring.display import describe_entry, entry_options
from scoring.forms import EntryForm
from scoring.views.sheet import render_sheet, sheet_context, with_sheet_access


def put_entry_error(form: EntryForm, error: RuleError) -> None:
    """Show a RuleError on the field it names when the form shows that field for its
    kind of entry, else above the form (so no refusal goes unseen)."""
    kind = form.cleaned_data.get("kind", "") if hasattr(form, "cleaned_data") else ""
    put_rule_error(form, error, shown=EntryForm.SHOWN.get(kind, ()))


ENTRY_FIELDS = frozenset(
    {
        NON_FIELD_ERRORS,
        *(f for kind, names in EntryForm.SHOWN.items() if kind != "tiebreak" for f in names),
    }
)
"""The fields whose errors the entry form shows (``_entry_form.html``), its errors above
the form included."""
TIEBREAK_FIELDS = frozenset({NON_FIELD_ERRORS, "tiebreak_winner"})
"""The same of the tie-break form (the sheet's while a tie-break deal is due, and the
correction page's of a tie-break deal)."""


def shown_fields(state) -> frozenset:
    """The fields of the entry form whose errors the sheet page shows in ``state``: those
    of the entry form; while a tie-break deal is due, the tie-break form's; none once
    the Partie is decided (no form is shown)."""
    if state.partie_winner is not None:
        return frozenset()
    return TIEBREAK_FIELDS if state.awaiting_tiebreak else ENTRY_FIELDS


def unseen_errors(form: EntryForm, shown: frozenset) -> str:
    """The errors of the bound ``form`` on fields the page does not show (``shown``: the
    fields whose errors it shows), as one text for the banner above the sheet, so that
    no refusal goes unseen (a tie-break due or a Partie decided meanwhile); a hidden
    field sent wrong (the one-time key, the kind of entry) says the form came damaged.
    "" when there are none."""
    texts = []
    for field, errors in form.errors.items():
        if field in shown:
            continue
        if field != NON_FIELD_ERRORS and form[field].is_hidden:
            text = _("The form arrived incomplete or damaged: reload the page and enter again.")
            texts += [text] if text not in texts else []
        else:
            texts += [str(error) for error in errors]
    return " ".join(texts)


CHANGE_TEXT = {
    "recorded": gettext_lazy("Deal %(number)s was recorded from another phone: %(deal)s"),
    "corrected": gettext_lazy("Deal %(number)s was corrected from another phone: %(deal)s"),
    "struck": gettext_lazy("Struck out from another phone: %(deal)s"),
}


def change_texts(error: SheetChanged, scored) -> list[str]:
    """What happened since the page was loaded, one line per change."""
    return [
        CHANGE_TEXT[change.what]
        % {
            "number": change.number,
            "deal": describe_entry(change.deal.entry, scored.players, scored.state.rules),
        }
        for change in error.changes
    ]


def stale(request, error: SheetChanged, scored, action: str, button: str) -> dict:
    """The refusal of a write from an older state: what changed, and a form that sends
    the same entry (the same fields, the same key) again from the state now shown."""
    fields = [
        (name, value)
        for name, value in request.POST.items()
        if name not in ("csrfmiddlewaretoken", "after")
    ]
    return {
        "text": rule_error_text(error),
        "changes": change_texts(error, scored),
        "action": action,
        "fields": fields,
        "after": error.version,
        "button": button,
    }


RECORDED_HEADER = "Bummerl-Recorded"
"""The header of an answer to ``record`` that recorded the deal (or had recorded it: the
same one-time key again): the deal's id."""


def _after(request) -> str | None:
    """The state a write form was rendered from; None when it sent none (not checked)."""
    return request.POST.get("after") or None


@require_POST
@with_sheet_access
def record(request, access):
    players = access.players
    scored = None
    rules = access.sheet.core_rules
    form = EntryForm(request.POST, players=players, rules=rules)
    refusal = None
    if form.is_valid() and form.entry is not None:  # a valid form has read its entry
        try:
            scored, deal = services.record_entry(
                access.sheet,
                form.entry,
                form.cleaned_data["key"],
                access.actor,
                players,
                after=_after(request),
            )
        except SheetChanged as error:
            scored = reading.read_sheet(access.sheet, players)
            refusal = stale(request, error, scored, access.url("record"), _("Record anyway"))
        except RuleError as error:
            put_entry_error(form, error)
        else:
            if not request.htmx:
                answer = redirect(f"{access.url('page')}?saved={deal.pk}")
            else:
                answer = render_sheet(request, access, scored, saved=deal)
            # The one sign that the deal is on the sheet (live.js keeps a deal it sent
            # until an answer says so; a refusal or a sign-in page is no such answer).
            answer[RECORDED_HEADER] = str(deal.pk)
            return vary_on_htmx(answer)
    scored = scored or reading.read_sheet(access.sheet, players)
    unseen = unseen_errors(form, shown_fields(scored.state))
    return render_sheet(request, access, scored, form=form, stale=refusal, error=unseen)


@require_POST
@with_sheet_access
def void(request, access, deal_id):
    players = access.players
    try:
        scored, deal = services.void_deal(
            access.sheet,
            deal_id,
            access.actor,
            players,
            after=_after(request),
            undo=request.POST.get("undo") == "1",
        )
    except SheetChanged as error:
        scored = reading.read_sheet(access.sheet, players)
        action = access.url("void", deal_id=deal_id)
        refusal = stale(request, error, scored, action, _("Strike out anyway"))
        return render_sheet(request, access, scored, stale=refusal)
    except RuleError as error:
        scored = reading.read_sheet(access.sheet, players)
        if error.index is not None:  # a later entry no longer fits without this one
            text = _(
                "Not struck out: without this deal, the deals after it no longer fit "
                "(who deals and who is Rufer move back by one). %(reason)s"
            ) % {"reason": rule_error_text(error)}
        else:
            text = _("Not struck out: %(reason)s") % {"reason": rule_error_text(error)}
        return render_sheet(request, access, scored, error=text)
    notice = _("Struck out: %(deal)s") % {
        "deal": describe_entry(deal.entry, players, scored.state.rules)
    }
    if not request.htmx:
        messages.success(request, notice)
        return vary_on_htmx(redirect(access.url("page")))
    return render_sheet(request, access, scored, notice=notice)


def _gone(request, access, changes=()):
    """The deal to correct is no longer on the sheet: back to the sheet, saying so."""
    text = _(
        "This deal was corrected or struck out meanwhile: check the sheet, then correct again."
    )
    messages.error(request, " ".join([text, *changes]))
    return redirect(access.url("page"))


@require_http_methods(["GET", "HEAD", "POST"])
@with_sheet_access
def correct(request, access, deal_id):
    if access.locked is not None:
        messages.error(request, access.locked_text)
        return redirect(access.url("page"))
    if not access.can_write:
        return HttpResponse(status=403)
    scored = reading.read_sheet(access.sheet, access.players)
    deal = next((d for d in scored.live_deals if d.pk == deal_id), None)
    refusal = None
    if request.method == "POST":
        form = EntryForm(request.POST, players=scored.players, rules=scored.state.rules)
        if form.is_valid() and form.entry is not None:  # a valid form has read its entry
            # The service first: a double tap whose first tap corrected the deal is
            # answered with that correction, though the deal is no longer live.
            try:
                now, new = services.correct_deal(
                    access.sheet,
                    deal_id,
                    form.entry,
                    form.cleaned_data["key"],
                    access.actor,
                    scored.players,
                    after=_after(request),
                )
            except SheetChanged as error:
                scored = reading.read_sheet(access.sheet, scored.players)
                deal = next((d for d in scored.live_deals if d.pk == deal_id), None)
                if deal is None:
                    return _gone(request, access, change_texts(error, scored))
                action = access.url("correct", deal_id=deal_id)
                refusal = stale(request, error, scored, action, _("Correct anyway"))
            except RuleError as error:
                if deal is None:
                    return _gone(request, access)
                put_entry_error(form, error)
            else:
                messages.success(
                    request,
                    _("Deal %(number)s corrected: %(deal)s")
                    % {
                        "number": next(
                            (i for i, d in enumerate(now.live_deals, 1) if d.pk == new.pk),
                            new.position,
                        ),
                        "deal": describe_entry(new.entry, now.players, now.state.rules),
                    },
                )
                return redirect(access.url("page"))
    if deal is None:
        return _gone(request, access)
    live = list(scored.live_deals)
    line = scored.state.lines[live.index(deal)]
    rules = scored.state.rules
    if request.method != "POST":
        initial = {"kind": deal.kind, **deal.inputs}
        initial = {k: v for k, v in initial.items() if v is not None}
        if "won" in initial:
            initial["won"] = "1" if initial["won"] else "0"
        if "other_had_trick" in initial:
            initial["other_had_trick"] = "1" if initial["other_had_trick"] else "0"
        form = EntryForm(initial=initial, players=scored.players, rules=rules)
    context = sheet_context(request, access, scored, form=form, stale=refusal)
    shown = TIEBREAK_FIELDS if deal.kind == "tiebreak" else ENTRY_FIELDS
    context.update(
        unseen=unseen_errors(form, shown) if form.is_bound else "",
        deal=deal,
        number=live.index(deal) + 1,
        line=line,
        action=access.url("correct", deal_id=deal.pk),
        description=describe_entry(deal.entry, scored.players, rules),
    )
    # The contract buttons follow the Rufer of the deal being corrected.
    rufer = line.rufer if line.rufer is not None else 0
    context["options"] = entry_options(form, scored.players, rules, rufer)
    context["rufer"] = rufer
    return render(request, "scoring/correct.html", context)
