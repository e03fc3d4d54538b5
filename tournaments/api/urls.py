"""Routes of the tournaments API, mounted under /api/v1/ with the namespace "tournaments"."""

from django.urls import URLPattern, URLResolver, path

from tournaments.api import views

app_name = "tournaments"

T = "tournaments/<int:pk>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path("tournaments/", views.TournamentListCreateView.as_view(), name="tournament-list"),
    path(T, views.TournamentDetailView.as_view(), name="tournament-detail"),
    path(f"{T}registration/open/", views.RegistrationOpenView.as_view(), name="registration-open"),
    path(
        f"{T}registration/close/", views.RegistrationCloseView.as_view(), name="registration-close"
    ),
    path(f"{T}organisers/", views.OrganiserAddView.as_view(), name="organiser-add"),
    path(f"{T}entries/", views.EntryListCreateView.as_view(), name="entry-list"),
    path(f"{T}entries/bulk/", views.EntryBulkCreateView.as_view(), name="entry-bulk"),
    path(
        f"{T}entries/<int:eid>/withdraw/", views.EntryWithdrawView.as_view(), name="entry-withdraw"
    ),
    path(
        f"{T}entries/<int:eid>/check-in/", views.EntryCheckInView.as_view(), name="entry-check-in"
    ),
    path(f"{T}seed/", views.SeedView.as_view(), name="seed"),
    path(f"{T}start/", views.StartView.as_view(), name="start"),
    path(f"{T}rounds/", views.RoundListView.as_view(), name="round-list"),
    path(f"{T}rounds/pair/", views.RoundPairView.as_view(), name="round-pair"),
    path(
        f"{T}rounds/<int:number>/deadline/",
        views.RoundDeadlineView.as_view(),
        name="round-deadline",
    ),
    path(
        f"{T}rounds/<int:number>/tables/",
        views.RoundTablesView.as_view(),
        name="round-tables",
    ),
    path(
        f"{T}rounds/<int:number>/forfeit-no-shows/",
        views.RoundNoShowView.as_view(),
        name="round-no-shows",
    ),
    path(
        f"{T}matches/<int:mid>/correct/", views.ResultCorrectView.as_view(), name="result-correct"
    ),
    path(f"{T}results/", views.ReportListView.as_view(), name="report-list"),
    path(f"{T}bracket/", views.BracketView.as_view(), name="bracket"),
    path(f"{T}standings/", views.StandingListView.as_view(), name="standing-list"),
    path(f"{T}standings.csv", views.StandingCsvView.as_view(), name="standing-csv"),
    path(f"{T}audit/", views.AuditLogView.as_view(), name="audit-log"),
    path("ratings/", views.RatingListView.as_view(), name="rating-list"),
    path("players/<int:pk>/ratings/", views.PlayerRatingView.as_view(), name="player-ratings"),
]
