"""An organisation's yearly report in the API: ``GET /api/organisations/{id}/report/?year=YYYY``,
every figure of :func:`reports.selectors.yearly_report` under the keys of
:func:`reports.sections.as_api`. To those who may see it (:data:`Action.SEE_REPORT`): 401
anonymous, 403 ``may_not_see_report`` otherwise; a year missing, not a number, before 2000 or
after next year: 400 ``year_invalid``, in the reader's language."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import authentication, permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Organisation
from accounts.roles import Action, can
from reports.errors import MayNotSeeReport
from reports.sections import as_api
from reports.selectors import yearly_report
from reports.years import report_year

COUNTS = serializers.DictField(child=serializers.IntegerField())
AMOUNTS = serializers.DictField(child=serializers.DecimalField(max_digits=12, decimal_places=2))


class RecordFigureSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()


class LentRecordSerializer(RecordFigureSerializer):
    loans = serializers.IntegerField()


class PlayedRecordSerializer(RecordFigureSerializer):
    plays = serializers.IntegerField()


class EventFigureSerializer(serializers.Serializer):
    title = serializers.CharField()
    starts_at = serializers.CharField()
    capacity = serializers.IntegerField(allow_null=True)
    registered = serializers.IntegerField()
    waiting = serializers.IntegerField()
    checked_in = serializers.IntegerField()
    counted = serializers.IntegerField(help_text="Persons counted at the door.")


class GroupVisitsSerializer(serializers.Serializer):
    visits = serializers.IntegerField()
    children = serializers.IntegerField()
    adults = serializers.IntegerField()


class YearReportSerializer(serializers.Serializer):
    """The response's shape, for the schema (the figures are written by ``reports.sections.as_api``)."""

    organisation = serializers.IntegerField()
    year = serializers.IntegerField()
    sessions = serializers.IntegerField(help_text="Sessions held.")
    sessions_by_kind = COUNTS
    opening_hours = serializers.DecimalField(max_digits=8, decimal_places=2, help_text="Hours open to the public.")
    hours_by_kind = AMOUNTS
    attendance = serializers.IntegerField(help_text="Persons counted at the door in the year.")
    attendance_by_month = COUNTS
    attendance_by_public = COUNTS
    families_by_month = COUNTS
    events = EventFigureSerializer(many=True)
    group_visits_by_kind = serializers.DictField(child=GroupVisitsSerializer())
    games_played_on_site = PlayedRecordSerializer(many=True)
    households_active = serializers.IntegerField()
    households_new = serializers.IntegerField()
    households_lapsed = serializers.IntegerField()
    households_by_town = COUNTS
    residents = serializers.IntegerField()
    non_residents = serializers.IntegerField()
    town_unknown = serializers.IntegerField()
    membership_income = serializers.DecimalField(max_digits=12, decimal_places=2)
    income_by_tariff = AMOUNTS
    late_fees_paid = serializers.DecimalField(max_digits=12, decimal_places=2)
    late_fees_waived = serializers.DecimalField(max_digits=12, decimal_places=2)
    overrides = serializers.IntegerField(help_text="Loans a librarian allowed over the lending rules.")
    loans = serializers.IntegerField(help_text="Loans whose day falls in the year.")
    loans_by_month = serializers.DictField(child=serializers.IntegerField(), help_text='"YYYY-MM": loans, every month.')
    loans_by_category_scheme = serializers.ChoiceField(choices=["esar", "catalogue"])
    loans_by_category = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="ESAR group (A–D) or catalogue category code: loans, once under each of a game's categories; "
                  '"unclassified".')
    loans_by_age_group = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Age group: loans, once under each age group of the borrowing household; \"unknown\".")
    households_borrowing = serializers.IntegerField()
    games_never_lent = serializers.IntegerField(help_text="Records with a copy here and no loan in the year.")
    games_never_lent_records = RecordFigureSerializer(many=True)
    most_lent = LentRecordSerializer(many=True)


class YearReportView(APIView):
    """An organisation's figures of a year: sessions, attendance, events, households, loans."""

    # The token's scheme first: an anonymous caller is answered 401 with ``WWW-Authenticate: Token``
    # (DRF answers 403 where the first scheme, the session's, names no challenge).
    authentication_classes = [authentication.TokenAuthentication, authentication.SessionAuthentication]
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="An organisation's yearly report",
        parameters=[OpenApiParameter("year", OpenApiTypes.INT, OpenApiParameter.QUERY, required=True,
                                     description="From 2000 to next year.")],
        responses={200: YearReportSerializer})
    def get(self, request: Request, pk: int) -> Response:
        organisation = get_object_or_404(Organisation, pk=pk)
        if not can(request.user, Action.SEE_REPORT, organisation):
            raise MayNotSeeReport(gettext("Only the organisation's librarians, organisers and administrators see "
                                          "its yearly report."))
        year = report_year(request.query_params.get("year"), timezone.localdate())
        return Response(as_api(yearly_report(organisation, year)))


urlpatterns = [
    path("organisations/<int:pk>/report/", YearReportView.as_view(), name="api-organisation-report"),
]
