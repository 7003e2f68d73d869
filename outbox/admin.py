from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from . import services
from .models import Message


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    """The outbox as the operator's tool: read only, but for trying unsent messages again."""

    list_display = ["created_at", "kind", "recipients", "subject", "sent_at", "attempts", "last_error"]
    list_filter = ["kind", ("sent_at", admin.EmptyFieldListFilter)]
    search_fields = ["recipients", "subject"]
    actions = ["retry"]

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    @admin.action(description=_("Try the unsent messages chosen again"), permissions=["view"])
    def retry(self, request: HttpRequest, queryset: QuerySet[Message]) -> None:
        count = sum(services.retry(message) for message in queryset.filter(sent_at__isnull=True))
        self.message_user(request, ngettext("%d message will be tried again.", "%d messages will be tried again.",
                                            count) % count, messages.SUCCESS)
