"""The agenda's page URLs, mounted at the site's root (``ludolog.web.urls``) by the module's name."""

from django.urls import path

from . import door, public, staff

urlpatterns = [
    path("organisations/<slug:slug>/calendar/", public.calendar_page, name="agenda-calendar"),
    path("organisations/<slug:slug>/calendar.ics", public.calendar_ics, name="agenda-calendar-feed"),
    path("organisations/<slug:slug>/sessions/<int:pk>/register/", public.register_page, name="agenda-register"),
    path("agenda/", staff.agenda_home, name="agenda"),
    path("agenda/hours/", staff.hours_page, name="agenda-hours"),
    path("agenda/sessions/new/", staff.session_new, name="agenda-session-new"),
    path("agenda/sessions/<int:pk>/", staff.session_page, name="agenda-session"),
    path("agenda/sessions/<int:pk>/door/", door.door_page, name="agenda-door"),
]
