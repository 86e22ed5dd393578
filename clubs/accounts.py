"""Site-wide views: what a stale tab gets when its form's CSRF token is no longer valid,
the sign-in page, and the forgotten-password pages (asking for a link by mail, and the page of a reset
link, by mail or from a club's owner)."""

import logging

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.contrib.auth.views import (
    INTERNAL_RESET_SESSION_TOKEN,
    LoginView,
    PasswordResetConfirmView,
    PasswordResetDoneView,
    PasswordResetView,
    redirect_to_login,
)
from django.http import HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_safe

from base import mail
from base.htmx import SIGN_IN_HEADER, page_behind
from base.links import mail_base
from clubs import resets
from clubs.models import Club

log = logging.getLogger(__name__)


def csrf_failure(request, reason=""):
    """A tab left open past its session: an htmx request (or a site's script) gets 403
    with the sign-in address that comes back to its page in ``Bummerl-Sign-In`` (as
    ``SignInMiddleware`` answers a signed-out one): the page keeps what was typed and says
    that nothing was saved, never a login form inside a fragment; a plain form gets a
    clear page."""
    if request.headers.get("HX-Request"):
        response = HttpResponse(status=403)
        response[SIGN_IN_HEADER] = redirect_to_login(page_behind(request) or "/").url
        return response
    return render(request, "csrf_failure.html", status=403)


class SignInForm(AuthenticationForm):
    """Django's sign-in form saying plainly that the name or the password is wrong
    (Django's own German asks to *enter* them, as if the fields were empty). A name
    locked by django-axes never reaches the form: the lock page answers instead."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _(
            "The user name or the password is wrong. Mind capital and small letters."
        ),
    }


class SignInView(LoginView):
    authentication_form = SignInForm


def mail_reset_offered(request) -> bool:
    """A password reset by mail works only with a mail server (``EMAIL_HOST``) and a
    trustworthy address for the mail's link (``base.links.mail_base``)."""
    return bool(settings.EMAIL_HOST) and mail_base(request) is not None


class ResetMailForm(PasswordResetForm):
    """Django's form for a reset by mail, its mail the site's own: the templates
    ``mail/password_reset_subject.txt`` and ``mail/password_reset.txt`` in the visitor's
    language, naming the account and the clubs it belongs to, sent through
    ``base.mail.send`` on the host of the mail's link. A mail that cannot be sent is
    logged, as Django does, and the page says the same as for an unknown address."""

    def send_mail(
        self,
        subject_template_name,
        email_template_name,
        context,
        from_email,
        to_email,
        html_email_template_name=None,
    ):
        user = context["user"]
        clubs = Club.objects.filter(memberships__user=user).order_by("name")
        context = {
            **context,
            "name": user.get_username(),
            "clubs": list(clubs.values_list("name", flat=True)),
            "days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86400),
        }
        subject = render_to_string("mail/password_reset_subject.txt", context)
        body = render_to_string("mail/password_reset.txt", context)
        try:
            mail.send(subject, body, [to_email], host=context["domain"])
        except Exception:
            log.exception("The password reset mail to account %s was not sent", user.pk)


class MailPasswordResetView(PasswordResetView):
    """Django's reset by mail, its link on the site's address (never the request's Host
    unless that was checked against ALLOWED_HOSTS), its mail the site's (``ResetMailForm``)."""

    template_name = "registration/password_reset_form.html"
    form_class = ResetMailForm
    token_generator = resets.mail_tokens

    def form_valid(self, form):
        base = mail_base(self.request)
        assert base is not None  # password_reset offers this view only with one
        scheme, host = base
        form.save(
            domain_override=host,
            use_https=scheme == "https",
            token_generator=self.token_generator,
            from_email=self.from_email,
            email_template_name=self.email_template_name,
            subject_template_name=self.subject_template_name,
            request=self.request,
            html_email_template_name=self.html_email_template_name,
            extra_email_context=self.extra_email_context,
        )
        return HttpResponseRedirect(self.get_success_url())


@require_http_methods(["GET", "HEAD", "POST"])
def password_reset(request):
    """Forgot the password: by mail where that works (``mail_reset_offered``), else the
    page that sends the visitor to his club's owner for a reset link."""
    if mail_reset_offered(request):
        return MailPasswordResetView.as_view()(request)
    if request.method == "POST":  # there is no form to send
        return HttpResponseNotAllowed(["GET", "HEAD"])
    return render(request, "registration/password_reset_form.html")


@require_safe
def password_reset_done(request):
    """'A mail is on its way' only where a mail can have been sent."""
    if mail_reset_offered(request):
        return PasswordResetDoneView.as_view()(request)
    return redirect("password_reset")


class ResetConfirmView(PasswordResetConfirmView):
    """The page of a reset link (``accounts/reset/<uidb64>/<token>/``): Django's, with the
    token checked by ``clubs.resets.ResetLinkCheck``. A link by mail works as Django's; a
    link from a club's owner only while its rule holds, asked on every GET and POST and
    once more under the club's lock when the password is saved.

    The page names who made an owner's link (``issuer``, ``club``). A link that no longer
    works because of its rule says why (``refused``) with status 403 and changes no
    password; any other dead link gets Django's page (status 200)."""

    def dispatch(self, *args, **kwargs):
        self.token_generator = resets.ResetLinkCheck()
        return super().dispatch(*args, **kwargs)

    def form_valid(self, form):
        if not self.token_generator.set_password(form):
            self.validlink = False
            return self.render_to_response(self.get_context_data())
        # What Django's form_valid does after its save (no sign-in after a reset here).
        del self.request.session[INTERNAL_RESET_SESSION_TOKEN]
        return HttpResponseRedirect(self.get_success_url())

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        check = self.token_generator
        context.update(issuer=check.issuer, club=check.club, refused=check.refused)
        return context

    def render_to_response(self, context, **kwargs):
        if not context.get("validlink") and context.get("refused"):
            kwargs.setdefault("status", 403)
        return super().render_to_response(context, **kwargs)
