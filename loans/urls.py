from django.urls import path

from . import views

urlpatterns = [
    path("lend/", views.LendView.as_view(), name="loans-lend"),
    path("return/", views.ReturnView.as_view(), name="loans-return"),
    path("renew/", views.RenewView.as_view(), name="loans-renew"),
    path("holds/", views.HoldsView.as_view(), name="loans-holds"),
    path("copies/<str:barcode>/", views.CopyView.as_view(), name="loans-copy"),
    path("households/<str:card_number>/loans/", views.HouseholdLoansView.as_view(), name="loans-household-loans"),
    path("households/<str:card_number>/membership/", views.HouseholdMembershipView.as_view(),
         name="loans-household-membership"),
    path("tariffs/", views.TariffsView.as_view(), name="loans-tariffs"),
    path("tariffs/<int:pk>/", views.TariffView.as_view(), name="loans-tariff"),
]
