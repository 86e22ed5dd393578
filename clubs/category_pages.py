"""The club's categories page (RULES.md 5.9): every category with its players; organisers
add categories and put players in or take them out."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from base.errors import RuleError
from clubs.access import access_for
from clubs.categories import add_category, set_member
from clubs.forms import CategoryPostForm, rule_error_text
from clubs.models import Category, Player, Role


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def categories(request, slug):
    access = access_for(request, slug, Role.ORGANISER if request.method == "POST" else Role.MEMBER)
    club = access.club
    error = None
    if request.method == "POST":
        actor = access.actor
        form = CategoryPostForm(request.POST, club=club)
        form.is_valid()
        if "category" in form.errors:
            raise Http404  # a hidden field naming no category of this club (abc, 20 digits)
        if "name" in form.errors:  # longer than a name
            error = str(form.errors["name"][0])
        else:
            data = form.cleaned_data
            try:
                if data["category"] is not None:
                    set_member(data["category"], data["name"], data["member"] != "0", actor)
                else:
                    add_category(club, data["name"], actor)
            except RuleError as failure:
                error = rule_error_text(failure)
            else:
                return redirect("categories", slug=slug)
        messages.error(request, error)
    listed = Category.objects.filter(club=club).prefetch_related(
        Prefetch("players", queryset=Player.objects.order_by("name_key", "name", "id"))
    )
    return render(
        request,
        "clubs/categories.html",
        {"club": club, "categories": listed, "access": access},
        status=400 if error else 200,
    )
