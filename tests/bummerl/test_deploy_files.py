"""The deployment files the server guide walks through (deploy/): the systemd units start
what exists in the project, the backup timer has its service. That the guide names each
file is tests/bummerl/test_server_guide.py's."""

import configparser
import shlex
from pathlib import Path

from django.core.management import get_commands

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # systemd's keys are case-sensitive
    parser.read(DEPLOY / name)
    return parser


def test_the_site_unit_starts_gunicorn_with_the_projects_log_config():
    service = unit("bummerl.service")["Service"]
    command = shlex.split(service["ExecStart"])
    assert command[0].endswith("/.venv/bin/gunicorn") and command[1] == "bummerl.wsgi"
    config = command[command.index("-c") + 1]
    assert (ROOT / config).is_file()
    assert service["EnvironmentFile"] == "/etc/bummerl.env"
    assert service["Restart"] == "on-failure"


def test_the_backup_runs_the_backup_command_every_night_and_keeps_30_days():
    service = unit("bummerl-backup.service")["Service"]
    command = shlex.split(service["ExecStart"])
    assert command[1:] == ["manage.py", "backup"] and "backup" in get_commands()
    assert "-mtime +30 -delete" in service["ExecStartPost"]
    timer = unit("bummerl-backup.timer")["Timer"]
    assert timer["OnCalendar"] == "*-*-* 04:30:00" and timer["Persistent"] == "true"


def test_the_worker_unit_runs_the_task_queues_cluster():
    service = unit("bummerl-worker.service")["Service"]
    command = shlex.split(service["ExecStart"])
    # The site's own command of that name (it stops on SIGTERM, tests/base/test_worker_stop.py).
    assert command[1:] == ["manage.py", "qcluster"] and get_commands()["qcluster"] == "bummerl"
    assert service["EnvironmentFile"] == "/etc/bummerl.env"
    # It stops by itself within 15 s: systemd's SIGKILL after 30 s is never needed.
    assert service.get("KillSignal", "SIGTERM") == "SIGTERM" and service["TimeoutStopSec"] == "30"


def test_gunicorn_keeps_no_control_socket_in_the_users_home(tmp_path):
    """gunicorn's control socket would lie in ``$HOME/.gunicorn/``, shared by every gunicorn
    of the user, and a system user without a home would get an ERROR at each start."""
    import os
    import socket
    import subprocess
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "HOME": str(tmp_path / "home"), "DJANGO_DEBUG": "1"}
    env.pop("XDG_RUNTIME_DIR", None)
    (tmp_path / "home").mkdir()
    command = [str(ROOT / ".venv/bin/gunicorn"), "bummerl.wsgi", "-c", "bummerl/gunicorn.conf.py"]
    server = subprocess.Popen(
        [*command, "-b", f"127.0.0.1:{port}", "-w", "1"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0]
    assert "Listening at" in output
    assert " ERROR " not in output and "control" not in output.lower(), output
    assert list((tmp_path / "home").iterdir()) == []


def test_the_push_unit_serves_the_push_server_and_the_proxy_sends_it_the_version_paths():
    """The proxy's pattern takes exactly the site's two version paths (scoring.urls), and
    the push server's port is the unit's."""
    import re

    from django.urls import reverse

    service = unit("bummerl-push.service")["Service"]
    command = shlex.split(service["ExecStart"])
    assert command[0].endswith("/.venv/bin/uvicorn") and command[1] == "bummerl.asgi:application"
    port = command[command.index("--port") + 1]
    assert service["EnvironmentFile"] == "/etc/bummerl.env"
    caddy = (DEPLOY / "Caddyfile").read_text()
    pattern = re.search(r"@version path_regexp (\S+)", caddy).group(1)
    assert f"reverse_proxy @version 127.0.0.1:{port}" in caddy
    version_paths = [
        reverse("entry:version", kwargs={"token": "k7m4-p9x2-r3q8-w5ab"}),
        reverse("sheet:version", kwargs={"pk": 12}),
    ]
    assert all(re.match(pattern, path) for path in version_paths)
    others = ["/e/k7m4-p9x2-r3q8-w5ab/", "/tables/12/record/", "/e/a/b/version/", "/version/"]
    assert not any(re.match(pattern, path) for path in others)


def test_the_push_unit_is_sized_and_listens_behind_the_proxy_only():
    """The push server takes 6,000 requests at once (then 503 at once), has a file for
    each and as many again to spare, and listens on 127.0.0.1 only: uvicorn bounds no
    request whose headers come slowly, so only the proxy, which passes on whole requests,
    may reach it. The bench runs it with these flags (tests.serving.push_flags)."""
    from tests.serving import push_flags

    service = unit("bummerl-push.service")["Service"]
    command = shlex.split(service["ExecStart"])
    concurrency = int(command[command.index("--limit-concurrency") + 1])
    assert concurrency == 6000
    assert int(service["LimitNOFILE"]) >= 2 * concurrency
    assert int(command[command.index("--backlog") + 1]) <= 4096  # net.core.somaxconn
    assert command[command.index("--host") + 1] == "127.0.0.1"
    assert command[command.index("--forwarded-allow-ips") + 1] == "127.0.0.1"
    host, port = command.index("--host"), command.index("--port")
    assert push_flags() == [
        w for i, w in enumerate(command[2:], 2) if i not in (host, host + 1, port, port + 1)
    ]
