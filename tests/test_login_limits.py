"""Failed-login limits on the API token and the web log-in form (config/login_limits.py), counted
in the cache every worker shares (config/cache.py)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.core.cache import caches
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient
from rest_framework.throttling import AnonRateThrottle

from config import login_limits
from config.cache import cache_from_url, default_cache_dir
from config.login_limits import Limit, account_key, client_address, retry_after, with_failure
from tests.games.factories import UserFactory
from tests.tournaments.worker import redis_server

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "/api/v1/auth/token/"
LOGIN = "/accounts/login/"


@pytest.fixture(autouse=True)
def redis_trusted_again(monkeypatch):
    """A test's Redis cache is asked, whatever failed in an earlier test (config/cache.py skips
    Redis for a while after a failure)."""
    monkeypatch.setattr("config.cache._down_until", 0.0)


@pytest.fixture
def alice(db):
    return UserFactory(username="alice")


@pytest.fixture
def fake_clock(monkeypatch):
    """login_limits' clock, moved on by hand: `fake_clock.now += seconds`."""

    class Clock:
        now = 1_000_000.0

    clock = Clock()
    monkeypatch.setattr(login_limits, "clock", lambda: clock.now)
    return clock


def token_post(username: str, password: str, ip: str = "10.0.0.1", **extra):
    body = {"username": username, "password": password}
    return APIClient().post(TOKEN, body, format="json", REMOTE_ADDR=ip, **extra)


def form_post(username: str, password: str, ip: str = "10.0.0.1", client: Client | None = None):
    client = client or Client()
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=ip)


# The pure rules


def test_retry_after_counts_the_failures_inside_the_window():
    limit = Limit(failures=3, seconds=100)
    assert retry_after([], 1000, limit) == 0
    assert retry_after([950, 960], 1000, limit) == 0
    assert retry_after([950, 960, 970], 1000, limit) == 50  # 950 leaves the window at 1050
    assert retry_after([850, 960, 970], 1000, limit) == 0  # 850 already left it
    assert retry_after([950, 960, 970], 1049.5, limit) == 1
    assert retry_after([950, 960, 970], 1050, limit) == 0
    assert retry_after([950, 960, 970], 1000, Limit(failures=0, seconds=100)) == 0


def test_with_failure_keeps_only_the_last_failures_of_the_window():
    limit = Limit(failures=3, seconds=100)
    assert with_failure([], 1000, limit) == [1000]
    assert with_failure([850, 950, 960, 970], 1000, limit) == [960, 970, 1000]


def test_client_address_is_remote_addr_unless_proxies_are_trusted():
    assert client_address("10.0.0.1", "1.2.3.4", 0) == "10.0.0.1"
    assert client_address("10.0.0.1", "6.6.6.6, 1.2.3.4", 1) == "1.2.3.4"
    assert client_address("10.0.0.1", "6.6.6.6, 1.2.3.4, 10.0.0.9", 2) == "1.2.3.4"
    assert client_address("10.0.0.1", "1.2.3.4", 5) == "1.2.3.4"
    assert client_address("10.0.0.1", "", 1) == "10.0.0.1"
    assert client_address("2001:db8:1:2:3:4:5:6", "", 0) == "2001:db8:1:2::/64"
    assert client_address("::ffff:10.0.0.7", "", 0) == "10.0.0.7"
    assert client_address("", "", 0) == "unknown"


def test_account_key_ignores_case_and_unicode_forms():
    assert account_key("Alice") == account_key("ALICE") == account_key("ａｌｉｃｅ")
    assert account_key("alice") != account_key("alicia")


# Both log-in endpoints


def test_token_wrong_passwords_then_the_right_one_is_429_with_retry_after(alice):
    for _ in range(10):
        assert token_post("alice", "wrong").status_code == 400
    response = token_post("alice", "password")
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 15 * 60
    assert "Too many failed log-in attempts" in response.json()["detail"]


def test_web_form_wrong_passwords_then_the_right_one_is_429_with_retry_after(alice):
    for _ in range(10):
        assert form_post("alice", "wrong").status_code == 200
    client = Client()
    response = form_post("alice", "password", client=client)
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 15 * 60
    assert "Too many failed log-in attempts. Please try again in 15 minutes." in (
        response.content.decode()
    )
    assert "_auth_user_id" not in client.session


def test_successful_logins_are_never_counted(alice):
    for _ in range(30):
        assert token_post("alice", "password").status_code == 200
        assert form_post("alice", "password").status_code == 302


def test_per_address_limit_across_usernames(alice, settings):
    settings.LOGIN_LIMIT_IP_FAILURES = 3
    for name in ("bob", "carol", "dave"):
        assert token_post(name, "wrong", ip="10.0.0.1").status_code == 400
    assert token_post("alice", "password", ip="10.0.0.1").status_code == 429
    assert form_post("alice", "password", ip="10.0.0.1").status_code == 429
    assert token_post("alice", "password", ip="10.0.0.2").status_code == 200


def test_wrong_passwords_from_one_address_do_not_lock_the_account_out_elsewhere(alice):
    """Usernames are public: ten wrong passwords for an organiser from the attacker's address
    lock out that address for that account (and letter case does not dodge it), not the
    organiser at home (before: 429 for the organiser too, for fifteen minutes)."""
    for name in ("alice", "Alice") * 5:
        assert token_post(name, "wrong", ip="10.6.6.6").status_code == 400
    assert token_post("ALICE", "password", ip="10.6.6.6").status_code == 429
    assert form_post("alice", "password", ip="10.6.6.6").status_code == 429
    assert token_post("alice", "password", ip="10.0.0.1").status_code == 200
    assert form_post("alice", "password", ip="10.0.0.1").status_code == 302


def test_the_account_ceiling_is_far_above_the_lock_out(settings):
    assert settings.LOGIN_LIMIT_PAIR_FAILURES == 10
    assert settings.LOGIN_LIMIT_ACCOUNT_FAILURES >= 10 * settings.LOGIN_LIMIT_PAIR_FAILURES
    assert settings.LOGIN_LIMIT_IP_FAILURES > settings.LOGIN_LIMIT_PAIR_FAILURES


def test_per_account_ceiling_across_addresses_and_letter_case(alice, settings):
    settings.LOGIN_LIMIT_ACCOUNT_FAILURES = 3
    for ip, name in (("10.0.0.1", "alice"), ("10.0.0.2", "Alice"), ("10.0.0.3", "ALICE")):
        assert form_post(name, "wrong", ip=ip).status_code == 200
    assert token_post("alice", "password", ip="10.0.0.4").status_code == 429
    assert token_post("bob", "wrong", ip="10.0.0.4").status_code == 400  # another account


def test_forwarded_for_is_ignored_unless_trusted(alice, settings):
    settings.LOGIN_LIMIT_IP_FAILURES = 2
    for n in range(2):
        token_post(f"x{n}", "wrong", HTTP_X_FORWARDED_FOR=f"1.1.1.{n}")
    assert token_post("alice", "password", HTTP_X_FORWARDED_FOR="1.1.1.9").status_code == 429

    settings.TRUST_X_FORWARDED_FOR = 1
    assert token_post("alice", "password", HTTP_X_FORWARDED_FOR="1.1.1.9").status_code == 200
    for n in range(2):
        token_post(f"y{n}", "wrong", HTTP_X_FORWARDED_FOR="6.6.6.6, 1.1.1.9")
    assert token_post("alice", "password", HTTP_X_FORWARDED_FOR="1.1.1.9").status_code == 429


def test_a_refused_attempt_does_not_hash_the_password(alice, monkeypatch):
    calls = []
    for name in ("encode", "verify"):
        original = getattr(MD5PasswordHasher, name)

        def spy(self, *args, _original=original, _name=name, **kwargs):
            calls.append(_name)
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(MD5PasswordHasher, name, spy)
    for _ in range(10):
        token_post("alice", "wrong")
    assert calls  # the spy sees the hashing of checked attempts
    calls.clear()
    assert token_post("alice", "password").status_code == 429
    assert form_post("alice", "password").status_code == 429
    assert token_post("nobody", "wrong", ip="10.0.0.2").status_code == 400
    calls.clear()
    for _ in range(20):
        token_post("nobody", "wrong", ip="10.0.0.2")  # per account: refused from the 10th on
    assert calls.count("encode") == 9
    assert token_post("alice", "password").status_code == 429 and len(calls) == 9


def test_the_limit_lifts_when_the_window_has_passed(alice, fake_clock):
    for _ in range(10):
        token_post("alice", "wrong")
        fake_clock.now += 10
    fake_clock.now += 15 * 60 - 101  # the first failure is 1 s from leaving the window
    response = token_post("alice", "password")
    assert response.status_code == 429 and response["Retry-After"] == "1"
    fake_clock.now += 1
    assert token_post("alice", "password").status_code == 200
    # Refused attempts did not extend the window; one more failure is counted, then refused.
    assert token_post("alice", "wrong").status_code == 400
    assert token_post("alice", "password").status_code == 429


def test_the_admin_login_is_limited_too(db):
    UserFactory(username="boss", is_staff=True, is_superuser=True)

    def admin_login():
        body = {"username": "boss", "password": "password"}
        return Client().post("/admin/login/", body, REMOTE_ADDR="10.0.0.1")

    assert admin_login().status_code == 302
    for _ in range(10):
        token_post("boss", "wrong")
    response = admin_login()
    assert response.status_code == 200 and "_auth_user_id" not in response.wsgi_request.session


# The shared cache


def run_settings(code: str, **env: str) -> str:
    """Run Python with the project's non-test settings in a fresh process; return its stdout."""
    clean = {k: v for k, v in os.environ.items() if k not in {"CACHE_URL", "PYTHONPATH"}}
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return result.stdout


def test_the_non_test_settings_default_to_a_cache_shared_by_processes():
    show = (
        "import importlib, json\n"
        "for name in ('config.settings.local', 'config.settings.production'):\n"
        "    print(json.dumps(importlib.import_module(name).CACHES['default']))\n"
    )
    env = {
        "SECRET_KEY": "a-strong-test-key-" + "0123456789abcdefghijklmnopqrstuvwxyz",
        "DATABASE_URL": "sqlite:////tmp/unused.sqlite3",
        "ALLOWED_HOSTS": "tabla.example.org",
    }
    for line in run_settings(show, **env).splitlines():
        cache = json.loads(line)
        assert cache["BACKEND"] == "config.cache.FileCache"
        assert cache["LOCATION"] == str(default_cache_dir(ROOT))
    output = run_settings(show, CACHE_URL="redis://127.0.0.1:6379/2", **env)
    redis = json.loads(output.splitlines()[0])
    assert redis == {
        "BACKEND": "config.cache.FailOpenRedisCache",
        "LOCATION": "redis://127.0.0.1:6379/2",
        "OPTIONS": {"socket_timeout": 0.25, "socket_connect_timeout": 0.25},  # never a hang
    }


def test_the_default_cache_dir_is_in_ram_if_linux_offers_it_else_in_the_project(monkeypatch):
    project = Path("/srv/tabla")
    in_ram = default_cache_dir(project)
    if Path("/dev/shm").is_dir():
        assert in_ram.parent == Path("/dev/shm") and in_ram.name.startswith("tabla-cache-")
        assert default_cache_dir(Path("/srv/other")) != in_ram
    monkeypatch.setattr("config.cache.os.access", lambda path, mode: False)
    assert default_cache_dir(project) == project / ".cache" / "django"


def test_cache_url_forms():
    assert cache_from_url("", Path("/x"))["LOCATION"] == "/x"
    assert cache_from_url("file:///var/cache/tabla", Path("/x"))["LOCATION"] == "/var/cache/tabla"
    assert cache_from_url("rediss://h:6380/0", Path("/x"))["BACKEND"].endswith("RedisCache")
    for bad in ("memcached://h", "file://relative/path", "nonsense"):
        with pytest.raises(Exception, match="CACHE_URL"):
            cache_from_url(bad, Path("/x"))


def test_failures_counted_by_another_process_block_this_one(alice, tmp_path, settings):
    """Another worker process (its own interpreter, its own cache client) records the failures
    in the file cache; this process then refuses the right password."""
    record = (
        "import django; django.setup()\n"
        "from django.test import RequestFactory\n"
        "from config import login_limits\n"
        "request = RequestFactory().post('/', REMOTE_ADDR='10.9.9.9')\n"
        "for _ in range(10): login_limits.record_failure(request, 'Alice')\n"
    )
    url = f"file://{tmp_path}"
    run_settings(record, DJANGO_SETTINGS_MODULE="config.settings.local", CACHE_URL=url)
    settings.CACHES = {"default": cache_from_url(url, tmp_path)}
    assert token_post("alice", "password", ip="10.9.9.9").status_code == 429
    assert token_post("bob", "wrong", ip="10.9.9.9").status_code == 400


def test_drf_throttles_count_in_the_shared_cache(db, tmp_path, settings, monkeypatch):
    settings.CACHES = {"default": cache_from_url(f"file://{tmp_path}", tmp_path)}
    monkeypatch.setitem(AnonRateThrottle.THROTTLE_RATES, "anon", "2/minute")
    url = reverse("games:match-list")
    client = APIClient()
    assert client.get(url, REMOTE_ADDR="10.0.0.1").status_code == 200
    del caches["default"]  # a new cache client, as in another worker or after a restart
    assert client.get(url, REMOTE_ADDR="10.0.0.1").status_code == 200
    del caches["default"]
    response = client.get(url, REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert response.status_code == 429 and "Retry-After" in response
    assert list(tmp_path.rglob("*.djcache"))


def test_the_file_cache_lists_its_files_on_one_write_in_cull_every(tmp_path, monkeypatch):
    from config.cache import FileCache

    cache = FileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 3}})
    listed = []
    original = FileCache._list_cache_files
    monkeypatch.setattr(
        FileCache, "_list_cache_files", lambda self: listed.append(1) or original(self)
    )
    draws = iter([1, 2, 0] * 5)
    monkeypatch.setattr("config.cache.random.randrange", lambda n: next(draws))
    for n in range(9):
        cache.set(f"k{n}", n)
    assert len(listed) == 3
    assert len(list(tmp_path.glob("*.djcache"))) < 9  # the counts culled old files


@pytest.fixture
def redis_url(tmp_path):
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    with redis_server(tmp_path) as url:
        yield f"{url}/0"


def test_login_limits_on_redis(alice, redis_url, settings):
    settings.CACHES = {"default": cache_from_url(redis_url, Path("/unused"))}
    for _ in range(10):
        assert token_post("alice", "wrong").status_code == 400
    del caches["default"]  # another worker's client
    response = token_post("alice", "password")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert token_post("alice", "password", ip="10.0.0.2").status_code == 200


def test_with_redis_down_requests_go_through_unthrottled(alice, settings, monkeypatch):
    """A Redis outage must not turn every throttled request into a 500: the counts are skipped
    (the limits come back with Redis)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]
    settings.CACHES = {"default": cache_from_url(f"redis://127.0.0.1:{closed}/0", Path("/x"))}
    monkeypatch.setitem(AnonRateThrottle.THROTTLE_RATES, "anon", "2/minute")
    assert token_post("alice", "wrong").status_code == 400
    assert token_post("alice", "password").status_code == 200
    assert Client().get(reverse("games:match-list")).status_code == 200


def test_force_login_and_sessions_still_use_model_backend(alice):
    client = Client()
    client.force_login(alice)
    assert client.session["_auth_user_backend"] == "django.contrib.auth.backends.ModelBackend"
    assert client.get(reverse("web:home")).wsgi_request.user == alice


def test_the_token_view_has_the_anonymous_rate(alice, monkeypatch):
    monkeypatch.setitem(AnonRateThrottle.THROTTLE_RATES, "anon", "2/minute")
    assert token_post("alice", "password").status_code == 200
    assert token_post("alice", "password").status_code == 200
    response = token_post("alice", "password")
    assert response.status_code == 429 and "Retry-After" in response


def test_the_refusal_on_the_form_is_translated(alice, settings):
    settings.LOGIN_LIMIT_ACCOUNT_FAILURES = 1
    form_post("alice", "wrong")
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "mk"
    response = form_post("alice", "password", client=client)
    assert response.status_code == 429
    assert "Обидете се повторно за 15 минути." in response.content.decode()
