"""Writers of results from the players' phones (``Tournament.result_check`` "confirm"):
a player *reports* a result with his side's link, the other player *confirms* it on his
phone or an organiser *accepts* it, and only then is it the match's result
(``services.results``). Two reports that differ are a disagreement for the desk; the
organiser accepts one of them or enters the result on the round page. Also the side
links' revoke and renew.

Every write takes the match's score sheets and then the tournament row first, in the
order of ``services.results``, and is kept in the tournament's history.
"""

import uuid

from django.db import IntegrityError, transaction
from django.utils import timezone

from base.errors import RuleError, gettext_noop
from clubs import audit
from clubs.audit import Action
from tournaments.models import (
    Card,
    Outcome,
    Pairing,
    Report,
    Result,
    ResultCheck,
    Side,
    Stage,
    side_token,
)
from tournaments.services.reading import locked, refuse_walkover
from tournaments.services.result_texts import (
    RESULT_STANDS,
    result_params,
    result_source,
    winner_name,
)
from tournaments.services.results import (
    check_entry,
    dependents,
    record_reported,
    record_result,
)
from tournaments.services.sheets import Actor, key_reused, lock_sheets_first

REPORT_CHANGED = gettext_noop(
    "Meanwhile %(name)s reported %(winner)s %(score)s: look at it before you confirm."
)
REPORT_GONE = gettext_noop("Meanwhile the report was taken back: there is nothing to confirm.")


class StaleReport(RuleError):
    """A confirmation or acceptance of a report that is no longer the one waiting (field
    ``report``): ``report`` is the other side's report waiting now, or None."""

    def __init__(self, report: Report | None):
        self.report = report
        if report is None:
            super().__init__("report", REPORT_GONE)
        else:
            holder = report.pairing.left if report.side == Side.LEFT else report.pairing.right
            assert holder is not None  # a match has both its cards
            super().__init__(
                "report",
                REPORT_CHANGED,
                name=holder.player.name,
                winner=winner_name(report.winner_id),
                score=report.score,
            )


def other(side: str) -> str:
    return Side.RIGHT if side == Side.LEFT else Side.LEFT


def _audit_report(report: Report) -> dict:
    pairing = report.pairing
    round_ = pairing.round if pairing.stage == Stage.MAIN else None
    return {
        "pairing": pairing.label or pairing.number,
        "round": round_.number if round_ is not None else None,
        "side": report.side,
        "winner_card": report.winner.number if report.winner is not None else None,
        "score": report.score,
    }


def _read(pairing: Pairing) -> Pairing:
    return Pairing.objects.select_related(
        "round", "left__player", "right__player", "tournament"
    ).get(pk=pairing.pk)


def _open_reports(pairing: Pairing) -> dict[str, Report]:
    reports = Report.objects.open().filter(pairing=pairing).select_related("winner__player")
    return {r.side: r for r in reports}


def report_result(
    pairing: Pairing, side: str, winner: int | None, score: str, key: uuid.UUID
) -> Report | Result:
    """Report ``winner`` (a card id, None for a draw) ``score`` for ``pairing`` from the
    link of ``side`` ("left" or "right"). Returns the ``Result`` when the other side
    reported the same already (both agree: the result is final), else the ``Report``,
    which waits. A new report of a side replaces its earlier one; a report that differs
    from the other side's is a disagreement for the desk. The same ``key`` again returns
    the first report (``key`` refused when it was another); RuleError as
    ``record_result`` (a result stands, a withdrawal's walkover, a wrong winner or score).

    With ``result_check`` "single" the link's result is final at once (``Result``)."""
    if pairing.tournament.result_check != ResultCheck.CONFIRM:
        return record_result(pairing, winner, score, key, audit.VIA_LINK, side=side)
    try:
        with transaction.atomic():
            lock_sheets_first(dependents(pairing))
            t = locked(pairing.tournament)
            first = Report.objects.filter(key=key).first()
            if first is not None:
                _same_report(first, pairing, side, winner, score)
                return Result.objects.live_for(pairing) or first
            pairing = _read(pairing)
            check_entry(t, pairing, winner, score)
            live = Result.objects.live_for(pairing)
            if live is not None:
                raise RuleError(
                    "pairing", RESULT_STANDS[result_source(live)], **result_params(live)
                )
            refuse_walkover(pairing)
            reports = _open_reports(pairing)
            mine, theirs = reports.get(side), reports.get(other(side))
            if mine is not None and (mine.winner_id, mine.score) == (winner, score):
                return mine  # the same report again: nothing new
            now = timezone.now()
            if mine is not None:
                Report.objects.filter(pk=mine.pk).update(closed_at=now, outcome=Outcome.REPLACED)
            report = Report.objects.create(
                pairing=pairing, side=side, winner_id=winner, score=score, key=key
            )
            report.pairing = pairing
            report.winner = Card.objects.select_related("player").get(pk=winner) if winner else None
            audit.record(
                t.club_id,
                "tournament",
                t.pk,
                Action.RESULT_REPORTED,
                actor=audit.VIA_LINK,
                before=_audit_report(mine) if mine else None,
                after=_audit_report(report),
            )
            if theirs is not None and (theirs.winner_id, theirs.score) == (winner, score):
                # Both players say the same: that is a confirmation.
                result = record_reported(
                    pairing,
                    winner,
                    score,
                    uuid.uuid4(),
                    audit.VIA_LINK,
                    Action.RESULT_CONFIRMED,
                    side=theirs.side,
                    confirmed_by=side,
                )
                Report.objects.filter(pk__in=(theirs.pk, report.pk)).update(
                    outcome=Outcome.CONFIRMED
                )
                return result
            return report
    except IntegrityError:
        # Two phones of one side at once: the first report stands.
        first = Report.objects.filter(key=key).first()
        if first is not None:
            return _same_report(first, pairing, side, winner, score)
        raise RuleError(
            "key", gettext_noop("Another report was sent at the same moment: look again.")
        ) from None


def _same_report(
    first: Report, pairing: Pairing, side: str, winner: int | None, score: str
) -> Report:
    """``first``, the report a one-time key made, when this submit repeats it (the same
    match, side, winner and score); ``key_reused`` when the key made another."""
    if (first.pairing_id, first.side, first.winner_id, first.score) != (
        pairing.pk,
        side,
        winner,
        score,
    ):
        raise key_reused()
    return first


def confirm_report(pairing: Pairing, side: str, report_id: int, key: uuid.UUID) -> Result:
    """The player of ``side`` confirms the other side's report ``report_id`` (the one
    his page showed): it becomes the match's result. ``StaleReport`` when another
    report (or none) waits now; the same ``key`` again returns the result it made."""
    return _settle(pairing, report_id, key, audit.VIA_LINK, side=side)


def accept_report(pairing: Pairing, report_id: int, key: uuid.UUID, actor: Actor) -> Result:
    """An organiser makes the report ``report_id`` (the one his page showed) the match's
    result; the other side's report, if any, is set aside. ``StaleReport`` when that
    report no longer waits; the same ``key`` again returns the result it made."""
    return _settle(pairing, report_id, key, actor, side=None)


def _settle(pairing, report_id, key, actor, *, side) -> Result:
    with transaction.atomic():
        lock_sheets_first(dependents(pairing))
        locked(pairing.tournament)
        first = Result.objects.filter(key=key).select_related("recorded_by").first()
        if first is not None:
            # A double tap: once. A key that made a result of another match, or of
            # another report of this one (an old page's form), settles nothing.
            made = Report.objects.filter(
                pk=report_id,
                pairing=pairing,
                winner_id=first.winner_id,
                score=first.score,
                outcome__in=(Outcome.CONFIRMED, Outcome.ACCEPTED),
            )
            if first.pairing_id != pairing.pk or not made.exists():
                raise key_reused()
            return first
        pairing = _read(pairing)
        reports = _open_reports(pairing)
        if side is None:
            report = next((r for r in reports.values() if r.pk == report_id), None)
            if report is None:
                raise StaleReport(None)
        else:
            report = reports.get(other(side))
            if report is None or report.pk != report_id:
                if report is not None:
                    report.pairing = pairing
                raise StaleReport(report)
        action = Action.REPORT_ACCEPTED if side is None else Action.RESULT_CONFIRMED
        result = record_reported(
            pairing,
            report.winner_id,
            report.score,
            key,
            actor,
            action,
            side=report.side,
            confirmed_by=side or "",
        )
        outcome = Outcome.ACCEPTED if side is None else Outcome.CONFIRMED
        Report.objects.filter(pk=report.pk).update(outcome=outcome)
        return result


def revoke_side_link(pairing: Pairing, side: str, actor: Actor) -> None:
    """Stop the link of ``side`` of the match from working; kept in the tournament's
    history (without the link)."""
    with transaction.atomic():
        field = f"{side}_revoked_at"
        done = Pairing.objects.filter(pk=pairing.pk, **{f"{field}__isnull": True}).update(
            **{field: timezone.now()}
        )
        if done:
            _audit_link(pairing, side, Action.SIDE_LINK_REVOKED, actor)


def renew_side_link(pairing: Pairing, side: str, actor: Actor) -> None:
    """Give ``side`` of the match a new link (the old one stops working); kept in the
    tournament's history, without the link."""
    with transaction.atomic():
        Pairing.objects.filter(pk=pairing.pk).update(
            **{f"{side}_token": side_token(), f"{side}_revoked_at": None}
        )
        _audit_link(pairing, side, Action.SIDE_LINK_RENEWED, actor)


def _audit_link(pairing: Pairing, side: str, action: Action, actor: Actor) -> None:
    t = pairing.tournament
    round_ = pairing.round if pairing.stage == Stage.MAIN else None
    audit.record(
        t.club_id,
        "tournament",
        t.pk,
        action,
        actor=actor,
        after={
            "pairing": pairing.label or pairing.number,
            "round": round_.number if round_ is not None else None,
            "side": side,
        },
    )


def set_result_check(tournament, check: str, actor: Actor) -> None:
    """Choose how results from the players' links become final (``ResultCheck``); kept in
    the history. Reports still waiting when the check is turned off stay for the desk.
    RuleError on ``result_check`` for an unknown value."""
    if check not in ResultCheck.values:
        raise RuleError("result_check", gettext_noop("Choose how results are checked."))
    with transaction.atomic():
        t = locked(tournament)
        if t.result_check == check:
            return
        before = t.result_check
        t.result_check = check
        t.save(update_fields=["result_check"])
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            Action.RESULT_CHECK_CHANGED,
            actor=actor,
            before={"result_check": before},
            after={"result_check": check},
        )
