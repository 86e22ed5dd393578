"""Every cup URL, walked as a member of another club and as an admin of another body:
the admin pages answer 404 (or 403), never a page with the body's data; the public cup
page, its rating list and the join link (whose token is the secret) are the only answers
for anyone."""

import pytest
from django.urls import URLPattern, get_resolver, reverse

from clubs import audit
from clubs.models import Player
from cups import persons, services
from cups.urls import urlpatterns
from tests import factories

pytestmark = pytest.mark.django_db

PUBLIC = {"cup", "cup_print", "cup_json", "cup_ratings", "join", "bodies"}
"""Open to anyone (the cup page, its printout and JSON), to the holder of the join link, or the
visitor's own list of bodies (checked below to show none of another body)."""


@pytest.fixture
def world():
    admin = factories.user()
    club = factories.club(name="Heim")
    body = factories.body(admin, name="Geheimverband", clubs=(club,))
    cup = factories.cup(body, name="Geheimcup")
    t = factories.played_night(club, ["Anna Geheim", "Ben"])
    night = services.count_night(cup, t, actor=audit.SYSTEM)
    player = Player.objects.get(club=club, name="Anna Geheim")
    link = persons.link_player(body, player, None, actor=audit.SYSTEM)
    invitation = services.invite_admin(
        body, factories.user(username="eingeladen").username, actor=audit.SYSTEM
    )
    cup.final = factories.tournament(club, name="Geheimfinale")
    cup.save()
    kwargs = {
        "invitation_id": invitation.pk if invitation else 0,
        "cup_id": cup.pk,
        "slug": body.slug,
        "cup_slug": cup.slug,
        "club_id": club.pk,
        "night_id": night.pk,
        "link_id": link.pk,
        "token": body.join_token,
        "tournament_id": t.pk,
    }
    return body, club, kwargs


def every_url(body, club, kwargs) -> dict[str, str]:
    found = {}
    for pattern in urlpatterns:
        assert isinstance(pattern, URLPattern)
        names = set(pattern.pattern.converters)
        given = {k: v for k, v in kwargs.items() if k in names}
        if pattern.name in ("tick", "answer_final"):
            given["slug"] = club.slug
        found[pattern.name] = reverse(f"cups:{pattern.name}", kwargs=given)
    return found


def outsiders():
    other_club = factories.club(name="Fremd")
    member = factories.user(other_club, role="owner")
    other_admin = factories.user()
    factories.body(other_admin, name="Anderer Verband", clubs=(other_club,))
    return {"member of another club": member, "admin of another body": other_admin}


def test_every_cup_url_is_walked():
    assert len(urlpatterns) == 23 and get_resolver().resolve("/bodies/")


@pytest.mark.parametrize("who", ["member of another club", "admin of another body"])
def test_no_cup_admin_url_answers_an_outsider(client, world, who):
    body, club, kwargs = world
    client.force_login(outsiders()[who])
    for name, url in every_url(body, club, kwargs).items():
        response = client.get(url)
        if response.status_code == 405:
            response = client.post(
                url, {"cup": "1", "username": "x", "person": "new", "answer": "accept"}
            )
        if name in PUBLIC:
            if name == "bodies":
                assert "Geheimverband" not in response.content.decode()
            continue
        assert response.status_code in (403, 404), (name, response.status_code)
        assert "Geheim" not in response.content.decode()
    assert body.admins.count() == 1 and body.members.live().count() == 1
    assert body.invitations.get().accepted_at is None
    assert not body.cups.get().final_accepted
    assert body.links.live().count() == 1 and body.cups.get().nights.live().count() == 1


def test_the_public_page_needs_no_account_and_shows_the_standings(client, world):
    body, club, kwargs = world
    response = client.get(reverse("cups:cup", kwargs={"slug": body.slug, "cup_slug": "geheimcup"}))
    assert response.status_code == 200 and "Anna Geheim" in response.content.decode()
    for name in ("body", "cup_admin", "links"):
        url = every_url(body, club, kwargs)[name]
        assert client.get(url).status_code == 302  # to sign in
