from django.urls import path

from . import views

urlpatterns = [
    path("organisations/<int:pk>/sessions/", views.OrganisationSessionsView.as_view(), name="agenda-sessions"),
    path("sessions/<int:pk>/counts/", views.SessionCountsView.as_view(), name="agenda-counts"),
    path("sessions/<int:pk>/plays/", views.SessionPlaysView.as_view(), name="agenda-plays"),
    path("sessions/<int:pk>/games/", views.SessionGamesView.as_view(), name="agenda-games"),
    path("sessions/<int:pk>/registrations/", views.SessionRegistrationsView.as_view(), name="agenda-registrations"),
    path("registrations/<int:pk>/check-in/", views.CheckInView.as_view(), name="agenda-check-in"),
]
