from urllib.parse import urlencode

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.selectors import only_library
from . import selectors
from .models import (
    Component, CopyCheckpoint, CopyEvent, CopyState, Hold, Household, HouseholdEvent, LoanRules, Member, Notification,
    Tariff,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never added, changed or deleted here: a copy's events are append-only and its state
    is computed from them."""

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def get_actions(self, request: HttpRequest):
        return {}


@admin.register(CopyEvent)
class CopyEventAdmin(ReadOnlyAdmin):
    list_display = ["copy", "seq", "type", "household", "recorded_by", "recorded_at"]
    list_filter = ["type"]
    search_fields = ["copy__barcode"]
    readonly_fields = ["copy", "seq", "type", "payload", "household", "recorded_by", "recorded_at", "hash"]


@admin.register(HouseholdEvent)
class HouseholdEventAdmin(ReadOnlyAdmin):
    """A household's membership and money as the desk recorded them (``loans.memberships``)."""

    list_display = ["household", "seq", "type", "amount", "happened_on", "recorded_by"]
    list_filter = ["type"]
    search_fields = ["household__name", "household__card_number"]
    readonly_fields = ["household", "seq", "type", "payload", "amount", "tariff", "happened_on", "recorded_by",
                       "recorded_at"]


@admin.register(Tariff)
class TariffAdmin(admin.ModelAdmin):
    list_display = ["name", "organisation", "kind", "per", "amount", "months", "deposit", "active"]
    list_filter = ["organisation", "active"]


@admin.register(CopyCheckpoint)
class CopyCheckpointAdmin(ReadOnlyAdmin):
    """What the store last held of each copy's events, found intact; those that failed, with why
    (loans.integrity)."""

    list_display = ["copy", "last_seq", "checked_at", "failed_at"]
    list_filter = [("failed_at", admin.EmptyFieldListFilter)]
    search_fields = ["copy__barcode"]
    readonly_fields = ["copy", "last_seq", "head", "checked_at", "failed_at", "problems"]


@admin.register(CopyState)
class CopyStateAdmin(ReadOnlyAdmin):
    list_display = ["copy", "status", "household", "due_on", "renewals", "last_seq"]
    list_filter = ["status"]
    search_fields = ["copy__barcode"]


class MemberInline(admin.TabularInline):
    model = Member
    extra = 0
    fields = ["display_name", "birth_year", "user", "player"]
    raw_id_fields = ["user", "player"]


@admin.register(Household)
class HouseholdAdmin(admin.ModelAdmin):
    list_display = ["name", "card_number", "town", "phone", "membership_ends", "fee_paid", "deposit_held",
                    "loan_limit"]
    search_fields = ["name", "card_number", "town", "postcode", "members__display_name"]
    inlines = [MemberInline]
    actions = ["print_member_cards"]
    list_filter = ["organisation"]

    def get_changeform_initial_data(self, request: HttpRequest) -> dict:
        # An installation with one game library: a new household is its.
        return {"organisation": only_library(), **super().get_changeform_initial_data(request)}

    @admin.action(description=_("Print the member cards of the selected households"))
    def print_member_cards(self, request: HttpRequest, queryset):
        # One page draws the cards, the desk's (loans.pages.member_cards): send the admin to its PDF.
        cards = urlencode([("card", card) for card in queryset.values_list("card_number", flat=True)])
        return HttpResponseRedirect(f"{reverse('desk-member-cards')}?{cards}")


@admin.register(LoanRules)
class LoanRulesAdmin(admin.ModelAdmin):
    list_display = ["loan_days", "renewals_allowed", "late_fee_per_day", "hold_days"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        # One row: the library's rules.
        return super().has_add_permission(request) and not LoanRules.objects.exists()


@admin.register(Hold)
class HoldAdmin(ReadOnlyAdmin):
    """Holds are placed and cancelled at the desk or through the API (``loans.services``), which keep
    the queue and the hold shelf in step."""

    list_display = ["record", "household", "status", "placed_at", "copy", "ready_on"]
    list_filter = ["status"]


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    list_display = ["household", "text", "created_at", "emailed_at", "emailed_to"]


@admin.register(Component)
class ComponentAdmin(admin.ModelAdmin):
    """Librarians keep checklists on their page (``/catalogue/<id>/checklist/``); the admin is the
    operator's tool, with Django's own permissions."""

    list_display = ["record", "position", "count", "kind", "per_colour"]
    list_editable = ["position", "count", "kind", "per_colour"]
    list_filter = ["record"]


# The desk's groups are made by migration 0004 under names that programs use; the admin shows them
# in the reader's language.
GROUP_NAMES = {"desk": pgettext_lazy("group", "desk volunteers"), "librarians": pgettext_lazy("group", "librarians")}


def group_label(group: Group) -> str:
    return str(GROUP_NAMES.get(group.name, group.name))


class GroupAdminInTheReadersLanguage(GroupAdmin):
    list_display = ["shown_name"]

    @admin.display(description=_("name"), ordering="name")
    def shown_name(self, group: Group) -> str:
        return group_label(group)


class UserAdminWithGroupsInTheReadersLanguage(UserAdmin):
    def formfield_for_manytomany(self, db_field, request, **kwargs):
        field = super().formfield_for_manytomany(db_field, request, **kwargs)
        if db_field.name == "groups" and field is not None:
            field.label_from_instance = group_label
        return field


admin.site.unregister(Group)
admin.site.register(Group, GroupAdminInTheReadersLanguage)
admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), UserAdminWithGroupsInTheReadersLanguage)
