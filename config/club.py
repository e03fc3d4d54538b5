"""The club laptop: the service on the club's network, from the embedded defaults.

``make club`` (``python -m config.club``) serves the site to the players' phones over the club's
Wi-Fi from the organiser's laptop: DEBUG off, the laptop's network addresses allowed, a secret key
generated on the first start and kept in ``.club/secret_key`` (outside git), SQLite, the socket
layer in memory and the tasks run in the process, as under ``make run``. It prints the address
the phones open, with its QR code, and the desk shows the same code (``SITE_URL``).
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_PORT = 8000


def club_dir() -> Path:
    """Where the club mode keeps what must survive a restart and stay out of git."""
    return Path(os.environ.get("TABLA_CLUB_DIR") or BASE_DIR / ".club")


def secret_key(directory: Path) -> str:
    """The club's secret key: made once (a random 50+ character key), then read back."""
    path = directory / "secret_key"
    if path.exists():
        key = path.read_text(encoding="ascii").strip()
        if len(key) >= 50:
            return key
    directory.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(key + "\n")
    return key


def lan_addresses() -> list[str]:
    """The machine's IPv4 addresses other than loopback, the one of the default route first.

    Connecting a UDP socket sends nothing: it only asks the kernel which address it would use.
    """
    found: list[str] = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))
        found.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        address = str(info[4][0])
        if address not in found:
            found.append(address)
    return [address for address in found if not address.startswith("127.")]


def site_url(port: int) -> str:
    """The address the phones open: the first network address, else this machine only."""
    addresses = lan_addresses()
    host = addresses[0] if addresses else "127.0.0.1"
    return f"http://{host}:{port}/" if port != 80 else f"http://{host}/"


def qr_text(url: str) -> str:
    """The QR code of ``url`` drawn in the terminal (segno), for a phone's camera."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m config.club", description=__doc__)
    parser.add_argument("--port", type=int, default=int(os.environ.get("CLUB_PORT", DEFAULT_PORT)))
    parser.add_argument("--no-qr", action="store_true", help="print the address only")
    parser.add_argument("--no-demo", action="store_true", help="do not load the demo data")
    args = parser.parse_args(argv)

    env = dict(os.environ)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.club"
    env["CLUB_PORT"] = str(args.port)
    url = env.setdefault("SITE_URL", site_url(args.port))
    python = sys.executable
    manage = [python, str(BASE_DIR / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], env=env, check=True)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v", "0"], env=env, check=True)
    if not args.no_demo:
        subprocess.run([*manage, "demo_setup"], env=env, check=True)

    print(f"\nTabla is served to the club's network at {url}")
    print("Players open this address on their phones (same Wi-Fi), or scan:\n")
    if not args.no_qr:
        print(qr_text(url))
    sys.stdout.flush()
    command = [
        python, "-m", "uvicorn", "config.asgi:application",
        "--host", "0.0.0.0", "--port", str(args.port), "--no-access-log",
    ]  # fmt: skip
    os.execve(python, command, env)
    return 0  # not reached


if __name__ == "__main__":
    raise SystemExit(main())
