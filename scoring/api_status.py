"""Where scoring stands, for the API: a record's scoring (scored, waiting, or unscorable and why)
and a recomputation's status with its heartbeat and the records it could not score.

Reading a recomputation here marks it stalled when its heartbeat stopped (``recompute.mark_stalled``),
so that a client polling it learns that it should be resumed.
"""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import Operates
from records.models import GameRecord
from records.selectors import readable_record

from . import recompute
from .models import RecomputeRun, ScoredRecord, UnscorableRecord


class UnscorableSerializer(serializers.ModelSerializer):
    retrying = serializers.BooleanField(help_text="Whether the sweep still tries it.")
    max_attempts = serializers.SerializerMethodField()

    class Meta:
        model = UnscorableRecord
        fields = ["reason", "attempts", "max_attempts", "retrying", "first_failed_at", "last_failed_at"]

    def get_max_attempts(self, mark: UnscorableRecord) -> int:
        return settings.LUDOLOG_SCORING_MAX_ATTEMPTS


class RecordScoringSerializer(serializers.Serializer):
    record = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["not_finished", "waiting", "scored", "unscorable"],
        help_text="unscorable: its last attempt failed (see unscorable.reason); it may have older results.",
    )
    scored_at = serializers.DateTimeField(allow_null=True)
    unscorable = UnscorableSerializer(allow_null=True)


class RecordScoringView(APIView):
    """Whether a record's final scores are in, and if it could not be scored, why."""

    @extend_schema(responses=RecordScoringSerializer)
    def get(self, request: Request, record_id: int) -> Response:
        # A private record answers as a missing one: the same 404, the same words.
        record = readable_record(request.user, record_id)
        scored = ScoredRecord.objects.filter(pk=record.pk).values_list("scored_at", flat=True).first()
        mark = UnscorableRecord.objects.filter(pk=record.pk).first()
        if mark is not None:
            status = "unscorable"
        elif scored is not None:
            status = "scored"
        elif record.status == GameRecord.Status.FINISHED:
            status = "waiting"
        else:
            status = "not_finished"
        body = {"record": record.pk, "status": status, "scored_at": scored, "unscorable": mark}
        return Response(RecordScoringSerializer(body).data)


class RecomputeStatusSerializer(serializers.ModelSerializer):
    progress = serializers.SerializerMethodField()
    resumable = serializers.SerializerMethodField()
    stall_seconds = serializers.SerializerMethodField()
    unscorable = serializers.SerializerMethodField()

    class Meta:
        model = RecomputeRun
        fields = [
            "id", "status", "error", "total", "done", "progress", "started_at", "last_progress_at", "finished_at",
            "stall_seconds", "resumable", "unscorable",
        ]

    def get_progress(self, run: RecomputeRun) -> float:
        return round(run.done / run.total, 4) if run.total else 1.0

    def get_resumable(self, run: RecomputeRun) -> bool:
        return run.status in recompute.RESUMABLE

    def get_stall_seconds(self, run: RecomputeRun) -> float:
        """A run without a heartbeat for this long is marked stalled."""
        return settings.LUDOLOG_RECOMPUTE_STALL_SECONDS

    def get_unscorable(self, run: RecomputeRun) -> list[dict]:
        return [{"record": pk, "reason": reason} for pk, reason in run.unscorable().items()]


class RecomputeStatusView(APIView):
    """The operator only: a recomputation's progress, heartbeat, whether it may be resumed, and the records
    it could not score."""

    permission_classes = [Operates]

    @extend_schema(responses=RecomputeStatusSerializer)
    def get(self, request: Request, run_id: int) -> Response:
        recompute.mark_stalled()
        run = RecomputeRun.objects.filter(pk=run_id).first()
        if run is None:
            raise NotFound(f"there is no recomputation {run_id}")
        return Response(RecomputeStatusSerializer(run).data)
