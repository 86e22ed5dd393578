"""The club's categories page (RULES.md 5.9): every category with its players; organisers
add categories and put players in or take them out."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from clubs import audit
from clubs.access import access_for
from clubs.categories import add_category, set_member
from clubs.errors import RuleError
from clubs.forms import rule_error_text
from clubs.models import Category, Player, Role


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def categories(request, slug):
    access = access_for(request, slug, Role.ORGANISER if request.method == "POST" else Role.MEMBER)
    club = access.club
    error = None
    if request.method == "POST":
        actor = audit.by(request.user)
        try:
            if request.POST.get("category"):
                category = Category.objects.filter(club=club, pk=request.POST["category"]).first()
                if category is None:
                    raise Http404
                member = request.POST.get("member") != "0"
                set_member(category, request.POST.get("name", ""), member, actor)
            else:
                add_category(club, request.POST.get("name", ""), actor)
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
