"""Page URLs. Each area has its own module so that the pages can grow apart."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts.forms import LoginForm

from . import (
    history, home, league_settings, leagues, oai, outbox, players, plays_import, replay, reports, results, scorekeeping,
    statistics,
)
from .account import account_page
from .recorder import views as recorder

urlpatterns = [
    path("", home.home, name="home"),
    path("login/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("organisations/switch/", include(("accounts.urls", "accounts"))),
    path("games/", history.game_list, name="game-list"),
    path("games/<int:pk>/", history.game_detail, name="game-detail"),
    path("games/<int:pk>/times/", history.game_times, name="game-times"),
    path("games/<int:pk>/correct/", results.correct_result, name="game-correct"),
    path("games/<int:pk>/replay/", replay.replay_page, name="game-replay"),
    path("games/<int:pk>/replay/board/", replay.board, name="game-replay-board"),
    path("history/import/", plays_import.import_plays, name="import-plays"),
    path("history/import/records/", plays_import.find_records, name="import-plays-records"),
    path("history/import/<int:pk>/", plays_import.import_job, name="import-plays-job"),
    # The desk and the member's account are the loans app's pages: mounted by the module's name, so
    # that the site imports nothing of them (pyproject.toml's contract).
    path("", include("loans.pages.urls")),
    # The agenda's pages (the calendar, the staff's agenda, the door counter): mounted by name too.
    path("", include("agenda.pages.urls")),
    # The tournaments' pages and files: mounted by name too.
    path("", include("tournaments.pages.urls")),
    path("statistics/", statistics.club_statistics, name="statistics"),
    path("statistics/<slug:slug>/", statistics.game_statistics, name="game-statistics"),
    path("reports/", reports.report_home, name="report"),
    path("reports/<int:year>/", reports.report_page, name="report-year"),
    path("reports/<int:year>/sent/", reports.mark_sent, name="report-sent"),
    path("reports/<int:year>.csv", reports.report_csv, name="report-csv"),
    path("reports/<int:year>.pdf", reports.report_pdf, name="report-pdf"),
    path("players/", players.player_list, name="player-list"),
    path("players/<int:pk>/", players.player_detail, name="player-detail"),
    path("leagues/", leagues.league_list, name="league-list"),
    path("leagues/<int:pk>/", leagues.league_detail, name="league-detail"),
    path("leagues/<int:pk>/standings.csv", leagues.league_standings_csv, name="league-standings-csv"),
    path("leagues/<int:pk>/standings.pdf", leagues.league_standings_pdf, name="league-standings-pdf"),
    path("leagues/<int:pk>/rulings/", leagues.league_rule, name="league-rule"),
    path("leagues/<int:pk>/edit/", league_settings.league_edit, name="league-edit"),
    path("organisations/<slug:slug>/leagues/new/", league_settings.league_new, name="league-new"),
    path("scorekeeping/", scorekeeping.start, name="scorekeeping"),
    path("scorekeeping/result/", results.log_result, name="log-result"),
    path("scorekeeping/<int:pk>/", recorder.record_page, name="scorekeeping-record"),
    path("scorekeeping/<int:pk>/table/", recorder.table, name="scorekeeping-table"),
    path("catalogue/", include(("ludolog.web.catalogue_urls", "catalogue"))),
    path("oai/", oai.endpoint, name="oai"),
    # A person's own account: the page joins the apps (the site's); signing up, the address, the passwords (accounts').
    path("account/", account_page, name="account"),
    path("outbox/", outbox.outbox_page, name="outbox"),
    path("outbox/<int:pk>/retry/", outbox.retry_message, name="outbox-retry"),
    path("", include("accounts.account_urls")),
    path("", include("ludolog.web.organisation_urls")),
]
