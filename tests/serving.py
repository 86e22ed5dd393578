"""Serving the site as in production, for the bench and the tests that need the real
servers: collected, compressed static files behind WhiteNoise, no debug pages, plain
http on 127.0.0.1 (cookies and HTTPS redirect turned off by environment, as ``make run``
does).

- ``serving`` and ``push_serving``: the site (runserver, or gunicorn with
  ``bummerl/gunicorn.conf.py``) and the push server on the database the environment
  names (the bench's).
- ``deployed``: the site as a club's server runs it (gunicorn, the push server, the task
  worker, and Caddy or nginx in front with the shipped ``deploy/`` files) on the test
  database of a ``transaction=True`` test; each process can be stopped and started
  again on its port.
"""

import functools
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit

import redis

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
GUNICORN_CONFIG = "bummerl/gunicorn.conf.py"


def production_env(work: Path) -> dict:
    return {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_SSL_REDIRECT": "0",
        "DJANGO_HSTS_SECONDS": "0",
        "STATIC_ROOT": str(work / "static"),
        # The first-run code's file (clubs.first_run) in the run's folder, not the project's.
        "BUMMERL_SETUP_CODE_FILE": str(work / "setup-code.json"),
    }


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listening(port: int, seconds: float = 20.0) -> bool:
    """Whether something accepts connections on ``port`` within ``seconds``."""
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            time.sleep(0.1)
    return False


class Server:
    """One server process on one port, started and stopped at will (a restart keeps the
    port). Its output goes to ``log`` when one is given."""

    def __init__(self, command: list[str], env: dict, port: int | None, log: Path | None = None):
        self.command, self.env, self.port, self.log = command, env, port, log
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the process and wait until it accepts connections on its port (one
        without a port: a second); RuntimeError when it does not within 20 s, or ends."""
        out = self.log.open("ab") if self.log else subprocess.DEVNULL
        try:
            self.process = subprocess.Popen(
                self.command, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT
            )
        finally:
            if self.log:
                out.close()
        if self.port is None:
            time.sleep(1.0)
        if (self.port and not listening(self.port)) or self.process.poll() is not None:
            self.stop()
            raise RuntimeError(f"{self.command[:4]} did not start on port {self.port}")

    def stop(self) -> None:
        """Stop the process (SIGTERM, SIGKILL after 20 s) and wait for it."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


@contextmanager
def running(command: list[str], env: dict, port: int):
    """``command`` answering on ``port`` for the ``with`` block; yields its base URL."""
    server = Server(command, env, port)
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


def uvicorn_push(port: int) -> list[str]:
    """The push server's command (``bummerl.asgi`` under uvicorn with the shipped unit's
    flags, ``push_flags``, as ``make serve``)."""
    command = [sys.executable, "-m", "uvicorn", "bummerl.asgi:application", *push_flags()]
    return command + ["--host", "127.0.0.1", "--port", str(port)]


def gunicorn_site(port: int) -> list[str]:
    """The site's command: gunicorn with ``bummerl/gunicorn.conf.py``, as ``make serve``
    and ``deploy/bummerl.service`` start it."""
    command = [sys.executable, "-m", "gunicorn", "bummerl.wsgi", "-c", GUNICORN_CONFIG]
    return command + ["-b", f"127.0.0.1:{port}"]


def push_flags() -> list[str]:
    """uvicorn's flags in the shipped unit (``deploy/bummerl-push.service``), less its
    ``--host`` and ``--port``: the limits the push server is sized for."""
    unit = (ROOT / "deploy" / "bummerl-push.service").read_text()
    start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    words = start.split("bummerl.asgi:application", 1)[1].split()
    flags = []
    while words:
        word = words.pop(0)
        if word in ("--host", "--port"):
            words.pop(0)
        else:
            flags.append(word)
    return flags


def push_serving(work: Path):
    """Run the push server on a free port for the ``with`` block; yields its base URL.
    ``BUMMERL_PUSH_URL`` comes from the environment, as the site's."""
    port = free_port()
    return running(uvicorn_push(port), production_env(work), port)


def collectstatic(env: dict) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def serving(work: Path, gunicorn: bool = False):
    """Run the site on a free port for the ``with`` block; yields its base URL."""
    port = free_port()
    env = production_env(work)
    collectstatic(env)
    if gunicorn:
        command = gunicorn_site(port)
    else:
        command = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
    return running(command, env, port)


REDIS = "redis://127.0.0.1:6379/9"
"""The Redis of the push channel's tests (its database 9; the channels carry the test
database's name, ``base.push.prefix``)."""


def redis_answers(url: str = REDIS) -> bool:
    try:
        redis.Redis.from_url(url, socket_timeout=1).ping()
    except (redis.RedisError, OSError):
        return False
    return True


# -- the site as deployed, on the test database ------------------------------------------


def database_env() -> dict:
    """The environment that points a process of the site at this process's database
    (the test database in a test): ``SQLITE_PATH`` for SQLite, ``DATABASE_URL`` for
    PostgreSQL. RuntimeError for an SQLite database in memory, which no other process
    can open."""
    from django.db import connection

    db = connection.settings_dict
    if connection.vendor == "sqlite":
        name = str(db["NAME"])
        if name == ":memory:" or "mode=memory" in name:
            raise RuntimeError("the SQLite test database is in memory (SQLITE_TEST_PATH)")
        return {"SQLITE_PATH": name}
    password = f":{quote(db['PASSWORD'], safe='')}" if db.get("PASSWORD") else ""
    host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    return {
        "DATABASE_URL": f"postgres://{quote(db['USER'], safe='')}{password}@{host}/{db['NAME']}"
    }


def why_not_deployed(proxy: str | None = None, push: bool = True) -> str:
    """Why ``deployed`` cannot run here ("" when it can): a missing proxy, no Redis for
    the push server, an SQLite database in memory."""
    if proxy and not shutil.which(proxy):
        return f"{proxy} is not installed"
    if push and not redis_answers():
        return "Redis does not answer on 127.0.0.1:6379"
    try:
        database_env()
    except RuntimeError as error:
        return str(error)
    return ""


def replaced(text: str, old: str, new: str) -> str:
    """``text`` with every ``old`` made ``new``; ValueError when ``old`` is not in it
    (the shipped file changed under the harness)."""
    if old not in text:
        raise ValueError(f"{old!r} is no longer in the shipped proxy file")
    return text.replace(old, new)


SITE_PORT, PUSH_PORT, SITE_NAME = "127.0.0.1:8000", "127.0.0.1:8001", "bummerl.example.org"
"""What the shipped proxy files name (deploy/Caddyfile, deploy/nginx.conf): the site's
and the push server's ports of the units, and the site's address."""


def caddy_config(port: int, site: int, push: int) -> str:
    """``deploy/Caddyfile`` with only its address made ``http://127.0.0.1:port`` (no
    TLS), the upstreams' ports made ``site`` and ``push``, and Caddy's admin endpoint off
    in its global options (several Caddys run side by side)."""
    text = (DEPLOY / "Caddyfile").read_text()
    text = replaced(text, f"{SITE_NAME} {{", f"http://127.0.0.1:{port} {{")
    text = replaced(text, SITE_PORT, f"127.0.0.1:{site}")
    text = replaced(text, PUSH_PORT, f"127.0.0.1:{push}")
    # The shipped file's global options block: its first line that is only "{".
    return replaced(text, "\n{\n", "\n{\n\tadmin off\n")


def nginx_config(port: int, site: int, push: int, work: Path) -> str:
    """An nginx main file around ``deploy/nginx.conf``: its server listens on
    ``http://127.0.0.1:port`` without TLS (the ``listen … ssl`` and ``ssl_certificate…``
    lines go), the upstreams' ports made ``site`` and ``push``; pid, logs and buffers in
    ``work``."""
    text = (DEPLOY / "nginx.conf").read_text()
    text = replaced(text, SITE_PORT, f"127.0.0.1:{site}")
    text = replaced(text, PUSH_PORT, f"127.0.0.1:{push}")
    lines = []
    for line in text.splitlines():
        words = line.split()
        if words and words[0] == "listen" and "ssl" in words:
            line = f"    listen 127.0.0.1:{port};" if "[::]" not in line else ""
        if words and words[0].startswith("ssl_"):
            continue
        lines.append(line)
    site_file = work / "nginx-site.conf"
    site_file.write_text("\n".join(lines) + "\n")
    temp = work / "nginx-temp"
    temp.mkdir(exist_ok=True)
    paths = "\n".join(
        f"    {kind}_temp_path {temp / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"user {pwd.getpwuid(os.geteuid()).pw_name};\n"
        f"pid {work / 'nginx.pid'};\n"
        f"error_log {work / 'nginx.log'} warn;\n"
        "events {}\n"
        "http {\n"
        "    access_log off;\n"
        f"{paths}\n"
        f"    include {site_file};\n"
        "}\n"
    )


def proxy_server(kind: str, work: Path, site: int, push: int) -> Server:
    port = free_port()
    if kind == "caddy":
        config = work / "Caddyfile"
        config.write_text(caddy_config(port, site, push))
        command = ["caddy", "run", "--config", str(config), "--adapter", "caddyfile"]
        env = {**os.environ, "XDG_DATA_HOME": str(work), "XDG_CONFIG_HOME": str(work)}
    elif kind == "nginx":
        config = work / "nginx-main.conf"
        config.write_text(nginx_config(port, site, push, work))
        command = ["nginx", "-p", str(work), "-e", str(work / "nginx.log"), "-c", str(config)]
        command += ["-g", "daemon off;"]
        env = dict(os.environ)
    else:
        raise ValueError(f"no proxy {kind!r}: caddy, nginx or None")
    return Server(command, env, port, work / f"{kind}.log")


@dataclass
class Deployed:
    """The running set-up: ``url`` is what a phone opens (the proxy's, or gunicorn's
    without one); each server can be stopped and started again."""

    url: str
    site: Server
    push: Server | None
    proxy: Server | None
    worker: Server | None
    work: Path

    def servers(self) -> list[Server]:
        """In the order they start: the site, the push server, the worker, the proxy."""
        return [s for s in (self.site, self.push, self.worker, self.proxy) if s is not None]


@functools.cache
def collected() -> Path:
    """The static files collected once for every ``deployed`` of this process."""
    static = Path(tempfile.mkdtemp(prefix="bummerl-static-"))
    collectstatic(production_env(static.parent) | {"STATIC_ROOT": str(static)})
    return static


@contextmanager
def deployed(
    proxy: str | None = None, push: bool = True, worker: bool = False, redis_url: str = REDIS
) -> Iterator[Deployed]:
    """The site as a club's server runs it, on this process's database (a test's
    ``transaction=True`` database, whose rows the servers see once committed), for the
    ``with`` block: gunicorn with ``bummerl/gunicorn.conf.py``; with ``push`` the push
    server (uvicorn ``bummerl.asgi``) and ``BUMMERL_PUSH_URL=redis_url`` for both; with
    ``worker`` the task worker (``manage.py qcluster``; without it tasks run in the
    request); with ``proxy`` ("caddy" or "nginx") the shipped proxy file in front
    (``caddy_config``, ``nginx_config``). ``DJANGO_TRUSTED_PROXIES=127.0.0.1`` as in the
    README. Skip a test with ``why_not_deployed`` first. The servers' output is in
    ``work/*.log``."""
    work = Path(tempfile.mkdtemp(prefix="bummerl-deployed-"))
    env = production_env(work) | database_env() | {"STATIC_ROOT": str(collected())}
    if "SQLITE_PATH" in env:
        env.pop("DATABASE_URL", None)
    env["DJANGO_SETTINGS_MODULE"] = "bummerl.settings"
    env["DJANGO_TRUSTED_PROXIES"] = "127.0.0.1"
    if worker:
        env.pop("BUMMERL_TASKS_SYNC", None)
    else:
        env["BUMMERL_TASKS_SYNC"] = "1"
    if push:
        env["BUMMERL_PUSH_URL"] = redis_url
    site_port, push_port = free_port(), free_port()
    setup = Deployed(
        url="",
        site=Server(gunicorn_site(site_port), env, site_port, work / "gunicorn.log"),
        push=Server(uvicorn_push(push_port), env, push_port, work / "push.log") if push else None,
        proxy=proxy_server(proxy, work, site_port, push_port) if proxy else None,
        worker=Server([sys.executable, "manage.py", "qcluster"], env, None, work / "worker.log")
        if worker
        else None,
        work=work,
    )
    setup.url = (setup.proxy or setup.site).url
    started: list[Server] = []
    try:
        for server in setup.servers():
            server.start()
            started.append(server)
        yield setup
    finally:
        for server in reversed(started):
            server.stop()
    shutil.rmtree(work, ignore_errors=True)  # kept, with the servers' logs, after a failure


# -- slow clients ------------------------------------------------------------------------

SLOW = 10
"""Slow clients of each kind (headers, bodies) that ``slow_clients`` runs."""


def slow_client(url: str, path: str, kind: str, stop: threading.Event, started: list) -> None:
    """One client sending a request one byte a second until ``stop``: its headers
    (``kind`` "headers") or, after whole headers, a form body of 100 bytes ("body").
    When the server closes the connection it opens another, as an attacker would."""
    address = urlsplit(url)
    head = f"GET {path} HTTP/1.1\r\nHost: {address.hostname}\r\nX-Slow: {'a' * 200}\r\n\r\n"
    if kind == "body":
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {address.hostname}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n"
        )
    while not stop.is_set():
        try:
            with socket.create_connection((address.hostname, address.port), timeout=5) as s:
                if kind == "body":
                    s.sendall(head.encode())
                    slow = b"k" * 100
                else:
                    slow = head.encode()
                started.append(kind)
                for byte in slow:
                    s.sendall(bytes([byte]))
                    if stop.wait(1.0):
                        return
        except OSError:
            stop.wait(0.2)


@contextmanager
def slow_clients(url: str, headers_path: str, body_path: str, count: int = SLOW):
    """``count`` clients sending headers and ``count`` sending bodies one byte a second,
    for the ``with`` block (entered once every one has connected and sent its first
    bytes; RuntimeError when some could not connect within 3 s)."""
    stop, started = threading.Event(), []
    threads = [
        threading.Thread(target=slow_client, args=(url, path, kind, stop, started), daemon=True)
        for kind, path in (("headers", headers_path), ("body", body_path))
        for _ in range(count)
    ]
    for thread in threads:
        thread.start()
    stop.wait(3.0)
    try:
        if len(started) < 2 * count:
            raise RuntimeError(f"{len(started)} of {2 * count} slow clients connected")
        yield
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=5)
