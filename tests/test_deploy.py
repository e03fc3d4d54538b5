"""docs/deploy.md's layout: the systemd units and the nginx file in deploy/ start what the
project has, with the variables the production settings need; and a backup taken with
pg_dump restores into a new database whose games all replay (``manage.py verify_games``), the
restore check docs/deploy.md prescribes (PostgreSQL pass only)."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from games import services
from games.demo import match_play_random
from games.models import Game
from tests.tournaments.factories import PlayerFactory, UserFactory
from tests.tournaments.worker import database_url

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"


def units() -> dict[str, str]:
    return {path.name: path.read_text() for path in (DEPLOY / "systemd").glob("*.service")}


def test_each_unit_starts_a_process_of_this_project_with_the_environment_file():
    found = units()
    assert set(found) >= {
        "tabla-web.service", "tabla-sockets@.service", "tabla-worker.service",
        "tabla-beat.service", "tabla-backup.service",
    }  # fmt: skip
    commands = {name: re.search(r"^ExecStart=(.+)$", text, re.M) for name, text in found.items()}
    assert all(commands.values()), commands
    assert "gunicorn config.wsgi" in commands["tabla-web.service"].group(1)
    assert "uvicorn config.asgi:application" in commands["tabla-sockets@.service"].group(1)
    assert "celery -A config worker" in commands["tabla-worker.service"].group(1)
    assert "celery -A config beat" in commands["tabla-beat.service"].group(1)
    assert "pg_dump --format=custom" in commands["tabla-backup.service"].group(1)
    for name, text in found.items():
        assert "EnvironmentFile=/etc/tabla/env" in text, name
    for name in ("tabla-web.service", "tabla-sockets@.service"):
        assert "LimitNOFILE=65536" in found[name]  # one file a socket


def test_the_environment_example_names_every_required_variable():
    example = (DEPLOY / "systemd" / "env.example").read_text()
    names = set(re.findall(r"^([A-Z_]+)=", example, re.M))
    readme = (ROOT / "README.md").read_text()
    required = set(re.findall(r"^\| `([A-Z_]+)` +\| yes ", readme, re.M))
    assert required and required <= names
    assert {"CELERY_BROKER_URL", "CACHE_URL", "CHANNEL_LAYER_URL"} <= names


def test_nginx_sends_the_sockets_to_uvicorn_and_limits_them_per_address():
    conf = (DEPLOY / "nginx" / "tabla.conf").read_text()
    ports = {m for unit in ("8001", "8002") for m in re.findall(rf"127\.0\.0\.1:({unit})", conf)}
    assert ports == {"8001", "8002"}
    sockets = conf[conf.index("location /ws/") :]
    assert "proxy_set_header Upgrade $http_upgrade;" in sockets
    assert re.search(r"limit_conn tabla_sockets_per_ip \d+;", sockets)
    assert "127.0.0.1:8000" in conf  # gunicorn, as tabla-web.service binds it


def test_nginx_compresses_the_pages_and_the_api_answers():
    conf = (DEPLOY / "nginx" / "tabla.conf").read_text()
    secure = conf[conf.index("listen 443") :]
    assert re.search(r"^\s*gzip on;", secure, re.M)  # text/html always, once on
    types = re.search(r"^\s*gzip_types ([^;]+);", secure, re.M)
    assert types and "application/json" in types.group(1).split()


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="pg_dump needs the PostgreSQL pass's database"
)
@pytest.mark.skipif(shutil.which("pg_dump") is None, reason="pg_dump is not installed")
@pytest.mark.django_db(transaction=True)
def test_a_pg_dump_backup_restores_and_every_game_replays(tmp_path):
    staff = UserFactory(is_staff=True)
    for seed in range(2):
        match = services.match_create(
            creator=staff, player_one=PlayerFactory(), player_two=PlayerFactory()
        )
        match_play_random(match=match, rng=random.Random(seed), max_games=1)
    games = Game.objects.count()
    source = database_url()
    dump = tmp_path / "tabla.dump"
    subprocess.run(["pg_dump", "--format=custom", f"--file={dump}", source], check=True)

    head, _, name = source.rpartition("/")
    restored = f"{name}_restored"
    admin = f"{head}/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{restored}"')
        conn.execute(f'CREATE DATABASE "{restored}"')
    try:
        target = f"{head}/{restored}"
        subprocess.run(["pg_restore", "--no-owner", f"--dbname={target}", str(dump)], check=True)
        env = {
            **os.environ, "DATABASE_URL": target, "DJANGO_SETTINGS_MODULE": "config.settings.local"
        }  # fmt: skip
        checked = subprocess.run(
            [sys.executable, "manage.py", "verify_games"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert f"{games} games checked: all match their replay" in checked.stdout
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{restored}"')
