"""Page URLs. Each area has its own module so that the pages can grow apart."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import home

urlpatterns = [
    path("", home.home, name="home"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("catalogue/", include(("ludolog.web.catalogue_urls", "catalogue"))),
]
