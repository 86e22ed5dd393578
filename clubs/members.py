"""Starting a club and running who belongs to it: founding a club, the owner's members
page (invitations, roles, removal, password reset links), and the invitation link.

Access: any signed-in account may found a club; the members page and its writes are
for the club's owners (``club_for(..., Role.OWNER)``); an invitation link is open to
anyone who holds it (signed in: joins; anonymous: creates an account and joins).
Pages that carry secret links are never cached by the browser.
"""

from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from base.errors import RuleError
from base.links import absolute_url
from clubs import invitations, services
from clubs.access import club_for
from clubs.forms import (
    ClubFaceForm,
    ClubForm,
    ClubNameForm,
    EmailForm,
    InvitationForm,
    JoinForm,
    RoleForm,
    put_rule_error,
    rule_error_text,
)
from clubs.models import Invitation, Membership, Role

# Django's own sign-in backend (the site has two: django-axes' and this one).
BACKEND = "django.contrib.auth.backends.ModelBackend"


def qr(url: str) -> str:
    """A QR code of ``url`` as inline SVG, black on white (as the table's entry link)."""
    return segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def club_new(request):
    """Found a club: the account that founds it is its owner."""
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.create_club(
                form.cleaned_data["name"], request.user, form.cleaned_data["key"]
            )
        except RuleError as error:
            # a refused key gets a new one: sending again founds a club anew
            put_rule_error(form, error, shown=form.fields)
        else:
            messages.success(
                request,
                _("%(club)s is founded and you are its owner. Invite the members now.")
                % {"club": club.name},
            )
            return redirect("members", slug=club.slug)
    return render(request, "clubs/club_new.html", {"form": form})


def _join_url(request, invitation: Invitation) -> str:
    return absolute_url(request, reverse("join", kwargs={"token": invitation.token}))


def _members_page(
    request,
    club,
    *,
    form=None,
    reset=None,
    error=None,
    status=200,
    email_form=None,
    email_for=None,
    rename_form=None,
    face_form=None,
):
    members = list(
        Membership.objects.filter(club=club).select_related("user").order_by("user__username", "id")
    )
    new = request.GET.get("new", "")
    invitations = []
    for invitation in Invitation.objects.open().filter(club=club).select_related("created_by"):
        url = _join_url(request, invitation)
        invitations.append(
            {
                "invitation": invitation,
                "url": url,
                "qr": qr(url),
                "new": str(invitation.pk) == new,
            }
        )
    owners = sum(1 for m in members if m.role == Role.OWNER)
    locked = set(services.locked_out(club))
    for m in members:  # the template's own attributes of each member
        m.locked = m.user.get_username() in locked  # type: ignore[attr-defined]
        # the form sent for this member, with its error; else his address as it is
        m.email_form = (  # type: ignore[attr-defined]
            email_form
            if email_for == m.pk
            else EmailForm(initial={"email": m.user.email}, auto_id=f"id_%s_{m.pk}")
        )
    owner_ids = {m.user_id for m in members if m.role == Role.OWNER and m.user.is_active}
    for item in invitations:
        # an invitation works only while its maker is an owner (invitations.invitation_refusal)
        item["dead"] = item["invitation"].created_by_id not in owner_ids
    return render(
        request,
        "clubs/members.html",
        {
            "club": club,
            "members": members,
            "owners": owners,
            "invitations": invitations,
            "form": form or InvitationForm(),
            "roles": Role.choices,
            "reset": reset,
            "error": error,
            "locked": [m for m in members if m.user.get_username() in locked],
            "rename_form": rename_form or ClubNameForm(initial={"name": club.name}),
            "face_form": face_form
            or ClubFaceForm(initial={"public_page": club.public_page, "colour": club.colour}),
            "face": _face_links(request, club),
        },
        status=status,
    )


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def members(request, slug):
    """The owner's page: members with their roles, open invitations (one whose maker is
    no longer an owner marked as not working); POST makes an invitation with the chosen
    role and shows its link and QR code."""
    club = club_for(request, slug, Role.OWNER)
    if request.method == "POST":
        form = InvitationForm(request.POST)
        if form.is_valid():
            try:
                invitation = invitations.create_invitation(
                    club, form.cleaned_data["role"], request.user, form.cleaned_data["key"]
                )
            except RuleError as error:
                # a refused key gets a new one: sending again makes a new link
                put_rule_error(form, error, shown=("role",))
            else:
                return redirect(f"{reverse('members', kwargs={'slug': slug})}?new={invitation.pk}")
        return _members_page(request, club, form=form)
    return _members_page(request, club)


def _membership(club, membership_id) -> Membership:
    membership = (
        Membership.objects.select_related("user", "club")
        .filter(club=club, pk=membership_id)
        .first()
    )
    if membership is None:
        raise Http404
    return membership


@never_cache
@login_required
@require_POST
def member_role(request, slug, membership_id):
    club = club_for(request, slug, Role.OWNER)
    membership = _membership(club, membership_id)
    form = RoleForm(request.POST)
    if not form.is_valid():
        return _members_page(request, club, error=_("Choose a role."), status=400)
    try:
        services.change_role(membership, form.cleaned_data["role"], request.user)
    except RuleError as error:
        return _members_page(request, club, error=rule_error_text(error), status=409)
    messages.success(
        request,
        _("%(name)s is now %(role)s.")
        % {"name": membership.user.get_username(), "role": Role(form.cleaned_data["role"]).label},
    )
    return _after_change(request, club)


@never_cache
@login_required
@require_POST
def member_remove(request, slug, membership_id):
    club = club_for(request, slug, Role.OWNER)
    membership = _membership(club, membership_id)
    try:
        services.remove_member(membership, request.user)
    except RuleError as error:
        return _members_page(request, club, error=rule_error_text(error), status=409)
    messages.success(
        request,
        _("%(name)s no longer belongs to the club.") % {"name": membership.user.get_username()},
    )
    return _after_change(request, club)


def _after_change(request, club):
    """Back to the members page, or home when the owner gave up his own ownership."""
    if Membership.objects.filter(club=club, user=request.user, role=Role.OWNER).exists():
        return redirect("members", slug=club.slug)
    return redirect("home")


@never_cache
@login_required
@require_POST
def member_reset(request, slug, membership_id):
    """A password reset link for a member (shown once, with its QR code; no mail)."""
    club = club_for(request, slug, Role.OWNER)
    membership = _membership(club, membership_id)
    try:
        uidb64, token = services.issue_reset_link(membership, request.user)
    except RuleError as error:
        return _members_page(request, club, error=rule_error_text(error), status=409)
    url = absolute_url(
        request, reverse("password_reset_confirm", kwargs={"uidb64": uidb64, "token": token})
    )
    reset = {"user": membership.user, "url": url, "qr": qr(url)}
    return _members_page(request, club, reset=reset)


@never_cache
@login_required
@require_POST
def member_unlock(request, slug, membership_id):
    """Lift the member's sign-in lock (django-axes): he signs in again at once."""
    club = club_for(request, slug, Role.OWNER)
    membership = _membership(club, membership_id)
    name = membership.user.get_username()
    if services.unlock_sign_in(membership, request.user):
        messages.success(request, _("%(name)s can sign in again.") % {"name": name})
    else:
        messages.info(request, _("%(name)s was not locked out.") % {"name": name})
    return redirect("members", slug=club.slug)


@never_cache
@login_required
@require_POST
def member_email(request, slug, membership_id):
    """Set the member's e-mail address (for a password reset by mail); empty removes it.
    A wrong address or a refused account: the members page with the error on the
    member's field (400, 409)."""
    club = club_for(request, slug, Role.OWNER)
    membership = _membership(club, membership_id)
    form = EmailForm(request.POST, auto_id=f"id_%s_{membership.pk}")
    page = {"email_form": form, "email_for": membership.pk}
    if not form.is_valid():
        return _members_page(request, club, status=400, **page)
    try:
        changed = services.set_email(membership, form.cleaned_data["email"], request.user)
    except RuleError as error:
        put_rule_error(form, error, shown=("email",))
        return _members_page(request, club, status=409, **page)
    if changed:
        email = form.cleaned_data["email"]
        name = membership.user.get_username()
        messages.success(
            request,
            _("The e-mail address of %(name)s is now %(email)s.") % {"name": name, "email": email}
            if email
            else _("%(name)s has no e-mail address now.") % {"name": name},
        )
    return redirect("members", slug=club.slug)


@never_cache
@login_required
@require_POST
def club_rename(request, slug):
    """Give the club a new name; its address (the slug) stays, so every link made before
    keeps working. A refused name: the members page with the error on the field (400)."""
    club = club_for(request, slug, Role.OWNER)
    form = ClubNameForm(request.POST)
    if form.is_valid():
        try:
            club = services.rename_club(club, form.cleaned_data["name"], request.user)
        except RuleError as error:
            put_rule_error(form, error, shown=("name",))
        else:
            messages.success(request, _("The club is called %(name)s now.") % {"name": club.name})
            return redirect("members", slug=club.slug)
    return _members_page(request, club, rename_form=form, status=400)


def _face_links(request, club) -> dict:
    """The whole addresses of the club's public page, feeds and widgets, for the owner to
    hand on or paste into the club's website (they answer while the page is public)."""

    def whole(name: str) -> str:
        return absolute_url(request, reverse(name, kwargs={"slug": club.slug}))

    return {
        "page": whole("club_page"),
        "calendar": whole("club_calendar"),
        "json": whole("club_json"),
        "nights_widget": whole("nights_widget"),
        "ranking_widget": whole("ranking_widget"),
        # the origin whose messages the framing page's snippet reads (a widget's height)
        "origin": absolute_url(request, "/").rstrip("/"),
    }


@never_cache
@login_required
@require_POST
def club_face(request, slug):
    """The owner makes the club's public page public or not and sets its colour; a
    refused colour: the members page with the error on the field (400)."""
    club = club_for(request, slug, Role.OWNER)
    form = ClubFaceForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            club = services.set_public_face(
                club, request.user, public_page=data["public_page"], colour=data["colour"]
            )
        except RuleError as error:
            put_rule_error(form, error, shown=("colour",))
        else:
            messages.success(request, _("Saved."))
            return redirect("members", slug=club.slug)
    return _members_page(request, club, face_form=form, status=400)


@login_required
@require_POST
def invitation_revoke(request, slug, invitation_id):
    club = club_for(request, slug, Role.OWNER)
    invitation = Invitation.objects.filter(club=club, pk=invitation_id).first()
    if invitation is None:
        raise Http404
    invitations.revoke_invitation(invitation, request.user)
    messages.success(request, _("The invitation is revoked: its link no longer works."))
    return redirect("members", slug=club.slug)


GONE_STATUS = 410


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def join(request, token):
    """An invitation link. GET never uses it up (messengers open links to preview
    them): joining is a button (signed in) or the new account's form (anonymous). A link
    used, revoked, expired, or whose maker is no longer an owner of the club, says so
    (410)."""
    invitation = Invitation.objects.select_related("club", "created_by").filter(token=token).first()
    if invitation is None:
        raise Http404
    context: dict[str, Any] = {"invitation": invitation, "club": invitation.club}
    state = invitation.state
    if state != "open":
        context["reason"] = _(invitations.GONE[state])
        return render(request, "clubs/join.html", context, status=GONE_STATUS)
    refused = invitations.invitation_refusal(invitation)
    if refused is not None:  # its maker is no longer an owner
        context["reason"] = rule_error_text(refused)
        return render(request, "clubs/join.html", context, status=GONE_STATUS)
    user = request.user
    if user.is_authenticated:
        current = Membership.objects.filter(club=invitation.club, user=user).first()
        context["current"] = current
        if request.method == "POST" and current is None:
            try:
                invitations.accept_invitation(invitation, user)
            except RuleError as error:
                return _refused(request, context, error)
            return _joined(request, invitation)
        return render(request, "clubs/join.html", context)
    form = JoinForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user, _membership = invitations.join_with_new_account(
                invitation, form.cleaned_data["username"], form.cleaned_data["password1"]
            )
        except RuleError as error:
            if error.field == "username":
                put_rule_error(form, error, shown=("username",))
            else:
                return _refused(request, context, error)
        else:
            login(request, user, backend=BACKEND)
            return _joined(request, invitation)
    context["form"] = form
    return render(request, "clubs/join.html", context)


def _refused(request, context, error: RuleError):
    context["reason"] = rule_error_text(error)
    gone = error.params.get("state") in {*invitations.GONE, *invitations.ISSUER_GONE}
    return render(request, "clubs/join.html", context, status=GONE_STATUS if gone else 409)


def _joined(request, invitation: Invitation):
    messages.success(
        request,
        _("Welcome to %(club)s: you are %(role)s.")
        % {"club": invitation.club.name, "role": invitation.get_role_display()},
    )
    return redirect("club", slug=invitation.club.slug)
