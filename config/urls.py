"""Root URL configuration: admin, health check, favicon, OpenAPI schema and docs, the v1 API,
and the web pages (the accounts: log in and out, sign up, the account page, password change and
reset; invitations at /join/<code>/; language switch, /tournaments/ and /players/; the namespace
"web" at the root: the home page from tournaments.urls and the match and player pages of
games.urls)."""

from csp.decorators import csp_update
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config import accounts
from config.views import LoginView, TokenView, favicon, healthz
from games.urls import urlpatterns as games_web_urlpatterns
from players import views as player_views
from tournaments.urls import home_urlpatterns

docs_view = csp_update({"style-src": ["'unsafe-inline'"]})(
    SpectacularSwaggerSplitView.as_view(url_name="schema")
)

handler404 = "config.views.not_found"
handler500 = "config.views.server_error"
handler400 = "config.views.bad_request"  # JSON under /api/

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script from a URL of its own (?script), not
    # inline, so the docs run under the Content-Security-Policy (config/settings/base.py); only
    # their style-src allows inline styles, for drf-spectacular's <style> block.
    path("api/docs/", docs_view, name="docs"),
    path("api/v1/auth/token/", TokenView.as_view(), name="auth-token"),
    path("api/v1/", include("players.api.urls", namespace="players")),
    path("api/v1/", include("games.api.urls", namespace="games")),
    path("api/v1/", include("tournaments.api.urls", namespace="tournaments")),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # The language switch of the pages' footer: Django's view, which also stores the choice on
    # a signed-in player's account (players.views.set_language).
    path("i18n/setlang/", player_views.set_language, name="set_language"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/", accounts.account, name="account"),
    # Django's password views under their own names (their templates in templates/registration/).
    path(
        "accounts/password_change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("accounts/password_reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("join/<str:code>/", accounts.join, name="join"),
    path("players/<int:pk>/invitation/", accounts.invitation, name="invitation"),
    path("tournaments/", include("tournaments.urls", namespace="tournaments_web")),
    path("players/", include("players.urls", namespace="players_web")),
    path("", include(([*home_urlpatterns, *games_web_urlpatterns], "web"))),
]
