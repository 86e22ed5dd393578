"""The only writers of organising bodies, their member clubs and cups, and of the
nights a cup counts. Each runs in one transaction, locks the body (two admins at once
cannot both add the same club or night), keeps the change in the body's or cup's
history (``clubs.audit``, entries of no club) and is safe to send twice: a one-time key
where the form makes something new, else the state itself (a club that is a member
already, a night that is counted already, is left as it is).

Who may do what is the views' question (``cups.access``); what may stand is decided
here, with a ``RuleError`` naming the field.
"""

import datetime as dt
import uuid
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from base.errors import RuleError, gettext_noop, key_reused
from clubs import audit
from clubs.audit import Action
from clubs.models import Club
from cups.models import AdminInvitation, Body, Cup, Member, Night, new_join_token
from seasons import ranking
from tournaments.models import Tournament

NAME_MAX = 100
CATEGORY_MAX = 60


def user_of(actor: audit.Actor) -> User | None:
    """The actor's account (None: the system, a link's holder)."""
    user = actor.user if actor.user_id is not None else None
    return user if isinstance(user, User) else None


def locked_body(body: Body) -> Body:
    return Body.objects.select_for_update(no_key=True).get(pk=body.pk)


def _name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise RuleError("name", gettext_noop("Give it a name."))
    if len(name) > NAME_MAX:
        raise RuleError("name", gettext_noop("At most 100 characters."))
    return name


def _slug(slug: str, name: str) -> str:
    slug = slugify(slug or name)[:50]
    if not slug:
        raise RuleError("slug", gettext_noop("Give a short name of letters and digits."))
    return slug


# -- bodies ------------------------------------------------------------------------------


def create_body(name: str, slug: str, *, actor: audit.Actor, key: uuid.UUID) -> Body:
    """A new body; whoever creates it is its first admin. RuleError on ``name`` (empty),
    ``slug`` (taken), ``key`` (used for another body)."""
    name = _name(name)
    slug = _slug(slug, name)
    with transaction.atomic():
        earlier = Body.objects.filter(key=key).first()
        if earlier is not None:
            if (earlier.name, earlier.slug) != (name, slug):
                raise key_reused()
            return earlier
        if Body.objects.filter(slug=slug).exists():
            raise RuleError("slug", gettext_noop("This short name is taken already."))
        body = Body.objects.create(name=name, slug=slug, key=key)
        user = user_of(actor)
        if user is not None:
            body.admins.add(user)
        audit.record(
            None,
            "body",
            body.pk,
            Action.BODY_CREATED,
            actor=actor,
            after={"name": name, "slug": slug},
        )
    return body


def invite_admin(body: Body, username: str, *, actor: audit.Actor) -> AdminInvitation | None:
    """Invite the account ``username`` to be an admin of ``body``: it becomes one when
    it accepts (``answer_admin``). An admin already: None; invited already: the open
    invitation. RuleError on ``username`` for no such account."""
    user = User.objects.filter(username=username.strip()).first()
    if user is None:
        raise RuleError("username", gettext_noop("There is no account %(name)s."), name=username)
    with transaction.atomic():
        body = locked_body(body)
        if body.admins.filter(pk=user.pk).exists():
            return None
        open_ = AdminInvitation.objects.filter(
            body=body, user=user, accepted_at__isnull=True, ended_at__isnull=True
        ).first()
        if open_ is not None:
            return open_
        invitation = AdminInvitation.objects.create(body=body, user=user, invited_by=user_of(actor))
        audit.record(
            None,
            "body",
            body.pk,
            Action.BODY_ADMIN_INVITED,
            actor=actor,
            after={"user": user.get_username()},
        )
    return invitation


def answer_admin(invitation: AdminInvitation, *, accept: bool, actor: audit.Actor) -> bool:
    """The invited account accepts (it becomes an admin of the body) or declines its
    invitation; returns whether it is an admin now. An invitation answered
    already changes nothing. Only the invited account answers (the view checks)."""
    with transaction.atomic():
        body = locked_body(invitation.body)
        found = AdminInvitation.objects.select_for_update(no_key=True).get(pk=invitation.pk)
        if found.accepted_at is not None or found.ended_at is not None:
            return body.admins.filter(pk=found.user_id).exists()
        now = timezone.now()
        if accept:
            found.accepted_at = now
            found.save(update_fields=["accepted_at"])
            body.admins.add(found.user_id)
        else:
            found.ended_at = now
            found.save(update_fields=["ended_at"])
        audit.record(
            None,
            "body",
            body.pk,
            Action.BODY_ADMIN_ADDED if accept else Action.BODY_ADMIN_DECLINED,
            actor=actor,
            after={"user": found.user.get_username()},
        )
    return accept


def open_invitations(user: User) -> list[AdminInvitation]:
    """The account's invitations to be an admin that wait for its answer."""
    return list(
        AdminInvitation.objects.filter(user=user, accepted_at__isnull=True, ended_at__isnull=True)
        .select_related("body", "invited_by")
        .order_by("invited_at", "id")
    )


def renew_join_link(body: Body, *, actor: audit.Actor) -> Body:
    """A new join link; the old one stops working (the token is not logged)."""
    with transaction.atomic():
        body = locked_body(body)
        body.join_token = new_join_token()
        body.save(update_fields=["join_token"])
        audit.record(None, "body", body.pk, Action.BODY_JOIN_LINK_RENEWED, actor=actor)
    return body


def join(body: Body, club: Club, token: str, *, actor: audit.Actor) -> Member:
    """``club`` joins ``body`` by its join link (``token``: the link the owner opened);
    a club that is a member already stays one (its membership is returned). RuleError on
    ``token`` when the link was renewed since."""
    with transaction.atomic():
        body = locked_body(body)
        if token != body.join_token:
            raise RuleError(
                "token", gettext_noop("This join link is no longer valid: ask for the new one.")
            )
        member = Member.objects.live().filter(body=body, club=club).first()
        if member is not None:
            return member
        member = Member.objects.create(body=body, club=club, joined_by=user_of(actor))
        audit.record(
            None,
            "body",
            body.pk,
            Action.BODY_CLUB_JOINED,
            actor=actor,
            after={"club": club.name, "slug": club.slug},
        )
    return member


def remove_club(body: Body, club: Club, *, actor: audit.Actor) -> Member | None:
    """Take ``club`` out of ``body`` (its row kept with ``left_at``); its nights stay
    counted in the cups. None when it was no member."""
    with transaction.atomic():
        body = locked_body(body)
        member = Member.objects.live().filter(body=body, club=club).first()
        if member is None:
            return None
        member.left_at = timezone.now()
        member.removed_by = user_of(actor)
        member.save(update_fields=["left_at", "removed_by"])
        audit.record(
            None,
            "body",
            body.pk,
            Action.BODY_CLUB_REMOVED,
            actor=actor,
            before={"club": club.name, "slug": club.slug},
        )
    return member


def is_member(body: Body, club_id: int) -> bool:
    return Member.objects.live().filter(body=body, club_id=club_id).exists()


# -- cups --------------------------------------------------------------------------------


@dataclass(frozen=True)
class CupSettings:
    """What the cup's form sets (see ``cups.models.Cup``)."""

    name: str
    slug: str
    first_day: dt.date
    last_day: dt.date
    points_key: list[ranking.KeyLine]
    participation: int = 1
    best_of: int | None = None
    categories: tuple[str, ...] = ()
    qualify_top: int | None = None
    qualify_per_heat: int | None = None
    final: Tournament | None = None


def _cup_dict(cup: Cup) -> dict:
    return {
        "name": cup.name,
        "slug": cup.slug,
        "first_day": cup.first_day.isoformat(),
        "last_day": cup.last_day.isoformat(),
        "points_key": ranking.key_text(cup.key_lines),
        "participation": cup.participation,
        "best_of": cup.best_of,
        "categories": list(cup.categories),
        "qualify_top": cup.qualify_top,
        "qualify_per_heat": cup.qualify_per_heat,
        "final": cup.final.name if cup.final is not None else None,
    }


def _categories(names: tuple[str, ...]) -> list[str]:
    """The category names cleaned, each once (compared case-folded), in the order typed."""
    found: list[str] = []
    for raw in names:
        name = " ".join(raw.split())
        if len(name) > CATEGORY_MAX:
            raise RuleError("categories", gettext_noop("A category has at most 60 characters."))
        if name and name.casefold() not in {f.casefold() for f in found}:
            found.append(name)
    return found


def save_cup(
    body: Body,
    settings: CupSettings,
    *,
    actor: audit.Actor,
    key: uuid.UUID,
    cup: Cup | None = None,
) -> Cup:
    """Create a cup of ``body`` (``cup`` None) or change ``cup``. RuleError on ``name``,
    ``slug`` (taken in the body), ``last_day`` (before the first), ``best_of`` (below 1),
    ``final`` (a night of a club that is no member, or a night counted in the cup: a
    final is not one of the nights it qualifies for; ``count_night`` refuses the other
    way round), ``key`` (used for something else)."""
    name = _name(settings.name)
    slug = _slug(settings.slug, name)
    if settings.last_day < settings.first_day:
        raise RuleError("last_day", gettext_noop("The last day comes before the first day."))
    for field in ("best_of", "qualify_top", "qualify_per_heat"):
        value = getattr(settings, field)
        if value is not None and value < 1:
            raise RuleError(field, gettext_noop("At least 1, or leave it empty."))
    categories = _categories(settings.categories)
    with transaction.atomic():
        body = locked_body(body)
        earlier = Cup.objects.filter(key=key).first()
        if earlier is not None:
            if earlier.body_id != body.pk or (cup is not None and earlier.pk != cup.pk):
                raise key_reused()
            return earlier
        others = Cup.objects.filter(body=body, slug=slug)
        if cup is not None:
            others = others.exclude(pk=cup.pk)
        if others.exists():
            raise RuleError("slug", gettext_noop("This short name is taken already."))
        final = settings.final
        if final is not None and not is_member(body, final.club_id):
            raise RuleError("final", gettext_noop("The final is a night of a member club."))
        if (
            final is not None
            and cup is not None
            and cup.nights.live().filter(tournament=final).exists()
        ):
            raise RuleError(
                "final",
                gettext_noop("This night counts in the cup: take it out first, or choose another."),
            )
        before = None
        if cup is None:
            cup = Cup(body=body)
        else:
            cup = Cup.objects.select_for_update(no_key=True).get(pk=cup.pk, body=body)
            before = _cup_dict(cup)
        cup.name, cup.slug = name, slug
        cup.first_day, cup.last_day = settings.first_day, settings.last_day
        cup.points_key = [[k.first, k.last, k.points] for k in settings.points_key]
        cup.participation, cup.best_of = settings.participation, settings.best_of
        cup.categories = categories
        cup.qualify_top, cup.qualify_per_heat = settings.qualify_top, settings.qualify_per_heat
        if cup.final_id != (final.pk if final is not None else None):
            cup.final_accepted_at, cup.final_accepted_by = None, None  # proposed afresh
        cup.final, cup.key = final, key
        cup.save()
        audit.record(
            None, "cup", cup.pk, Action.CUP_SAVED, actor=actor, before=before, after=_cup_dict(cup)
        )
    return cup


# -- the nights of a cup -----------------------------------------------------------------


def count_night(cup: Cup, tournament: Tournament, *, heat: str = "", actor: audit.Actor) -> Night:
    """Count ``tournament`` in ``cup`` (in ``heat``); counted already: the night stays
    as it is and is returned. RuleError on ``tournament`` for a night of a club that is
    no member of the cup's body, or the cup's own final; on ``heat`` (too long)."""
    heat = " ".join(heat.split())
    if len(heat) > 40:
        raise RuleError("heat", gettext_noop("At most 40 characters."))
    with transaction.atomic():
        locked_body(cup.body)
        found = Night.objects.live().filter(cup=cup, tournament=tournament).first()
        if found is not None:
            return found
        if not is_member(cup.body, tournament.club_id):
            raise RuleError(
                "tournament", gettext_noop("Only nights of the body's member clubs count.")
            )
        if cup.final_id == tournament.pk:
            raise RuleError("tournament", gettext_noop("The cup's final is not one of its nights."))
        try:
            with transaction.atomic():
                night = Night.objects.create(
                    cup=cup, tournament=tournament, heat=heat, added_by=user_of(actor)
                )
        except IntegrityError:  # the constraint, should the lock be bypassed
            return Night.objects.live().get(cup=cup, tournament=tournament)
        audit.record(
            None,
            "cup",
            cup.pk,
            Action.CUP_NIGHT_ADDED,
            actor=actor,
            after=_night_dict(night),
        )
    return night


def _night_dict(night: Night) -> dict:
    t = night.tournament
    return {
        "night": t.name,
        "club": t.club.name,
        "day": f"{timezone.localtime(t.starts_at):%d.%m.%Y}",
        **({"heat": night.heat} if night.heat else {}),
    }


def remove_night(night: Night, *, actor: audit.Actor) -> Night:
    """Take a night out of its cup (the row kept with ``removed_at``); taken out
    already: nothing changes."""
    with transaction.atomic():
        locked_body(night.cup.body)
        night = Night.objects.select_for_update(no_key=True).get(pk=night.pk)
        if night.removed_at is not None:
            return night
        night.removed_at = timezone.now()
        night.removed_by = user_of(actor)
        night.save(update_fields=["removed_at", "removed_by"])
        audit.record(
            None,
            "cup",
            night.cup_id,
            Action.CUP_NIGHT_REMOVED,
            actor=actor,
            before=_night_dict(night),
        )
    return night


def cups_for_night(tournament: Tournament) -> list[Cup]:
    """The cups an organiser may tick for his night: those of the bodies his club is a
    member of, whose days hold the night's day, the night's own final left out."""
    day = timezone.localdate(tournament.starts_at)
    return list(
        Cup.objects.filter(
            body__members__club_id=tournament.club_id,
            body__members__left_at__isnull=True,
            first_day__lte=day,
            last_day__gte=day,
        )
        .exclude(final=tournament)
        .select_related("body")
        .order_by("body__name", "name", "id")
        .distinct()
    )


def set_ticks(
    tournament: Tournament, ticked: set[int], *, actor: audit.Actor
) -> tuple[list[Night], list[Night]]:
    """The organiser's ticks on his night: the night counts in the ticked cups (ids of
    ``cups_for_night``) and in none other of them; returns the nights added and taken
    out. A cup he was not offered is left as it is (RuleError on ``cups`` when ticked)."""
    offered = {cup.pk: cup for cup in cups_for_night(tournament)}
    if ticked - set(offered):
        raise RuleError("cups", gettext_noop("This night cannot count in that cup."))
    added, removed = [], []
    with transaction.atomic():
        live = {
            n.cup_id: n
            for n in Night.objects.live().filter(tournament=tournament, cup_id__in=offered)
        }
        for pk, cup in offered.items():
            if pk in ticked and pk not in live:
                added.append(count_night(cup, tournament, actor=actor))
            elif pk not in ticked and pk in live:
                removed.append(remove_night(live[pk], actor=actor))
    return added, removed


# -- the final: proposed by the cup, accepted by the club ---------------------------------


def answer_final(cup: Cup, tournament: Tournament, *, accept: bool, actor: audit.Actor) -> Cup:
    """An organiser (or owner) of ``tournament``'s club accepts it as ``cup``'s final,
    or declines it (the cup has no final then). Kept in the night's history and in the
    cup's. RuleError on ``final`` when the cup proposes another night (or none) now;
    accepted already and accepted again: nothing changes."""
    with transaction.atomic():
        locked_body(cup.body)
        cup = Cup.objects.select_for_update(no_key=True).get(pk=cup.pk)
        if cup.final_id != tournament.pk:
            raise RuleError("final", gettext_noop("The cup no longer proposes this night."))
        if accept and cup.final_accepted_at is not None:
            return cup
        if accept:
            cup.final_accepted_at, cup.final_accepted_by = timezone.now(), user_of(actor)
        else:
            cup.final, cup.final_accepted_at, cup.final_accepted_by = None, None, None
        cup.save(update_fields=["final", "final_accepted_at", "final_accepted_by"])
        action = Action.CUP_FINAL_ACCEPTED if accept else Action.CUP_FINAL_DECLINED
        what = {"cup": cup.name, "body": cup.body.name, "night": tournament.name}
        audit.record(
            tournament.club_id, "tournament", tournament.pk, action, actor=actor, after=what
        )
        audit.record(None, "cup", cup.pk, action, actor=actor, after=what)
    return cup


def proposed_finals(tournament: Tournament) -> list[Cup]:
    """The cups that propose ``tournament`` as their final (accepted or not)."""
    return list(Cup.objects.filter(final=tournament).select_related("body").order_by("name", "id"))
