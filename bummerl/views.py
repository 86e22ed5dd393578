"""Site-wide views: what a stale tab gets when its form's CSRF token is no longer valid,
and the forgotten-password pages."""

from django.conf import settings
from django.contrib.auth.views import PasswordResetDoneView, PasswordResetView, redirect_to_login
from django.http import HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from bummerl.links import mail_base


def csrf_failure(request, reason=""):
    """A tab left open past its session: htmx gets a full-page sign-in (never a login form
    inside a fragment) and comes back to where it was; a plain form gets a clear page."""
    if request.headers.get("HX-Request"):
        back = request.headers.get("HX-Current-URL", "/")
        response = HttpResponse(status=403)
        response["HX-Redirect"] = redirect_to_login(back).url
        return response
    return render(request, "csrf_failure.html", status=403)


def mail_reset_offered(request) -> bool:
    """A password reset by mail works only with a mail server (``EMAIL_HOST``) and a
    trustworthy address for the mail's link (``bummerl.links.mail_base``)."""
    return bool(settings.EMAIL_HOST) and mail_base(request) is not None


class MailPasswordResetView(PasswordResetView):
    """Django's reset by mail, its link on the site's address (never the request's Host
    unless that was checked against ALLOWED_HOSTS)."""

    template_name = "registration/password_reset_form.html"

    def form_valid(self, form):
        scheme, host = mail_base(self.request)
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
