"""The audit trail: ``record`` is called by the services inside their transactions."""

from dataclasses import dataclass
from typing import Any

from clubs.models import AuditEntry


@dataclass(frozen=True)
class Account:
    """An actor for ``record``: a signed-in account (``user_id`` None: the system, e.g. a
    management command run without a user)."""

    user_id: int | None
    via_link: bool = False


def by(user) -> Account:
    """The actor ``user`` (an account, or None)."""
    return Account(getattr(user, "pk", None))


def record(
    club_id: int,
    scope: str,
    scope_id: int,
    action: str,
    actor,
    before: Any = None,
    after: Any = None,
) -> None:
    """Keep one change: ``actor`` has ``user_id`` (or None) and ``via_link``; ``before`` and
    ``after`` are JSON-able values (None where there is nothing)."""
    AuditEntry.objects.create(
        club_id=club_id,
        scope=scope,
        scope_id=scope_id,
        action=action,
        actor_id=getattr(actor, "user_id", None),
        via_link=getattr(actor, "via_link", False),
        before=before,
        after=after,
    )


def history(scope: str, scope_id: int):
    return AuditEntry.objects.filter(scope=scope, scope_id=scope_id).select_related("actor")
