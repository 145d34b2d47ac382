from django.urls import path

from leagues import views

app_name = "leagues"
urlpatterns = [
    path("", views.leagues, name="index"),
    path("seasons/<int:pk>/", views.season, name="season"),
    path("seasons/<int:pk>/join/", views.join, name="join"),
    path("seasons/<int:pk>/leave/", views.leave, name="leave"),
    path("seasons/<int:pk>/withdraw/", views.withdraw, name="withdraw"),
    path("groups/<int:pk>/", views.group, name="group"),
]
