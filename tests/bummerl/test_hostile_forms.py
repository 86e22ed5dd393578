"""Hypothesis drives the site's forms with random and malformed values: never a server
error, and every refusal says which field is wrong."""

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import factories

pytestmark = pytest.mark.django_db

# Values a phone, a broken client or an attacker might send: text of any kind (no NUL,
# which the site refuses as a whole with 400), numbers far out of range, empty strings.
junk = st.one_of(
    st.text(
        alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)),
        max_size=40,
    ),
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
    st.sampled_from(["", "0", "1", "2", "3", "-1", "normal", "gang", "true", "yes", "ß", "9" * 50]),
)
SLOW = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture
def world(db):
    """One club for all examples of a test (hypothesis reuses it: the function-scoped
    fixture check is suppressed on purpose; the examples only add to it)."""
    from scoring.services import Actor
    from tournaments.services.cards import create_tournament

    factories.presets()
    club = factories.club()
    sheet = factories.sheet(club)
    two = factories.sheet(club, names=("Xaver", "Yvonne"))
    user = factories.user(club, role="owner")
    t = create_tournament(
        club,
        Actor(user),
        name="F",
        starts_at="2026-12-01T19:00:00+01:00",
        cards=8,
        max_cards=2,
        match_bummerl=2,
        entry_fee=1,
        one_prize_per_player=False,
        prizes=[],
    )
    return club, sheet, two, user, t


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


def field_named(response, fields) -> bool:
    """A refusal names a field: the form has errors, or the page says what is wrong."""
    context = response.context or {}
    for key in ("form", "sell_form"):
        form = context.get(key) if hasattr(context, "get") else None
        if form is not None and form.errors:
            return all(name == "__all__" or name in fields for name in form.errors)
    return True


@SLOW
@given(
    declarer=junk,
    contract=junk,
    won=junk,
    spritzen=junk,
    points=junk,
    kind=st.sampled_from(["dreier", "tiebreak", "redeal", "quick", "ended", "x"]),
)
def test_the_deal_form_never_fails(world, declarer, contract, won, spritzen, points, kind):
    _club, sheet, _two, user, _t = world
    response = client_for(user).post(
        reverse("sheet:record", kwargs={"pk": sheet.pk}),
        {
            "key": factories.key(),
            "kind": kind,
            "declarer": declarer,
            "contract": contract,
            "won": won,
            "spritzen": spritzen,
            "normal_points": points,
        },
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200


@SLOW
@given(end=junk, by=junk, augen=junk, trick=junk, winner=junk, points=junk)
def test_the_two_player_forms_never_fail(world, end, by, augen, trick, winner, points):
    _club, _sheet, two, user, _t = world
    client = client_for(user)
    url = reverse("sheet:record", kwargs={"pk": two.pk})
    for data in (
        {"kind": "ended", "end": end, "by": by, "other_augen": augen, "other_had_trick": trick},
        {"kind": "quick", "winner": winner, "points": points},
    ):
        response = client.post(url, {"key": factories.key(), **data})
        assert response.status_code in (200, 302)


@SLOW
@given(name=junk, count=junk, variant=junk, p1=junk, p2=junk, p3=junk, rules=junk)
def test_club_forms_never_fail(world, name, count, variant, p1, p2, p3, rules):
    club, _sheet, _two, user, t = world
    client = client_for(user)
    response = client.post(reverse("players", kwargs={"slug": club.slug}), {"name": name})
    assert response.status_code in (200, 302)
    assert response.status_code == 302 or field_named(response, {"name"})
    response = client.post(
        reverse("open_table", kwargs={"slug": club.slug}),
        {
            "key": factories.key(),
            "variant": variant,
            "player_1": p1,
            "player_2": p2,
            "player_3": p3,
            "rule_set": rules,
        },
    )
    assert response.status_code in (200, 302)
    assert response.status_code == 302 or field_named(
        response, {"key", "variant", "player_1", "player_2", "player_3", "rule_set", "title"}
    )
    response = client.post(
        reverse("sell", kwargs={"slug": club.slug, "tournament_id": t.pk}),
        {"key": factories.key(), "name": name, "count": count},
    )
    assert response.status_code in (200, 302)
    response = client.post(
        reverse("tournaments", kwargs={"slug": club.slug}),
        {
            "name": name,
            "day": variant,
            "time": count,
            "cards": p1,
            "max_cards": p2,
            "match_bummerl": p3,
            "entry_fee": rules,
            "prizes": name,
        },
    )
    assert response.status_code in (200, 302)


@SLOW
@given(
    document=st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=10)),
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(
                st.sampled_from(
                    [
                        "variant",
                        "players",
                        "deals",
                        "rule_set",
                        "contract",
                        "declarer",
                        "won",
                        "winner",
                        "points",
                        "end",
                        "by",
                    ]
                ),
                inner,
                max_size=5,
            ),
        ),
        max_leaves=20,
    )
)
def test_the_import_never_fails(world, document):
    import json

    club, _sheet, _two, user, _t = world
    response = client_for(user).post(
        reverse("import_table", kwargs={"slug": club.slug}), {"document": json.dumps(document)}
    )
    assert response.status_code in (200, 302)
    assert response.status_code == 302 or field_named(
        response, {"document", "file", "title", "key"}
    )
