"""The desk page's context is one typed object, built once for every format."""

import pytest

from clubs.access import Access
from clubs.models import Role
from scoring.services import Actor
from tests import factories
from tournaments.models import ResultCheck
from tournaments.services.reading import load_state
from tournaments.views.desk_page import DeskContext, desk_context

pytestmark = pytest.mark.django_db


def _desk(**fields) -> DeskContext:
    club = factories.club()
    t = factories.tournament(club, **({"cards": 8, "sold": 4} | fields))
    access = Access(club=club, role=Role.ORGANISER, actor=Actor())
    return desk_context(t, access, load_state(t))


def test_a_card_nights_desk_has_the_tables_and_no_standings_board():
    desk = _desk()
    context = desk.as_context()
    assert isinstance(desk, DeskContext)
    assert {"tables_form", "waiting", "category_lists", "prizes"} <= context.keys()
    assert not {"board", "life_buyers", "life_price"} & context.keys()
    assert context["players_in"] == 4
    assert context["draw_refusal"] and context["lower_to"] == 4  # 4 of 8 cards sold


def test_a_leben_desk_fills_the_same_object_from_its_board():
    desk = _desk(format="leben", lives=2, max_cards=1, prizes=[])
    context = desk.as_context()
    assert {"board", "life_buyers", "life_price"} <= context.keys()
    # the players' reports and their checks as on every desk; no table numbers
    assert {"waiting", "result_checks", "new_key"} <= context.keys()
    assert "tables_form" not in context
    assert context["waiting"] == []  # nobody has reported yet
    assert [value for value, _label in context["result_checks"]] == [c.value for c in ResultCheck]
    assert desk.life_buyers == set()  # two lives each, the most allowed
    assert context["players_in"] == 4
