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
        not in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL")
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


def test_production_settings_pass_check_deploy():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="azul.example.org",
        DATABASE_URL="sqlite:////tmp/azul-check-deploy.sqlite3",
        REDIS_URL="redis://127.0.0.1:6379/0",
        EMAIL_HOST="smtp.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    result = _manage("check", DEBUG="false", ALLOWED_HOSTS="azul.example.org")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_environment_selects_database_channels_and_email():
    code = (
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE']);"
        "print(s.CHANNEL_LAYERS['default']['BACKEND']);"
        "print(s.EMAIL_BACKEND)"
    )
    local = _manage("shell", "--no-imports", "-c", code)
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
