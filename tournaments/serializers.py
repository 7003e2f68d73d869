"""The tournaments' API shapes: what the views answer (built by ``tournaments.views``) and the
result a client posts. Points are exact fractions: given as text (``"9/2"``) and as a number."""

from __future__ import annotations

from rest_framework import serializers

from . import pairing
from .models import Tournament

ID = {"min_value": 1, "max_value": 2**63 - 1}


class GameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()


class TournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    organisation = serializers.IntegerField()
    name = serializers.CharField()
    game = GameSerializer(allow_null=True, help_text="The catalogue record played; null: none chosen.")
    table_size = serializers.IntegerField()
    rounds_planned = serializers.IntegerField()
    rounds_drawn = serializers.IntegerField()
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    created_at = serializers.DateTimeField()


class EntrantSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The entrant: what a result names.")
    player = serializers.IntegerField()
    name = serializers.CharField()
    checked_in = serializers.BooleanField()
    dropped_after_round = serializers.IntegerField(allow_null=True, help_text="0: before round 1; null: still in.")
    group = serializers.CharField(allow_blank=True, help_text="Friends or family kept apart in round 1.")


class TournamentDetailSerializer(TournamentSerializer):
    placement_points = serializers.DictField(child=serializers.ListField(child=serializers.IntegerField()),
                                             help_text="Points for each place (1 first), by table size.")
    tiebreakers = serializers.ListField(child=serializers.CharField(), help_text="In the order they apply.")
    first_player_compensation = serializers.DecimalField(max_digits=4, decimal_places=2)
    keep_apart_in_round_1 = serializers.BooleanField()
    league = serializers.IntegerField(allow_null=True)
    entrants = EntrantSerializer(many=True)


class StandingLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Shared while tied after every tie-breaker (1, 2, 2, 4).")
    entrant = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.CharField(help_text='The exact fraction: "6", "9/2".')
    points_number = serializers.FloatField(help_text="The same, as a number.")
    tiebreaks = serializers.DictField(child=serializers.FloatField(), help_text="Each tie-breaker's value, by name.")
    played = serializers.IntegerField(help_text="Tables with a result.")
    dropped_after_round = serializers.IntegerField(allow_null=True)


class StandingsSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    rounds_drawn = serializers.IntegerField()
    csv_url = serializers.URLField(help_text="The same standings as a CSV file (UTF-8 with a BOM).")
    lines = StandingLineSerializer(many=True)


class SeatedSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="0 plays first.")
    entrant = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()


class ReasonSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="drawn, standings, no_repeat, repeat, kept_apart, together_despite_request, "
                                           "seat (see docs/tournaments.md)")
    params = serializers.DictField(help_text="The code's values (entrant ids for players).")


class TableResultSerializer(serializers.Serializer):
    places = serializers.ListField(child=serializers.IntegerField(), help_text="In seat order, 1 first.")
    scores = serializers.ListField(child=serializers.IntegerField(), allow_null=True,
                                   help_text="In seat order; null when places were told.")
    game_record = serializers.IntegerField(allow_null=True)
    corrects = serializers.BooleanField(help_text="Whether it corrects an earlier result.")
    reason = serializers.CharField(allow_blank=True, help_text="Why it was corrected.")
    entered_at = serializers.DateTimeField()


class RecordingSerializer(serializers.Serializer):
    game_record = serializers.IntegerField()
    state = serializers.ChoiceField(choices=["in_progress", "finished", "abandoned", "ended_early"])


class TableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    players = SeatedSerializer(many=True, help_text="In seat order.")
    why = ReasonSerializer(many=True)
    result = TableResultSerializer(allow_null=True, help_text="Null until the table's result is in.")
    recording = RecordingSerializer(allow_null=True, help_text="The game recorded with the recorder, if any.")


class RoundSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    number = serializers.IntegerField()
    drawn_at = serializers.DateTimeField()
    game = GameSerializer(allow_null=True)
    tables = TableSerializer(many=True)


class ScoreSerializer(serializers.Serializer):
    entrant = serializers.IntegerField(**ID)
    score = serializers.IntegerField(min_value=-1_000_000, max_value=1_000_000)


class PlaceSerializer(serializers.Serializer):
    entrant = serializers.IntegerField(**ID)
    place = serializers.IntegerField(min_value=1, max_value=pairing.MAX_TABLE_SIZE + 1)


class ResultRequestSerializer(serializers.Serializer):
    """One of ``scores`` or ``places``, a line for each player of the table."""

    scores = ScoreSerializer(many=True, required=False, allow_empty=False)
    places = PlaceSerializer(many=True, required=False, allow_empty=False)
    lowest_wins = serializers.BooleanField(default=False, help_text="With scores: the lowest wins.")
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500, default="",
                                   help_text="Why the result is corrected (an organiser, once the result is in).")

    def validate(self, data: dict) -> dict:
        if ("scores" in data) == ("places" in data):
            raise serializers.ValidationError({"scores": ["give scores or places, not both"]}
                                              if "scores" in data else {"places": ["give scores or places"]})
        return data
