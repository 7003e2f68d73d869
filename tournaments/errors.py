"""The tournaments' refusals: a stable ``reason``, the HTTP status it is answered with
(``ludolog.api_errors``, the pages alike) and a message in the reader's language, made when raised."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext


class TournamentError(Exception):
    """Raised before anything is written (or inside the transaction that it rolls back)."""

    def __init__(self, reason: str, **details: object) -> None:
        words, self.status_code = REFUSALS[reason]
        self.reason = reason
        self.message = words() % details if details else words()
        self.details = details
        super().__init__(self.message)


REFUSALS: dict[str, tuple[Callable[[], str], int]] = {
    "not_an_organiser": (lambda: gettext("Only the organisers of this club run its tournaments."), 403),
    "not_at_this_table": (lambda: gettext("Only the players of this table or an organiser enter its result."), 403),
    "table_size_out_of_range": (lambda: gettext("A table seats 2 to 6 players."), 422),
    "unknown_format": (lambda: gettext("Choose a format: Swiss rounds, a round robin or a final table."), 422),
    "round_robin_not_possible": (lambda: gettext("No round robin fits %(count)s players at tables of %(size)s: "
                                                 "it needs %(works)s."), 422),
    "round_robin_closed": (lambda: gettext("The round robin's schedule is fixed since round 1: "
                                           "no one joins it now."), 409),
    "settings_locked": (lambda: gettext("Round 1 is drawn: the tournament's settings no longer change."), 409),
    "points_not_whole_numbers": (lambda: gettext(
        "The points for each place are whole numbers (0 or more) separated by slashes, such as 6/4/2/1 "
        "(tables of %(size)s)."), 422),
    "points_wrong_count": (lambda: gettext("Tables of %(size)s need one number of points for each place."), 422),
    "points_increasing": (lambda: gettext("A place never earns more points than the place before it "
                                          "(tables of %(size)s)."), 422),
    "unknown_tiebreaker": (lambda: gettext("This page does not know that tie-breaker."), 422),
    "tiebreaker_twice": (lambda: gettext("Choose each tie-breaker once."), 422),
    "compensation_out_of_range": (lambda: gettext("The first-player compensation is a number of points from "
                                                  "0 to 9.99."), 422),
    "rounds_out_of_range": (lambda: gettext("A tournament has 1 to 20 rounds."), 422),
    "no_name": (lambda: gettext("Give the tournament a name."), 422),
    "already_registered": (lambda: gettext("%(player)s is already registered."), 409),
    "tournament_finished": (lambda: gettext("This tournament is finished."), 409),
    "round_incomplete": (lambda: gettext("Table %(table)s of round %(round)s has no result yet: "
                                         "enter every table's result before drawing the next round."), 409),
    "too_few_players": (lambda: gettext("A round needs at least 2 checked-in players."), 409),
    "all_rounds_drawn": (lambda: gettext("Every planned round is drawn."), 409),
    "table_not_in_round": (lambda: gettext("Round %(round)s has no table %(table)s."), 422),
    "player_twice": (lambda: gettext("A player is entered twice at this table."), 422),
    "player_not_at_table": (lambda: gettext("A player entered does not sit at this table."), 422),
    "wrong_count": (lambda: gettext("Give one score or one place for each player of the table."), 422),
    "result_already_entered": (lambda: gettext("This table's result is already in: an organiser may correct it, "
                                               "with a reason."), 409),
    "dropped_already": (lambda: gettext("%(player)s has already dropped out."), 409),
    "no_rules_engine": (lambda: gettext("This round's game cannot be recorded move by move: enter the table's "
                                        "result instead."), 422),
    "table_size_not_for_game": (lambda: gettext("%(game)s is played by %(least)s to %(most)s players: this table's "
                                                "game cannot be recorded move by move."), 422),
    "table_already_recording": (lambda: gettext("This table's game is already being recorded."), 409),
    "recording_refused": (lambda: gettext("The recorder could not start this table's game: %(problem)s"), 422),
    "unknown_action": (lambda: gettext("This page does not know what to do with that."), 400),
    "unknown_entrant": (lambda: gettext("This player is not registered in this tournament."), 404),
}
