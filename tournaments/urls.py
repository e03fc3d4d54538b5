"""Routes of the tournament web pages, mounted at /tournaments/ with the namespace
"tournaments_web"."""

from django.urls import URLPattern, path

from tournaments import views

app_name = "tournaments_web"

urlpatterns: list[URLPattern] = [
    path("<int:pk>/", views.tournament_detail, name="tournament"),
]
