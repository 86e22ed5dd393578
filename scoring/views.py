"""Score sheet pages: show the sheet, record, correct and void deals, export, the link.

Every view resolves the sheet with ``scoring.access.sheet_for`` and writes through
``scoring.services``; the rule core's RuleError comes back on the form field it names.
htmx requests get the ``#sheet`` partial; plain POSTs are redirected (or the page is
shown again with the errors), so the sheet works without JavaScript too.

Every write form carries its one-time ``key`` and the state ``after`` it was rendered
from; a write refused because the sheet changed meanwhile shows what changed and one
button that sends the same entry again from the state now shown ("Record anyway").
"""

import uuid
from functools import wraps

import segno
from django.contrib import messages
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from bummerl.htmx import partial_or_page, vary_on_htmx
from bummerl.printing import pdf_response, qr_svg
from clubs import audit
from scoring import services
from scoring.access import SignInRequired, refreshed, sheet_for, sign_in
from scoring.display import (
    contract_buttons,
    describe_change,
    describe_entry,
    radio_options,
    sheet_rows,
)
from scoring.forms import EntryForm
from scoring.rules import RuleError


def sheet_view(func):
    """Resolve access first; an anonymous visitor without a link is sent to sign in."""

    @wraps(func)
    def wrapper(request, *args, pk=None, token=None, **kwargs):
        write = request.method == "POST"
        try:
            access = sheet_for(request, pk=pk, token=token, write=write)
        except SignInRequired:
            if request.htmx:
                response = HttpResponse(status=204)
                response["HX-Redirect"] = sign_in(request).url
                return vary_on_htmx(response)
            return vary_on_htmx(sign_in(request))
        return func(request, access, *args, **kwargs)

    return wrapper


def rule_error_text(error: RuleError) -> str:
    text = _(error.template)
    if error.params:
        text = text % error.params
    if error.index is not None:
        return _("Deal %(number)s: %(text)s") % {"number": error.index + 1, "text": text}
    return text


def put_error(form: EntryForm, error: RuleError) -> None:
    """Show a RuleError on the field it names when the form shows that field for its
    kind of entry, else above the form (so no refusal goes unseen). A refused one-time
    key is replaced, so that the form, sent again, is a new entry."""
    kind = form.cleaned_data.get("kind") if hasattr(form, "cleaned_data") else None
    field = error.field if error.field in EntryForm.SHOWN.get(kind, ()) else None
    form.add_error(field, rule_error_text(error))
    renew_key(form, error)


def renew_key(form, error: RuleError) -> None:
    """A one-time key that was used for something else: the form shown again gets a new
    one, so that sending it again makes a new entry."""
    if error.field == "key":
        form.data = form.data.copy()
        form.data["key"] = str(uuid.uuid4())


CHANGE_TEXT = {
    "recorded": gettext_lazy("Deal %(number)s was recorded from another phone: %(deal)s"),
    "corrected": gettext_lazy("Deal %(number)s was corrected from another phone: %(deal)s"),
    "struck": gettext_lazy("Struck out from another phone: %(deal)s"),
}


def change_texts(error: services.SheetChanged, view) -> list[str]:
    """What happened since the page was loaded, one line per change."""
    return [
        CHANGE_TEXT[change.what]
        % {
            "number": change.number,
            "deal": describe_entry(change.deal.entry, view.players, view.state.rules),
        }
        for change in error.changes
    ]


def stale(request, error: services.SheetChanged, view, action: str, button: str) -> dict:
    """The refusal of a write from an older state: what changed, and a form that sends
    the same entry (the same fields, the same key) again from the state now shown."""
    fields = [
        (name, value)
        for name, value in request.POST.items()
        if name not in ("csrfmiddlewaretoken", "after")
    ]
    return {
        "text": rule_error_text(error),
        "changes": change_texts(error, view),
        "action": action,
        "fields": fields,
        "after": error.version,
        "button": button,
    }


def entry_options(form, players, rules, rufer) -> dict:
    """The button groups of the entry form, checked states worked out once."""
    seats = [(i, p.name) for i, p in enumerate(players)]
    hidden = {
        item["contract"].code: " ".join(f"no-{seat}" for seat in item["hidden_for"])
        for item in contract_buttons(rules, rufer, len(players))
    }
    contracts = [
        (c.code, format_html("{} <small>{}</small>", c.name, c.base) if c.base else c.name)
        for c in rules.contracts
    ]
    return {
        "declarer": radio_options(form, "declarer", seats, default=rufer),
        "contract": radio_options(form, "contract", contracts, default="normal", classes=hidden),
        "normal_points": radio_options(form, "normal_points", [(n, n) for n in (1, 2, 3)]),
        "spritzen": radio_options(form, "spritzen", form.fields["spritzen"].choices, default=0),
        "points": radio_options(form, "points", [(n, n) for n in (1, 2, 3)]),
        "by": radio_options(form, "by", seats),
        "other_had_trick": radio_options(form, "other_had_trick", [(1, _("yes")), (0, _("no"))]),
    }


RECENT_ROWS = 30
"""The sheet shows the newest rows; the whole list is one tap away (``?all=1``)."""


def _context(
    request,
    access,
    view,
    form=None,
    saved=None,
    error=None,
    notice=None,
    show_all=False,
    stale=None,
):
    state = view.state
    players = view.players
    if form is None:
        form = EntryForm(players=players, rules=state.rules)
    rows = sheet_rows(view)
    hidden = 0 if show_all else max(0, len(rows) - RECENT_ROWS)
    base = access.url("page")
    return {
        "access": access,
        "sheet": access.sheet,
        "view": view,
        "state": state,
        "players": players,
        "seats": list(zip(players, state.display_totals, state.tally, strict=True)),
        # URLs joined by hand: reverse() per row would cost more than the row itself.
        "rows": [
            {
                "row": row,
                "void": f"{base}deals/{row.deal.pk}/void/" if row.line else "",
                "correct": f"{base}deals/{row.deal.pk}/correct/" if row.line else "",
            }
            for row in rows[hidden:]
        ],
        "hidden_rows": hidden,
        "undo_url": f"{base}deals/{saved.pk}/void/" if saved else "",
        "form": form,
        "options": entry_options(form, players, state.rules, state.rufer),
        "rufer": state.rufer,
        "saved": saved,
        "saved_text": describe_entry(saved.entry, players, state.rules) if saved else "",
        "error": error,
        "notice": notice,
        "stale": stale,
        # The state every write form was rendered from (services.SheetView.version).
        "after": view.version,
        # Every form on the page has its own one-time key: two taps on two forms are
        # two entries, two taps on one form are one.
        "keys": {"redeal": uuid.uuid4(), "ended": uuid.uuid4()},
        "links": {
            "record": access.url("record"),
            "page": access.url("page"),
            "export": access.url("export"),
            "print_summary": access.url("print_summary"),
            "print_blank": access.url("print_blank"),
        },
    }


def _render_sheet(request, access, view, status=200, **extra):
    if request.method == "POST":
        access = refreshed(access)
    context = _context(request, access, view, **extra)
    return partial_or_page(request, "scoring/sheet.html", "sheet", context, status=status)


def _after(request) -> str | None:
    """The state a write form was rendered from; None when it sent none (not checked)."""
    return request.POST.get("after") or None


@require_GET
@sheet_view
def page(request, access):
    view = services.sheet_view(access.sheet)
    saved = None
    saved_id = request.GET.get("saved")
    if saved_id and saved_id.isdigit():
        saved = next((d for d in view.deals if d.pk == int(saved_id) and d.voided_at is None), None)
    return _render_sheet(request, access, view, saved=saved, show_all=request.GET.get("all") == "1")


@require_POST
@sheet_view
def record(request, access):
    players = services.load_players(access.sheet)
    view = None
    rules = access.sheet.core_rules
    form = EntryForm(request.POST, players=players, rules=rules)
    refusal = None
    if form.is_valid():
        try:
            view, deal = services.record_entry(
                access.sheet,
                form.entry,
                form.cleaned_data["key"],
                access.actor,
                players,
                after=_after(request),
            )
        except services.SheetChanged as error:
            view = services.sheet_view(access.sheet, players)
            refusal = stale(request, error, view, access.url("record"), _("Record anyway"))
        except RuleError as error:
            put_error(form, error)
        else:
            if not request.htmx:
                return vary_on_htmx(redirect(f"{access.url('page')}?saved={deal.pk}"))
            return _render_sheet(request, access, view, saved=deal)
    view = view or services.sheet_view(access.sheet, players)
    return _render_sheet(request, access, view, form=form, stale=refusal)


@require_POST
@sheet_view
def void(request, access, deal_id):
    players = services.load_players(access.sheet)
    try:
        view, deal = services.void_deal(
            access.sheet, deal_id, access.actor, players, after=_after(request)
        )
    except services.SheetChanged as error:
        view = services.sheet_view(access.sheet, players)
        action = access.url("void", deal_id=deal_id)
        refusal = stale(request, error, view, action, _("Strike out anyway"))
        return _render_sheet(request, access, view, stale=refusal)
    except RuleError as error:
        view = services.sheet_view(access.sheet, players)
        text = _("Not struck out: %(reason)s") % {"reason": rule_error_text(error)}
        return _render_sheet(request, access, view, error=text)
    notice = _("Struck out: %(deal)s") % {
        "deal": describe_entry(deal.entry, players, view.state.rules)
    }
    if not request.htmx:
        messages.success(request, notice)
        return vary_on_htmx(redirect(access.url("page")))
    return _render_sheet(request, access, view, notice=notice)


def _gone(request, access, changes=()):
    """The deal to correct is no longer on the sheet: back to the sheet, saying so."""
    text = _(
        "This deal was corrected or struck out meanwhile: check the sheet, then correct again."
    )
    messages.error(request, " ".join([text, *changes]))
    return redirect(access.url("page"))


@require_http_methods(["GET", "POST"])
@sheet_view
def correct(request, access, deal_id):
    if access.locked is not None:
        messages.error(request, access.locked_text)
        return redirect(access.url("page"))
    if not access.can_write:
        return HttpResponse(status=403)
    view = services.sheet_view(access.sheet)
    deal = next((d for d in view.live_deals if d.pk == deal_id), None)
    refusal = None
    if request.method == "POST":
        form = EntryForm(request.POST, players=view.players, rules=view.state.rules)
        if form.is_valid():
            # The service first: a double tap whose first tap corrected the deal is
            # answered with that correction, though the deal is no longer live.
            try:
                now, new = services.correct_deal(
                    access.sheet,
                    deal_id,
                    form.entry,
                    form.cleaned_data["key"],
                    access.actor,
                    view.players,
                    after=_after(request),
                )
            except services.SheetChanged as error:
                view = services.sheet_view(access.sheet, view.players)
                deal = next((d for d in view.live_deals if d.pk == deal_id), None)
                if deal is None:
                    return _gone(request, access, change_texts(error, view))
                action = access.url("correct", deal_id=deal_id)
                refusal = stale(request, error, view, action, _("Correct anyway"))
            except RuleError as error:
                if deal is None:
                    return _gone(request, access)
                put_error(form, error)
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
    live = list(view.live_deals)
    line = view.state.lines[live.index(deal)]
    rules = view.state.rules
    if request.method != "POST":
        initial = {"kind": deal.kind, **deal.inputs}
        initial = {k: v for k, v in initial.items() if v is not None}
        if "won" in initial:
            initial["won"] = "1" if initial["won"] else "0"
        if "other_had_trick" in initial:
            initial["other_had_trick"] = "1" if initial["other_had_trick"] else "0"
        form = EntryForm(initial=initial, players=view.players, rules=rules)
    context = _context(request, access, view, form=form, stale=refusal)
    context.update(
        deal=deal,
        number=live.index(deal) + 1,
        line=line,
        action=access.url("correct", deal_id=deal.pk),
        description=describe_entry(deal.entry, view.players, rules),
    )
    # The contract buttons follow the Rufer of the deal being corrected.
    rufer = line.rufer if line.rufer is not None else 0
    context["options"] = entry_options(form, view.players, rules, rufer)
    context["rufer"] = rufer
    return render(request, "scoring/correct.html", context)


@require_GET
@sheet_view
def export(request, access):
    document = services.export_document(services.sheet_view(access.sheet))
    response = JsonResponse(document, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="bummerl-{access.sheet.pk}.json"'
    return response


@require_GET
@sheet_view
def link(request, access):
    """The private entry link with its QR code (organisers, signed in)."""
    if not access.can_manage:
        return HttpResponse(status=403)
    url = request.build_absolute_uri(f"/e/{access.sheet.entry_token}/")
    qr = segno.make(url, error="m").svg_inline(scale=5, dark="#000", light="#fff")
    return render(
        request,
        "scoring/link.html",
        {"access": access, "sheet": access.sheet, "url": url, "qr": qr},
    )


@require_POST
@sheet_view
def link_change(request, access, action):
    if not access.can_manage:
        return HttpResponse(status=403)
    if action == "revoke":
        services.revoke_link(access.sheet)
    elif action == "renew":
        services.renew_link(access.sheet)
    else:
        return HttpResponse(status=404)
    return redirect(access.url("link"))


BLANK_ROWS = {"dreierschnapsen": (24, "8.4mm"), "schnapsen": (30, "7mm")}
"""Rows of a blank paper sheet and the height of one (its border included): one A4 page
with the longest catalogue of the presets, names that wrap in the header and about
2 cm to spare."""


@require_GET
@sheet_view
def print_blank(request, access):
    """A blank paper sheet for this table, with the rule set's values; with the QR code
    of the private entry link only for those the link page lets in (organisers)."""
    view = services.sheet_view(access.sheet)
    rows, row_height = BLANK_ROWS[str(view.state.variant)]
    context = {
        "sheet": access.sheet,
        "players": view.players,
        "rules": view.state.rules,
        "variant": view.state.variant,
        "rows": range(1, rows + 1),
        "row_height": row_height,
        "qr": qr_svg(request.build_absolute_uri(f"/e/{access.sheet.entry_token}/"))
        if access.can_manage
        else "",
    }
    return pdf_response("print/blank_sheet.html", context, f"blatt-{access.sheet.pk}.pdf")


@require_GET
@sheet_view
def print_summary(request, access):
    """The evening of this table: games, Bummerl and tally, every deal."""
    view = services.sheet_view(access.sheet)
    rows = sheet_rows(view)
    context = {
        "sheet": access.sheet,
        "players": view.players,
        "state": view.state,
        "rows": rows,
        "games": [row for row in rows if row.game is not None],
    }
    return pdf_response("print/summary.html", context, f"abend-{access.sheet.pk}.pdf")


@require_GET
@sheet_view
def history(request, access):
    """Who changed what on this sheet, and when (organisers)."""
    if not access.can_manage:
        return HttpResponse(status=403)
    entries = audit.history("sheet", access.sheet.pk)[:500]
    rows = audit.history_rows(entries, describe_change(services.sheet_view(access.sheet)))
    return render(
        request,
        "audit.html",
        {"title": str(access.sheet), "rows": rows, "back": access.url("page")},
    )
