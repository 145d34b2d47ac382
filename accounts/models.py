"""The site's user: Django's user, ours from the first migration so it can grow."""

from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A registered player; ``username`` is the name shown at the table."""

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
