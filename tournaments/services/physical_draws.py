"""Writers of a draw at the venue (RULES.md 5.2, 5.4, 5.6): open the next round for it,
type in each number pulled from the pots (a pull; a put-back counts as one), the last
pull making the Partien and Freilose of the round, and undo the last pull. A pull typed
on a page out of date is refused with what happened since. The digital draw and undoing
a whole draw are ``services.draws``.
"""

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from base.errors import RuleError, gettext_noop
from clubs import audit
from clubs.audit import Action
from tournaments import draw
from tournaments.models import (
    Format,
    Pairing,
    Pull,
    Round,
    Tournament,
)
from tournaments.services.draws import (
    next_round_holders,
    pull_row,
    refuse_if_decided,
    store_draw,
    tell_tables_after,
)
from tournaments.services.reading import (
    TournamentState,
    latest_pull,
    load_state,
    locked,
    physical_session,
)
from tournaments.services.sheets import SHEET_UNDONE, Actor, lock_sheet, lock_sheets_first


def start_physical_draw(tournament: Tournament, actor: Actor, expected: int | None = None) -> Round:
    """Open the next round for a draw at the venue, typed in pull by pull (``expected``
    as for ``draw_round``)."""
    try:
        with transaction.atomic():
            t = locked(tournament)
            if t.format != Format.CARDS:
                raise RuleError("round", gettext_noop("This format is drawn digitally only."))
            state = load_state(t)
            number, pot_size, _holders = next_round_holders(state, expected)
            round_ = Round.objects.create(
                tournament=t,
                number=number,
                pot_size=pot_size,
                seed=None,
                drawn_at=None,
                drawn_by_id=actor.user_id,
            )
            audit.record(
                t.club_id,
                "tournament",
                t.pk,
                Action.DRAW_STARTED,
                actor=actor,
                before=None,
                after={"round": number},
            )
            return round_
    except IntegrityError:
        raise RuleError(
            "round", gettext_noop("This round was just drawn by someone else.")
        ) from None


def _pull_params(pull: Pull) -> dict:
    """A pull as refusals name it: its place in the draw (1-based), holder, card, number."""
    return {
        "pull": pull.index + 1,
        "name": pull.player.name,
        "card": pull.card.number,
        "number": pull.number,
    }


def _stale_pull(
    round_: Round, seen: int, state: TournamentState, session: draw.DrawSession
) -> RuleError:
    """The refusal of a pull typed on a page rendered from pull ``seen`` (0: none), when
    another pull is the latest now: what happened since, and whose turn it is now."""
    turn = session.next_turn()
    card = state.cards[turn[1]] if turn else None
    now: dict[str, Any] = {"next": card.player.name, "next_card": card.number} if card else {}
    earlier = (
        Pull.objects.filter(round=round_, pk=seen).select_related("card", "player").first()
        if seen
        else None
    )
    if earlier is not None and earlier.undone_at is not None:
        return RuleError(
            "number",
            gettext_noop(
                "Since this page was shown, pull %(pull)s (%(name)s, card %(card)s: "
                "%(number)s) was undone; now %(next)s (card %(next_card)s) is next."
            ),
            **_pull_params(earlier),
            **now,
        )
    latest = latest_pull(round_)
    if latest is not None and (earlier is not None or not seen):
        return RuleError(
            "number",
            gettext_noop(
                "Since this page was shown, pull %(pull)s was entered: %(name)s (card "
                "%(card)s) pulled %(number)s; now %(next)s (card %(next_card)s) is next."
            ),
            **_pull_params(latest),
            **now,
        )
    return RuleError(
        "number",
        gettext_noop("This page was out of date: now %(next)s (card %(next_card)s) is next."),
        **now,
    )


def add_pull(
    tournament: Tournament, round_id: int, number: int, actor: Actor, seen: int | None = None
) -> draw.Pull:
    """Record the number just pulled at the venue; DrawError says exactly what is wrong.
    The last pull completes the draw and creates the pairings.

    ``seen``: the id of the latest live pull the page showed (``latest_pull``; 0 when it
    showed none; None: not checked). A pull typed on an older page is refused on
    ``number`` with what happened since and whose turn it is now (issue: a stale page
    never writes something else than its user saw)."""
    with transaction.atomic():
        t = locked(tournament)
        state = load_state(t)
        round_ = state.in_progress
        if round_ is None or round_.pk != round_id:
            raise RuleError("round", gettext_noop("No draw is being typed in."))
        session = physical_session(state, round_)
        if seen is not None:
            latest = latest_pull(round_)
            if seen != (latest.pk if latest else 0):
                raise _stale_pull(round_, seen, state, session)
        index = len(session.pulls)
        pull = session.pull(number)
        pull_row(round_, index, pull).save()
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            Action.PULL_ENTERED,
            actor=actor,
            before=None,
            after={
                "round": round_.number,
                "card": state.cards[pull.card].number,
                "pot": str(pull.pot),
                "number": pull.number,
                "put_back": pull.put_back,
            },
        )
        if session.done:
            store_draw(
                t, state, round_.number, round_.pot_size, None, session.result(), actor, round_
            )
            tell_tables_after(t, round_)
        return pull


def undo_last_pull(
    tournament: Tournament, round_id: int, actor: Actor, pull: int | None = None
) -> Pull:
    """Undo the last pull of the latest draw at the venue (a number typed wrongly,
    RULES.md 5.6): it stays in the history, marked undone, and the same card pulls
    again. A put-back counts as a pull of its own. When that pull completed the draw,
    the draw is open again: its pairings (and the placement matches it made) are undone,
    as long as none has a result.

    ``pull``: the id of the pull the confirmation asked about (None: not checked). RuleError
    on ``round``: the round is not the latest draw at the venue (a digital draw is undone
    as a whole), it has no pull yet, results stand on its pairings, or ``pull`` is not the
    latest live pull (undone already, or another pull was entered since): a second tap
    never undoes a second pull."""
    with transaction.atomic():
        lock_sheets_first(Pairing.objects.filter(round_id=round_id))
        t = locked(tournament)
        state = load_state(t)
        round_ = state.current
        if round_ is None or round_.pk != round_id or round_.seed is not None:
            raise RuleError(
                "round",
                gettext_noop("Only the latest draw at the venue can be undone pull by pull."),
            )
        last = latest_pull(round_)
        if pull is not None and (last is None or pull != last.pk):
            raise _not_the_last_pull(round_, pull, last)
        if last is None:
            raise RuleError("round", gettext_noop("No number has been pulled yet."))
        reopened = 0
        if round_.drawn_at is not None:
            refuse_if_decided(state, round_)
            made = Pairing.objects.live().filter(round=round_)
            for sheet_id in made.exclude(sheet=None).values_list("sheet_id", flat=True):
                lock_sheet(sheet_id, "closed", SHEET_UNDONE)
            reopened = made.update(voided_at=timezone.now())
            Round.objects.filter(pk=round_.pk).update(drawn_at=None)
        last.undone_at = timezone.now()
        last.undone_by_id = actor.user_id
        last.save(update_fields=["undone_at", "undone_by"])
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            Action.PULL_UNDONE,
            actor=actor,
            before={
                "round": round_.number,
                "pull": last.index + 1,
                "player": last.player.name,
                "card": last.card.number,
                "pot": last.pot,
                "number": last.number,
                "put_back": last.put_back,
            },
            after={"draw_reopened": True, "pairings_undone": reopened} if reopened else None,
        )
        return last


def _not_the_last_pull(round_: Round, asked: int, last: Pull | None) -> RuleError:
    """The refusal to undo pull ``asked`` (an id) when ``last`` is the latest live pull."""
    earlier = Pull.objects.filter(round=round_, pk=asked).first()
    if last is None:
        if earlier is not None:
            return RuleError(
                "round",
                gettext_noop("Pull %(asked)s is undone already; no pull is left."),
                asked=earlier.index + 1,
            )
        return RuleError("round", gettext_noop("No number has been pulled yet."))
    if earlier is not None and earlier.undone_at is not None:
        return RuleError(
            "round",
            gettext_noop(
                "Pull %(asked)s is undone already; the last one is now pull %(pull)s "
                "(%(name)s, card %(card)s: %(number)s)."
            ),
            asked=earlier.index + 1,
            **_pull_params(last),
        )
    return RuleError(
        "round",
        gettext_noop(
            "Pull %(pull)s is the last one now (%(name)s, card %(card)s: %(number)s): "
            "this page was out of date, nothing was undone."
        ),
        **_pull_params(last),
    )
