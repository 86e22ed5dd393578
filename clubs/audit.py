"""The audit trail: ``record`` is called by the services inside their transactions."""

from typing import Any

from clubs.models import AuditEntry


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
