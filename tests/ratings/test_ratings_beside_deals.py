"""Re-ratings run beside the phones' deals: the worker re-rates a club (``ratings.
services.rerate_club``) while its tables record deals, and neither waits on the other in
a circle (``base.locks``: one lock order for every writer and job). Real threads on
real connections against the test database; on PostgreSQL the race the order guards
against is real (a deal held its sheet's row and waited for the club's, a re-rating
held the club's and waited for the sheet's)."""

import threading
import uuid

import pytest
from django.db import connection

from ratings.models import RatedGame
from ratings.services import rerate_club, stored_history
from scoring import services
from tests import factories

pytestmark = pytest.mark.heavy  # some 50 s on PostgreSQL
TABLES = 4
DEALS = 2000


def test_deals_and_re_ratings_side_by_side_end_without_an_error(transactional_db):
    club = factories.club()
    sheets = [factories.sheet(club, names=(f"A{n}", f"B{n}", f"C{n}")) for n in range(TABLES)]
    errors: list[BaseException] = []
    recorded = [0] * TABLES
    done = threading.Event()

    def phone(n: int) -> None:
        try:
            for _ in range(DEALS // TABLES):
                services.record_entry(
                    sheets[n], factories.next_entry(sheets[n]), uuid.uuid4(), services.Actor()
                )
                recorded[n] += 1
        except BaseException as error:  # noqa: BLE001 (every error is the test's finding)
            errors.append(error)
        finally:
            connection.close()

    rerated = [0]

    def worker() -> None:
        try:
            while not done.is_set():
                rerate_club(club.pk)
                rerated[0] += 1
        except BaseException as error:  # noqa: BLE001
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(TABLES)]
    rater = threading.Thread(target=worker)
    rater.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done.set()
    rater.join()
    assert errors == []
    assert sum(recorded) == DEALS
    assert rerated[0] > 1
    # The ratings end as rating every game from scratch gives them.
    rerate_club(club.pk)
    kept = stored_history(club.pk, "dreierschnapsen")
    RatedGame.objects.filter(club=club).delete()
    rerate_club(club.pk)
    assert stored_history(club.pk, "dreierschnapsen") == kept
    assert len(kept) > 0
