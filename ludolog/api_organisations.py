"""The organisations in the API, with the pages' rules: every organisation's public face, the
members of one (to those who may see them: :func:`accounts.roles.sees_members`), and an
invitation made (:func:`ludolog.newcomers.invite`), answered with its link. Refusals are the
joining's own (``accounts.joining``: 403 ``may_not_invite``, ``may_not_grant_role``…), answered
by the API's one error handler."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import joining
from accounts.models import INVITABLE, Membership, Organisation
from accounts.roles import GRANTABLE, sees_members
from ludolog import newcomers
from ludolog.members import members, memberships_of


class OrganisationSerializer(serializers.ModelSerializer):
    page = serializers.SerializerMethodField(help_text="The organisation's page on the site.")

    class Meta:
        model = Organisation
        fields = ["id", "name", "slug", "kind", "language", "town", "address", "contact_email", "phone",
                  "members_public", "open_to_requests", "page"]

    def get_page(self, organisation: Organisation) -> str:
        return self.context["request"].build_absolute_uri(
            reverse("organisations:detail", kwargs={"slug": organisation.slug}))


class MemberSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The member's player's name, else their username.")
    player = serializers.IntegerField(allow_null=True, help_text="The id of the player their account is.")
    roles = serializers.ListField(child=serializers.ChoiceField(choices=[role.value for role in GRANTABLE]),
                                  help_text="Their roles beside being a member.")
    joined_at = serializers.DateTimeField()


class InvitationRequestSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=[role.value for role in INVITABLE], default="member")
    email = serializers.EmailField(required=False, allow_blank=True,
                                   help_text="Mail the invitation there; none: only the link is answered.")
    days = serializers.IntegerField(required=False, min_value=1, max_value=joining.MOST_DAYS, default=joining.DAYS)
    player = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=2**63 - 1,
                                      help_text="A player of the organisation's history without an account, "
                                                "whom the person invited becomes.")


class InvitationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    organisation = serializers.IntegerField()
    role = serializers.CharField()
    email = serializers.CharField(allow_blank=True)
    player = serializers.IntegerField(allow_null=True)
    expires_at = serializers.DateTimeField()
    link = serializers.URLField(help_text="The invitation's link: shown once, used once.")


class OrganisationList(generics.ListAPIView):
    """Every organisation of the installation: what its public page shows."""

    permission_classes = [permissions.AllowAny]
    serializer_class = OrganisationSerializer
    queryset = Organisation.objects.order_by("name", "pk")


class MembersHidden(PermissionDenied):
    default_detail = "only its members may see who the members of this organisation are"
    default_code = "members_hidden"


class MemberList(generics.ListAPIView):
    """An organisation's members, to those who may see them (anyone where its member list is
    public, else its members): 403 ``members_hidden`` otherwise."""

    permission_classes = [permissions.AllowAny]
    serializer_class = MemberSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema being made: no organisation asked
            return Membership.objects.none()
        organisation = get_object_or_404(Organisation, pk=self.kwargs["pk"])
        if not sees_members(self.request.user, organisation):
            raise MembersHidden()
        return memberships_of(organisation)

    def list(self, request: Request, *args, **kwargs) -> Response:
        page = [{"name": member.name, "player": member.player_id, "roles": [role.value for role in member.roles],
                 "joined_at": member.joined_at} for member in members(self.paginate_queryset(self.get_queryset()))]
        return self.get_paginated_response(MemberSerializer(page, many=True).data)


class InvitationCreate(APIView):
    """Invite someone to the organisation: ``role`` (member, or one the caller may give),
    ``email`` (mailed there), ``days`` (1 to 90, 14 by default), ``player``. The answer's
    ``link`` is the invitation's, shown this once."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=InvitationRequestSerializer, responses={201: InvitationSerializer},
                   summary="Invite someone to an organisation")
    def post(self, request: Request, pk: int) -> Response:
        organisation = get_object_or_404(Organisation, pk=pk)
        data = InvitationRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        wanted = data.validated_data
        invitation, link = newcomers.invite(
            request.user, organisation, wanted["role"], email=wanted.get("email") or "", days=wanted["days"],
            player_id=wanted.get("player"),
            link=lambda token: request.build_absolute_uri(reverse("organisations:invitation",
                                                                  kwargs={"token": token})))
        answer = {"id": invitation.pk, "organisation": organisation.pk, "role": invitation.role,
                  "email": invitation.email, "player": invitation.player_id, "expires_at": invitation.expires_at,
                  "link": link}
        return Response(InvitationSerializer(answer).data, status=status.HTTP_201_CREATED)


urlpatterns = [
    path("organisations/", OrganisationList.as_view(), name="api-organisation-list"),
    path("organisations/<int:pk>/members/", MemberList.as_view(), name="api-organisation-members"),
    path("organisations/<int:pk>/invitations/", InvitationCreate.as_view(), name="api-organisation-invitations"),
]
