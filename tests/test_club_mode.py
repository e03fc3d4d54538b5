"""The club laptop (``make club``, config/club.py): the site answers the phones on the machine's
network address with DEBUG off, keeps its secret key outside git, and prints its address with a
QR code; ``make run`` stays on localhost."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from config import club

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_the_secret_key_is_made_once_and_kept_private(tmp_path: Path) -> None:
    key = club.secret_key(tmp_path)
    assert len(key) >= 50
    assert club.secret_key(tmp_path) == key
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0
    assert ".club/" in (ROOT / ".gitignore").read_text().splitlines()


def test_the_address_is_printed_as_a_qr_code() -> None:
    drawing = club.qr_text("http://192.0.2.2:8000/")
    assert drawing.count("\n") > 10
    assert club.site_url(8000).startswith("http://") and club.site_url(8000).endswith(":8000/")


def test_make_run_listens_on_localhost_only() -> None:
    makefile = (ROOT / "Makefile").read_text()
    run = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "--host 127.0.0.1" in run and "0.0.0.0" not in run
    assert "config.club" in makefile.split("\nclub:", 1)[1].split("\n\n", 1)[0]


@pytest.mark.skipif(not club.lan_addresses(), reason="this machine has no network address")
def test_club_mode_answers_on_the_network_address_without_debug(tmp_path: Path) -> None:
    address = club.lan_addresses()[0]
    port = _free_port()
    env = {
        **os.environ,
        "TABLA_CLUB_DIR": str(tmp_path / "club"),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
        "SECRET_KEY": "",
        "CELERY_BROKER_URL": "",
        "CHANNEL_LAYER_URL": "",
        "CACHE_URL": "",
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    log = (tmp_path / "club.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "config.club", "--port", str(port), "--no-demo"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 180
        base = f"http://{address}:{port}"
        while True:
            try:
                status, page = _get(base + "/")
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail((tmp_path / "club.log").read_text())
                time.sleep(0.5)
        assert status == 200, page
        assert "Tabla" in page
        # Static files are served with DEBUG off (collected, then WhiteNoise).
        css = re.search(r'href="(/static/[^"]+\.css)"', page)
        assert css is not None and _get(base + css.group(1))[0] == 200
        # An error shows the site's page, never Django's debug page.
        status, page = _get(base + "/no-such-page/")
        assert status == 404
        assert "DEBUG = True" not in page and "Traceback" not in page
        output = (tmp_path / "club.log").read_text()
        assert f"http://{address}:{port}/" in output
        assert (tmp_path / "club" / "secret_key").exists()
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
