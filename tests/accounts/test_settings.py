"""Settings from the environment; production settings pass ``check --deploy``."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key
        not in (
            "DEBUG",
            "SECRET_KEY",
            "ALLOWED_HOSTS",
            "ADMIN_URL",
            "DATABASE_URL",
            "REDIS_URL",
            # pytest-django's (tests.settings, DEBUG on): the child reads the
            # site's own settings, as a server does.
            "DJANGO_SETTINGS_MODULE",
        )
        and not key.startswith("EMAIL_")
    }
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


PRODUCTION = {
    "DEBUG": "false",
    "ALLOWED_HOSTS": "azul.example.org",
    "ADMIN_URL": "staff-7q2",
    "DATABASE_URL": "sqlite:////tmp/azul-check-deploy.sqlite3",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "EMAIL_HOST": "smtp.example.org",
}


def _setting_values(*names: str, **env: str) -> list[str]:
    """The settings a child process reads from ``env``, one a line."""
    code = "from django.conf import settings as s;" + ";".join(
        f"print(s.{name})" for name in names
    )
    result = _manage("shell", "--no-imports", "-c", code, **env)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_production_settings_pass_check_deploy():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        SECRET_KEY=secrets.token_urlsafe(50),
        **PRODUCTION,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_debug_is_off_unless_the_environment_turns_it_on():
    """A production that forgets DEBUG runs safe: without a key it refuses to
    start, with one it runs with DEBUG off."""
    forgotten = _manage("check", ALLOWED_HOSTS="azul.example.org")
    assert forgotten.returncode != 0
    assert "Set SECRET_KEY when DEBUG is off" in forgotten.stderr
    keyed = _setting_values(
        "DEBUG", "SESSION_COOKIE_SECURE", SECRET_KEY=secrets.token_urlsafe(50)
    )
    assert keyed == ["False", "True"]
    assert _setting_values("DEBUG", DEBUG="true") == ["True"]


def test_production_cookies_are_secure_and_same_site():
    values = _setting_values(
        "LANGUAGE_COOKIE_SECURE",
        "LANGUAGE_COOKIE_SAMESITE",
        "LANGUAGE_COOKIE_HTTPONLY",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        SECRET_KEY=secrets.token_urlsafe(50),
        **PRODUCTION,
    )
    assert values == ["True", "Lax", "True", "True", "True"]


def test_the_admin_lives_at_its_setting_and_deploy_warns_at_the_default():
    moved = _setting_values("ADMIN_URL", DEBUG="true", ADMIN_URL="/staff-7q2/")
    assert moved == ["staff-7q2/"]
    code = "from django.urls import reverse; print(reverse('admin:login'))"
    result = _manage("shell", "--no-imports", "-c", code, DEBUG="true", ADMIN_URL="x9")
    assert result.stdout.split() == ["/x9/login/"], result.stderr
    default = _manage(
        "check",
        "--deploy",
        SECRET_KEY=secrets.token_urlsafe(50),
        **{**PRODUCTION, "ADMIN_URL": ""},
    )
    assert "accounts.W001" in default.stdout + default.stderr


def test_production_refuses_to_start_without_a_secret_key():
    result = _manage("check", **PRODUCTION)
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_environment_selects_database_channels_and_email():
    code = (
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE']);"
        "print(s.CHANNEL_LAYERS['default']['BACKEND']);"
        "print(s.EMAIL_BACKEND)"
    )
    local = _manage("shell", "--no-imports", "-c", code, DEBUG="true")
    assert local.returncode == 0, local.stderr
    assert local.stdout.split() == [
        "django.db.backends.sqlite3",
        "channels.layers.InMemoryChannelLayer",
        "django.core.mail.backends.console.EmailBackend",
    ]
    configured = _manage(
        "shell",
        "--no-imports",
        "-c",
        code,
        DEBUG="true",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/azul",
        REDIS_URL="redis://127.0.0.1:6379/0",
        EMAIL_HOST="smtp.example.org",
    )
    assert configured.returncode == 0, configured.stderr
    assert configured.stdout.split() == [
        "django.db.backends.postgresql",
        "channels_redis.core.RedisChannelLayer",
        "django.core.mail.backends.smtp.EmailBackend",
    ]
