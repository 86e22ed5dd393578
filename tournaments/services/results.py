"""Writers of match results: record, correct and void a result (RULES.md 5.3 to 5.5).
A result is never edited: a correction voids it and records a new one."""

import uuid

from django.db import IntegrityError, transaction
from django.utils import timezone

from base.errors import RuleError, gettext_noop
from clubs import audit
from clubs.audit import Action
from tournaments.danish import level
from tournaments.models import (
    Format,
    Kind,
    Outcome,
    Pairing,
    Place,
    Report,
    Result,
    ResultCheck,
    Round,
    Stage,
    Tournament,
)
from tournaments.services.draws import create_placement
from tournaments.services.reading import (
    NOT_CHECKED,
    locked,
    match_scores,
    refuse_walkover,
    withdrawn_in,
)
from tournaments.services.result_texts import (
    RESULT_STANDS,
    StaleResult,
    result_params,
    result_source,
)
from tournaments.services.sheets import (
    SHEET_REMADE,
    SHEET_WITHDRAWN,
    Actor,
    key_reused,
    lock_for_result,
    lock_sheet,
    lock_sheets_first,
    unlock_sheet,
)
from tournaments.signals import result_changed


def void_dependents(t: Tournament, pairing: Pairing) -> None:
    """The matches for 5/6 and 7/8 are drawn from the two "5-8" results: when one of those
    changes, they are made again (RULES.md 5.5); ``check_editable`` has made sure they
    have no result yet. Their score sheets take no more deals."""
    if pairing.label == Place.FIFTH_TO_EIGHTH:
        dependents = Pairing.objects.live().filter(tournament=t, label__in=("5", "7"))
        for sheet_id in dependents.exclude(sheet=None).values_list("sheet_id", flat=True):
            lock_sheet(sheet_id, "closed", SHEET_REMADE)
        dependents.update(voided_at=timezone.now())


def dependents(pairing: Pairing):
    """The pairings whose sheets a change of ``pairing``'s result may lock: itself, and
    for a "5-8" match the matches for 5 and 7."""
    query = Pairing.objects.filter(pk=pairing.pk)
    if pairing.label == Place.FIFTH_TO_EIGHTH:
        query = query | Pairing.objects.live().filter(
            tournament_id=pairing.tournament_id, label__in=("5", "7")
        )
    return query


def _audit_result(result: Result | None) -> dict | None:
    if result is None:
        return None
    pairing = result.pairing
    round_ = pairing.round if pairing.stage == Stage.MAIN else None
    return {
        "pairing": pairing.label or pairing.number,
        "round": round_.number if round_ is not None else None,
        "winner_card": result.winner.number if result.winner is not None else None,
        "score": result.score,
    }


def check_editable(t: Tournament, pairing: Pairing) -> None:
    """A result may change while nothing was built on it (RULES.md 5.4)."""
    if pairing.stage == Stage.MAIN:
        assert pairing.round is not None  # a pairing of the main draw has its round
        later = (
            Round.objects.live()
            .filter(tournament=t, number__gt=pairing.round.number)
            .order_by("number")
            .first()
        )
        if later is not None:
            raise RuleError(
                "pairing",
                gettext_noop("Round %(number)s is drawn already: undo that draw first."),
                number=later.number,
            )
        return
    if (
        pairing.label == Place.FIFTH_TO_EIGHTH
        and Result.objects.live()
        .filter(pairing__in=Pairing.objects.live().filter(tournament=t, label__in=("5", "7")))
        .exists()
    ):
        raise RuleError(
            "pairing",
            gettext_noop("The matches for places 5 to 8 have results: void them first."),
        )


def record_result(
    pairing: Pairing,
    winner: int | None,
    score: str,
    key: uuid.UUID,
    actor: Actor,
    *,
    from_sheet: bool = False,
    seen=NOT_CHECKED,
    side: str = "",
) -> Result:
    """Decide a match: ``winner`` is the winning card's id (None: a draw), ``score`` the
    Bummerl (2:0, 2:1; 3:x for matches to three). A repeated ``key`` returns the first
    result when it is the same (match, winner, score), and is refused on ``key`` when it
    is another; the same result sent again is answered with the stored one. ``seen``: the
    live result's id the form was rendered with (None: no result); when another result
    stands now, ``StaleResult`` says which, who entered it and when. A different result
    for a decided match is refused (correct it instead), and so is a result for a
    withdrawal's walkover. ``side``: the result comes from that player's own link."""
    return _write_result(
        pairing,
        winner,
        score,
        key,
        actor,
        correct=False,
        from_sheet=from_sheet,
        seen=seen,
        sides=(side, ""),
    )


def record_reported(
    pairing: Pairing,
    winner: int | None,
    score: str,
    key: uuid.UUID,
    actor: Actor,
    action: str,
    *,
    side: str,
    confirmed_by: str = "",
) -> Result:
    """Decide a match with the result of a report (``services.reports``) made with the
    link of ``side``: confirmed by the other player (``confirmed_by``: his side) or
    accepted by an organiser; ``action`` names it in the history ("result confirmed",
    "report accepted"). The result keeps the sides, so that it is credited to who
    reported and confirmed it, not to the match link. As ``record_result`` otherwise."""
    return _write_result(
        pairing,
        winner,
        score,
        key,
        actor,
        correct=False,
        from_sheet=False,
        reported=action,
        sides=(side, confirmed_by),
    )


def correct_result(
    pairing: Pairing,
    winner: int | None,
    score: str,
    key: uuid.UUID,
    actor: Actor,
    *,
    from_sheet: bool = False,
    seen=NOT_CHECKED,
) -> Result:
    """Void the live result of the match and record this one; refused once the next
    round is drawn (the message says which draw to undo), and (``StaleResult``) when
    the result changed since the form showed ``seen``."""
    return _write_result(
        pairing, winner, score, key, actor, correct=True, from_sheet=from_sheet, seen=seen
    )


REPORT_ONLY = gettext_noop(
    "Each player reports the result with his own link (a QR code on the match sheet); "
    "it counts when the other player confirms it."
)


def check_entry(t: Tournament, pairing: Pairing, winner: int | None, score: str) -> None:
    """A result ``winner`` (card id, None for a draw) ``score`` can be entered for
    ``pairing`` (read with its round): a live match, one of its cards, a score of
    ``match_scores`` (RULES.md 5.3, 6); a level score ("1:1", a points match of even
    Bummerl) is a draw and has no winner, every other score has one."""
    if pairing.voided_at is not None or (
        pairing.round is not None and pairing.round.undone_at is not None
    ):
        raise RuleError("pairing", gettext_noop("This pairing was undone."))
    if pairing.kind != Kind.MATCH:
        raise RuleError("pairing", gettext_noop("A bye or walkover has no result."))
    scores = match_scores(t)
    if score not in scores:
        if t.format == Format.POINTS and t.match_games:
            raise RuleError(
                "score",
                gettext_noop("A match of %(n)s Bummerl ends %(scores)s."),
                n=t.match_games,
                scores=" / ".join(scores),
            )
        raise RuleError(
            "score",
            gettext_noop("A match to %(n)s Bummerl ends %(scores)s."),
            n=t.match_bummerl,
            scores=" / ".join(scores),
        )

    if level(score) and winner is not None:
        raise RuleError(
            "winner",
            gettext_noop("%(score)s is a draw: nobody wins it. Tap “Draw”."),
            score=score,
        )
    if winner is None and not level(score):
        draws = [s for s in scores if level(s)]
        if draws:
            raise RuleError(
                "winner",
                gettext_noop("Only %(draws)s is a draw: choose the winner of %(score)s."),
                draws=" / ".join(draws),
                score=score,
            )
        raise RuleError("winner", gettext_noop("Choose the winner of the match."))
    if winner is not None and winner not in (pairing.left_id, pairing.right_id):
        raise RuleError("winner", gettext_noop("The winner must be one of the two cards."))


def _write_result(
    pairing,
    winner,
    score,
    key,
    actor,
    *,
    correct,
    from_sheet,
    seen=NOT_CHECKED,
    reported="",
    sides=("", ""),
):
    """``reported``: the history's action when the result is that of a report confirmed or
    accepted (``services.reports``), which may come from a link while the tournament
    checks results; ``sides``: the side whose own link reported it and the side whose
    link confirmed it ("" for none)."""
    try:
        with transaction.atomic():
            lock_sheets_first(dependents(pairing))
            t = locked(pairing.tournament)
            first = Result.objects.filter(key=key).first()
            if first is not None:
                return _repeated(first, pairing, winner, score)
            pairing = Pairing.objects.select_related("round").get(pk=pairing.pk)
            check_entry(t, pairing, winner, score)
            if (
                t.result_check == ResultCheck.CONFIRM
                and actor.via_link
                and not (from_sheet or reported)
            ):
                raise RuleError("pairing", REPORT_ONLY)
            live = Result.objects.live_for(pairing)
            if live is not None and not correct and (live.winner_id, live.score) == (winner, score):
                return live  # the same result sent again (or by two at once): nothing to do
            if seen is not NOT_CHECKED and (live.pk if live else None) != seen:
                raise StaleResult(live)
            if live is None:
                refuse_walkover(pairing)
            if live is not None:
                if not correct:
                    if actor.organiser:
                        raise RuleError(
                            "pairing",
                            gettext_noop("This match already has a result: correct it instead."),
                        )
                    raise RuleError(
                        "pairing", RESULT_STANDS[result_source(live)], **result_params(live)
                    )
                check_editable(t, pairing)
                Result.objects.filter(pk=live.pk).update(
                    voided_at=timezone.now(), voided_by_id=actor.user_id
                )
                void_dependents(t, pairing)
            result = Result.objects.create(
                pairing=pairing,
                winner_id=winner,
                score=score,
                key=key,
                recorded_by_id=actor.user_id,
                via_link=actor.via_link,
                from_sheet=from_sheet,
                reported_side=sides[0],
                confirmed_side=sides[1],
            )
            result.recorded_by = actor.user if actor.user_id else None
            # Whatever made the result final, the reports still waiting are answered.
            Report.objects.open().filter(pairing=pairing).update(
                closed_at=timezone.now(), outcome=Outcome.SET_ASIDE
            )
            lock_for_result(pairing, result)
            audit.record(
                t.club_id,
                "tournament",
                t.pk,
                reported or (Action.RESULT_CORRECTED if live else Action.RESULT_RECORDED),
                actor=actor,
                before=_audit_result(live),
                after=_audit_result(result),
            )
            if pairing.stage == Stage.PLACEMENT:
                create_placement(t, actor, pairing.round)
            result_changed.send(Pairing, pairing=pairing)
            return result
    except IntegrityError:
        # Two phones sent results for one match at once: the first one stands.
        existing = Result.objects.filter(key=key).first()
        if existing is not None:
            return _repeated(existing, pairing, winner, score)
        live = Result.objects.live_for(pairing)
        raise StaleResult(live) from None


def _repeated(first: Result, pairing: Pairing, winner: int, score: str) -> Result:
    """The result a one-time key recorded, when this submit repeats it; RuleError on
    ``key`` when the key was used for another result (an old page's form)."""
    if (first.pairing_id, first.winner_id, first.score) != (pairing.pk, winner, score):
        raise key_reused()
    return first


def void_result(pairing: Pairing, actor: Actor, seen=NOT_CHECKED) -> None:
    """Void the live result of a match (it stays in the history); refused once the next
    round is drawn, and (``StaleResult``) when another result than ``seen`` (the live
    result's id the form showed) stands now. Its score sheet takes deals again."""
    with transaction.atomic():
        lock_sheets_first(dependents(pairing))
        t = locked(pairing.tournament)
        pairing = Pairing.objects.select_related("round").get(pk=pairing.pk)
        live = Result.objects.live_for(pairing)
        if live is None:
            return  # voided meanwhile: what the user wanted
        if seen is not NOT_CHECKED and live.pk != seen:
            raise StaleResult(live)
        check_editable(t, pairing)
        Result.objects.filter(pk=live.pk).update(
            voided_at=timezone.now(), voided_by_id=actor.user_id
        )
        void_dependents(t, pairing)
        gone = withdrawn_in(pairing) if pairing.sheet_id is not None else []
        if gone:  # without its result the match is a withdrawal's walkover
            card = gone[0]
            lock_sheet(
                pairing.sheet_id, "closed", SHEET_WITHDRAWN, name=card.player.name, card=card.number
            )
        else:
            unlock_sheet(pairing.sheet_id)
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            Action.RESULT_VOIDED,
            actor=actor,
            before=_audit_result(live),
        )
        result_changed.send(Pairing, pairing=pairing)


def follow_match_sheet(sender, sheet, state, key, **kwargs) -> None:
    """Receiver of ``scoring.signals.sheet_changed``: a match played on a score sheet has
    the result its sheet shows. What the sheet says is kept on the pairing (the desk flags
    a sheet that contradicts the stored result). A decided Partie records (or corrects)
    the match result; a correction on the sheet that undoes the Partie voids the result
    the sheet made. A RuleError (the next round is drawn already) refuses the change on
    the sheet. A result entered by hand is left alone: the organiser decides. Once a
    result stands only organisers still write on the sheet (``Sheet.write_refusal``)."""
    pairing = Pairing.objects.filter(sheet=sheet).select_related("tournament").first()
    if pairing is None:
        return
    actor = kwargs.get("actor") or audit.VIA_LINK
    winner = state.partie_winner
    winner_card = None if winner is None else (pairing.left_id if winner == 0 else pairing.right_id)
    score = "" if winner is None else f"{state.tally[1 - winner]}:{state.tally[winner]}"
    Pairing.objects.filter(pk=pairing.pk).update(sheet_winner_id=winner_card, sheet_score=score)
    pairing.sheet_winner_id, pairing.sheet_score = winner_card, score
    live = Result.objects.live_for(pairing)
    if live is not None and not live.from_sheet:
        return
    if winner is None:
        if live is not None:
            void_result(pairing, actor)
        return
    if live is not None and (live.winner_id, live.score) == (winner_card, score):
        return
    result_key = uuid.uuid5(uuid.NAMESPACE_URL, f"bummerl:sheet:{sheet.pk}:{key or uuid.uuid4()}")
    write = correct_result if live is not None else record_result
    write(pairing, winner_card, score, result_key, actor, from_sheet=True)
