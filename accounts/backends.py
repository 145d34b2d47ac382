"""The site's authentication backend: Django's ``ModelBackend`` with a cheaper
``get_user``.

``AuthenticationMiddleware`` loads the signed-in user through the session's
backend on every request. ``ModelBackend.get_user`` builds and compiles an ORM
query each time; this one runs a statement written once
(``games.rows.user_by_id``) and keeps every check of the original: an unknown id
is no user, and ``user_can_authenticate`` (``is_active``) still refuses inactive
users. Authentication itself (passwords, permissions) is ``ModelBackend``'s,
unchanged; django-axes' backend stays first in ``AUTHENTICATION_BACKENDS``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError


class UserBackend(ModelBackend):
    def get_user(self, user_id: Any) -> Any:
        from games.rows import user_by_id

        try:
            user = user_by_id(user_id=user_id)
        except (TypeError, ValueError, ValidationError):
            return None
        if user is None:
            return None
        return user if self.user_can_authenticate(user) else None
