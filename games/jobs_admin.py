"""The admin pages of long imports (:mod:`games.jobs`): each app's job model is registered with
:class:`ImportJobAdmin`."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .jobs import ImportJob


class ImportJobAdmin(admin.ModelAdmin):
    """The jobs of one import in the admin: a list, and a page per job that follows its progress
    (htmx asks for it again every two seconds until the job is finished; without scripts the
    page reloads itself) and shows its report. Jobs are made by the import's upload page."""

    list_display = ["id", "file_name", "status", "progress", "started_by", "created_at", "finished_at"]
    list_filter = ["status"]
    report_template = ""
    """The template of the report's details (the job in ``job``)."""
    upload_permission = ""
    """Who may upload may follow the job too (``app_label.codename``)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) or request.user.has_perm(self.upload_permission)

    @admin.display(description=_("progress"))
    def progress(self, job: ImportJob) -> str:
        return format_html('<progress max="100" value="{}"></progress> {}/{}', job.percent, job.done, job.total)

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        job = self.get_object(request, unquote(object_id))
        if job is None:
            raise Http404
        if not self.has_view_permission(request, job):
            raise PermissionDenied
        context = {**self.admin_site.each_context(request), "opts": self.opts, "job": job,
                   "title": str(job), "report_template": self.report_template}
        if getattr(request, "htmx", False):
            return render(request, "admin/import_job_progress.html", context)
        return render(request, "admin/import_job.html", context)
