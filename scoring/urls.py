"""Scoring's addresses: a club's page, tables and rule sets under ``c/<slug>/``, and one
table's sheet twice, by account (``tables/<pk>/``, namespace ``sheet``) and by its private
link (``e/<token>/``, namespace ``entry``), with the same names in both; the web app's
manifest and service worker at the root."""

from django.urls import include, path

from scoring.views import entry, live, printing, sheet, tables

sheet_patterns = [
    path("", sheet.page, name="page"),
    path("record/", entry.record, name="record"),
    path("deals/<id:deal_id>/void/", entry.void, name="void"),
    path("deals/<id:deal_id>/correct/", entry.correct, name="correct"),
    path("next/", sheet.next_partie, name="next_partie"),
    path("export.json", sheet.export, name="export"),
    path("link/", sheet.link, name="link"),
    path("link/<str:action>/", sheet.link_change, name="link_change"),
    path("print/blank.pdf", printing.print_blank, name="print_blank"),
    path("history/", sheet.history, name="history"),
    path("version/", live.version, name="version"),
    path("print/summary.pdf", printing.print_summary, name="print_summary"),
]

club_patterns = [
    path("", tables.club, name="club"),
    path("rules/", tables.rule_sets, name="rule_sets"),
    path("rules/<id:rule_set_id>/", tables.rule_set, name="rule_set"),
    path("tables/new/", tables.open_table, name="open_table"),
    path("tables/import/", tables.import_table, name="import_table"),
    path("print/blank-<str:variant>.pdf", printing.print_club_blank, name="print_club_blank"),
    # the owners' page of the club's tables and its archive
    path("tables/manage/", tables.manage_tables, name="manage_tables"),
    path("tables/<id:pk>/rename/", tables.rename_table, name="rename_table"),
    path("tables/<id:pk>/archive/", tables.archive_table, name="archive_table"),
    path("tables/<id:pk>/restore/", tables.restore_table, name="restore_table"),
]

urlpatterns = [
    path("manifest.webmanifest", live.manifest, name="manifest"),
    path("sw.js", live.service_worker, name="service_worker"),
    path("c/<slug:slug>/", include(club_patterns)),
    path("tables/<id:pk>/", include((sheet_patterns, "sheet"))),
    path("e/<str:token>/", include((sheet_patterns, "entry"))),
]
