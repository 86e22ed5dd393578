"""Backup files of the whole database, and putting one back.

A backup file is UTF-8 JSON, gzip-compressed when its name ends in ``.gz``::

    {"format": "bummerl-backup", "version": 1, "taken_at": "2026-11-30T13:50:00.123456+00:00",
     "database": "postgresql", "migrations": ["clubs.0001_initial", …],
     "objects": [{"model": "clubs.club", "pk": 1, "fields": {…}}, …]}

``objects`` are Django's serialized form (natural keys for users, groups and permissions,
as ``dumpdata --natural-foreign --natural-primary`` writes them), except that date-times
and times keep their microseconds (Django's JSON encoder cuts them to milliseconds). The
file loads on SQLite and on PostgreSQL alike, whichever of them wrote it.

What is not in a backup: content types and permissions (``migrate`` makes them), sessions,
the sign-in guard's records (django-axes), the task queue's jobs and the printouts' jobs
(django-q2, ``base.models.PrintJob``: made again on request), the limits' counts
(``base.models.Count``), the admin's change history, nor the fields a model names in
``BACKUP_LEAVES_OUT``: secrets not yet used (the next digital draw's seed, RULES.md
5.12), which a restore makes anew by their defaults.

Guarantees:

* ``take_backup`` reads every table inside one snapshot (PostgreSQL: one REPEATABLE READ
  transaction; SQLite: one read transaction, which in WAL mode sees one state of the
  file while writers go on), so a file never holds a row pointing at a row it lacks.
* Files are written under a temporary name with mode 0600 and appear under their own
  name only when complete; the backups folder is made with mode 0700.
* ``restore_backup`` reads the whole file, checks it and loads it into a scratch
  database first (SQLite: a temporary file; PostgreSQL: a database it creates and drops).
  Only when that load passed every constraint is the live data replaced, in one
  transaction that first writes the data as it was to a file of its own and rolls back
  on any failure. While the site's writers go on, that transaction gives way to them
  rather than wait in a circle with one of them, and is begun again (``_lock_tables``).
"""

import copy
import gzip
import io
import json
import os
import random
import secrets
import shutil
import tempfile
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime, time
from pathlib import Path
from time import sleep

from django.apps import apps
from django.conf import settings
from django.contrib.auth.management import create_permissions
from django.contrib.contenttypes.management import create_contenttypes
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.core.serializers.python import Deserializer
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, models, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder
from django.db.utils import load_backend
from django.utils import timezone

from base.backup_rows import serialized

FORMAT = "bummerl-backup"
VERSION = 1

# Left out of a backup: made by migrate (content types, permissions), or no club data.
EXCLUDED_APPS = frozenset({"contenttypes", "sessions", "axes", "django_q", "base"})
EXCLUDED_MODELS = frozenset({"auth.permission", "admin.logentry"})
# Emptied by a restore although not in the file: sessions and the admin's history name
# users by id, and a restored user may get another id (users are stored by name).
CLEARED_MODELS = frozenset({"sessions.session", "admin.logentry"})


class Refused(Exception):
    """A backup or restore that was not done; ``str()`` is one line for the operator."""


class MicrosecondEncoder(DjangoJSONEncoder):
    """Django's JSON encoder, but date-times and times keep all six fraction digits."""

    def default(self, o):
        if isinstance(o, datetime | time):
            return o.isoformat()
        return super().default(o)


def backup_dir() -> Path:
    """The folder for backup files: ``settings.BACKUP_DIR``, default ``<project>/backups``."""
    return Path(getattr(settings, "BACKUP_DIR", settings.BASE_DIR / "backups"))


def default_path(prefix: str = "bummerl") -> Path:
    """``<backup_dir>/<prefix>-YYYYmmdd-HHMMSS.json.gz`` (local time), not yet taken."""
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M%S")
    folder = backup_dir()
    path = folder / f"{prefix}-{stamp}.json.gz"
    n = 2
    while path.exists():
        path = folder / f"{prefix}-{stamp}-{n}.json.gz"
        n += 1
    return path


def backed_up_models() -> list[type[models.Model]]:
    """The models a backup holds, in an order that loads (referenced models first)."""
    app_list = []
    for app in apps.get_app_configs():
        if app.label in EXCLUDED_APPS:
            continue
        chosen = [
            m
            for m in app.get_models()
            if m._meta.label_lower not in EXCLUDED_MODELS and m._meta.managed and not m._meta.proxy
        ]
        if chosen:
            app_list.append((app, chosen))
    return serializers.sort_dependencies(app_list, allow_cycles=True)


def _cleared_tables() -> list[str]:
    """Tables a restore empties: every backed-up model's (with its many-to-many tables),
    the sessions and the admin's history."""
    chosen = backed_up_models() + [
        m for m in apps.get_models() if m._meta.label_lower in CLEARED_MODELS
    ]
    tables = []
    for model in chosen:
        tables.append(model._meta.db_table)
        for field in model._meta.local_many_to_many:
            through = field.remote_field.through
            if through is not None and through._meta.auto_created:
                tables.append(through._meta.db_table)
    return tables


def iter_objects(
    using: str = DEFAULT_DB_ALIAS, chosen: dict[type[models.Model], models.QuerySet] | None = None
) -> Iterator[dict]:
    """Every row of every backed-up model as a serialized dict (``base.backup_rows``);
    ``chosen``: only these rows of each model (``base.club_backups.club_rows``), in its
    order. Consistent only inside ``snapshot`` or a transaction that keeps writers out."""
    for model in backed_up_models() if chosen is None else list(chosen):
        every = model._base_manager.using(using)
        rows = (every if chosen is None else chosen[model]).order_by(model._meta.pk.name)
        yield from serialized(model, rows)


def applied_migrations(using: str = DEFAULT_DB_ALIAS) -> list[str]:
    """``["app.name", …]`` of the migrations applied to the database, sorted."""
    recorder = MigrationRecorder(connections[using])
    return sorted(f"{app}.{name}" for app, name in recorder.applied_migrations())


@contextmanager
def _sqlite_begin(connection, mode: str):
    """Make the next ``atomic`` on a SQLite connection begin with ``BEGIN <mode>``
    (other databases: nothing)."""
    if connection.vendor != "sqlite":
        yield
        return
    connection.ensure_connection()
    kept = connection.transaction_mode
    connection.transaction_mode = mode
    try:
        yield
    finally:
        connection.transaction_mode = kept


@contextmanager
def snapshot(using: str = DEFAULT_DB_ALIAS):
    """One read-only transaction in which every query sees the same committed state.

    PostgreSQL: REPEATABLE READ, READ ONLY. SQLite: BEGIN DEFERRED, whose read lock (in
    WAL mode: its end mark in the log) holds from the first read to the end. Refused
    inside a transaction already begun, whose state may be older."""
    connection = connections[using]
    if connection.in_atomic_block:
        raise Refused("a backup needs a transaction of its own (called inside another)")
    if connection.vendor == "postgresql":
        with transaction.atomic(using=using):
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield
    elif connection.vendor == "sqlite":
        with _sqlite_begin(connection, "DEFERRED"), transaction.atomic(using=using):
            yield
    else:
        raise Refused(f"backups support SQLite and PostgreSQL, not {connection.vendor}")


def _make_folder(folder: Path) -> None:
    """Create ``folder`` (and parents) if missing; the backup folder itself is 0700."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if folder.resolve() == backup_dir().resolve():
        folder.chmod(0o700)


def write_file(path: Path, header: dict, objects: Iterable[dict]) -> int:
    """``_write_file``, with a folder or file that cannot be made refused in one line."""
    try:
        return _write_file(path, header, objects)
    except OSError as error:
        raise Refused(f"{error.filename or path}: cannot be written ({error.strerror})") from None


def _write_file(path: Path, header: dict, objects: Iterable[dict]) -> int:
    """Write a backup file at ``path`` (gzip when it ends in ``.gz``), mode 0600.

    The file appears under ``path`` only when complete (written under a temporary name,
    synced, then linked); Refused when ``path`` exists. Returns the number of objects."""
    path = Path(path)
    _make_folder(path.parent)
    if path.exists():
        raise Refused(f"{path} exists already: choose another name")
    part = path.with_name(f".{path.name}.{secrets.token_hex(4)}.part")
    count = 0
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as raw:
            os.fchmod(raw.fileno(), 0o600)
            out = gzip.GzipFile(fileobj=raw, mode="wb") if path.suffix == ".gz" else raw
            count = write_objects(out, header, objects)
            if out is not raw:
                out.close()
            raw.flush()
            os.fsync(raw.fileno())
        try:
            os.link(part, path)
        except FileExistsError:
            raise Refused(f"{path} exists already: choose another name") from None
    finally:
        part.unlink(missing_ok=True)
    return count


def write_objects(out, header: dict, objects: Iterable[dict]) -> int:
    """Write a backup document (``header`` with ``objects``, one object a line) to the
    binary stream ``out``, uncompressed; returns the number of objects. Files and
    downloads are written by it alike."""
    count = 0
    head = json.dumps(header, ensure_ascii=False, cls=MicrosecondEncoder)
    out.write(head[:-1].encode() + b', "objects": [')
    for obj in objects:
        line = json.dumps(obj, ensure_ascii=False, cls=MicrosecondEncoder)
        out.write((",\n" if count else "\n").encode() + line.encode())
        count += 1
    out.write(b"\n]}\n")
    return count


def backup_bytes(using: str = DEFAULT_DB_ALIAS) -> tuple[bytes, int]:
    """One consistent snapshot of the database as the bytes of a ``.json.gz`` backup
    file, made in memory (nothing is written to the server's disk): ``(data, objects)``.
    The same document as ``take_backup`` writes; Refused as ``snapshot``."""
    buffer = io.BytesIO()
    with snapshot(using), gzip.GzipFile(fileobj=buffer, mode="wb") as out:
        count = write_objects(out, header(using), iter_objects(using))
    return buffer.getvalue(), count


def header(using: str, *, club: str | None = None) -> dict:
    """A backup file's header; ``club``: the slug of the club of a club file."""
    made = {
        "format": FORMAT,
        "version": VERSION,
        "taken_at": timezone.now(),
        "database": connections[using].vendor,
        "migrations": applied_migrations(using),
    }
    return made | {"club": club} if club else made


def take_backup(path: Path | None = None, using: str = DEFAULT_DB_ALIAS) -> tuple[Path, int]:
    """Write one consistent snapshot of the database to ``path`` (default: a new
    ``bummerl-<time>.json.gz`` in ``backup_dir()``). Returns (path, objects written)."""
    path = Path(path) if path else default_path()
    with snapshot(using):
        count = write_file(path, header(using), iter_objects(using))
    return path, count


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 300 else text[:297] + "…"


def read_file(path: Path) -> dict:
    """Read and check a backup file: its whole text, its header, every object's model.

    Returns the document (see the module doc). Refused (one line, naming ``path``) on a
    missing or unreadable file, a damaged or cut gzip stream, text that is not JSON, a
    JSON that is not a Bummerl backup, objects of models a backup does not hold, and
    migrations this code does not know (a backup of a newer version)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise Refused(f"{path}: no such file") from None
    except OSError as error:
        raise Refused(f"{path}: cannot be read ({error.strerror})") from None
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (EOFError, OSError, zlib.error) as error:
            raise Refused(f"{path}: damaged or incomplete gzip file ({_one_line(error)})") from None
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise Refused(f"{path}: not a Bummerl backup (no JSON: {_one_line(error)})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise Refused(f"{path}: not a Bummerl backup (not written by `manage.py backup`)")
    if document.get("version") != VERSION:
        raise Refused(f"{path}: backup format version {document.get('version')!r} unknown")
    objects = document.get("objects")
    if not isinstance(objects, list):
        raise Refused(f"{path}: not a Bummerl backup (no list of objects)")
    allowed = {m._meta.label_lower for m in backed_up_models()}
    for number, obj in enumerate(objects, 1):
        model = obj.get("model") if isinstance(obj, dict) else None
        if model not in allowed or not isinstance(obj.get("fields"), dict):
            raise Refused(
                f"{path}: object {number} ({model!r}) is not a row a Bummerl backup holds"
            )
    known = {f"{app}.{name}" for app, name in MigrationExecutor(None).loader.disk_migrations}
    unknown = sorted(set(document.get("migrations") or []) - known)
    if unknown:
        raise Refused(
            f"{path}: made by a newer version of Bummerl (migration {unknown[0]} is unknown)"
        )
    return document


def replace_rows(using: str, objects: list[dict]) -> int:
    """Empty the backed-up tables (and sessions, admin history) and load ``objects``.

    Must run inside ``transaction.atomic(using)``: foreign keys are checked before it
    returns (IntegrityError), unique and check constraints on each row, so the caller's
    rollback undoes everything. Returns the number of objects loaded."""
    connection = connections[using]
    with connection.cursor() as cursor:
        for table in _cleared_tables():
            cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")
    # Natural keys (users, groups) are looked up as rows are read: the file lists
    # those models before the rows naming them; foreign keys by id are checked below.
    count = 0
    for row in Deserializer(objects, using=using):
        row.save(using=using)
        count += 1
    connection.check_constraints(table_names=_cleared_tables())
    chosen = backed_up_models()
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), chosen):
            cursor.execute(sql)
    return count


def _create_schema(alias: str) -> None:
    """Make every installed model's table on the empty database ``alias``, with the
    content types and permissions ``migrate`` would add.

    Tables come from the models as they are, not from replaying the migrations: a data
    migration that writes through the default connection would change the live data."""
    connection = connections[alias]
    with connection.schema_editor() as editor:
        for model in apps.get_models():
            if model._meta.managed and not model._meta.proxy:
                editor.create_model(model)
    for app in apps.get_app_configs():
        create_contenttypes(app, verbosity=0, using=alias)
        create_permissions(app, verbosity=0, using=alias)


@contextmanager
def scratch_database(using: str = DEFAULT_DB_ALIAS) -> Iterator[str]:
    """An empty database with every table, beside ``using``, as a connection alias; dropped after.

    SQLite: a file in a new private temporary folder. PostgreSQL: a database named after
    the live one, created and dropped here (the role needs CREATEDB)."""
    live = connections[using]
    config = copy.deepcopy(live.settings_dict)
    alias = f"restore_scratch_{secrets.token_hex(4)}"
    folder = None
    if live.vendor == "sqlite":
        folder = tempfile.mkdtemp(prefix="bummerl-restore-")
        config["NAME"] = os.path.join(folder, "scratch.sqlite3")
    elif live.vendor == "postgresql":
        config["NAME"] = f"{config['NAME'][:40]}_restore_{secrets.token_hex(4)}"
        try:
            with live.cursor() as cursor:
                cursor.execute(f"CREATE DATABASE {live.ops.quote_name(config['NAME'])}")
        except Exception as error:
            raise Refused(f"no scratch database could be made ({_one_line(error)})") from None
    else:
        raise Refused(f"restore supports SQLite and PostgreSQL, not {live.vendor}")
    # Registered as a connection only, not in the settings: it exists for this restore.
    connections[alias] = load_backend(config["ENGINE"]).DatabaseWrapper(config, alias)
    try:
        _create_schema(alias)
        yield alias
    finally:
        connections[alias].close()
        del connections[alias]
        if folder:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            with live.cursor() as cursor:
                cursor.execute(f"DROP DATABASE IF EXISTS {live.ops.quote_name(config['NAME'])}")


RESTORE_TRIES = 10  # tries of the restore's step that may give way to the writers
# PostgreSQL's codes of giving way: deadlock, serialization, lock not available, timeout.
_GAVE_WAY = frozenset({"40P01", "40001", "55P03", "57014"})


class _GaveWay(Exception):  # a try of the restore's step gave way to the writers
    ...


def _lock_tables(using: str) -> None:
    """Keep every writer out of the tables a restore replaces until the transaction
    ends (PostgreSQL; SQLite's BEGIN IMMEDIATE holds the whole file's write lock).

    The tables are locked one after the other: a writer holding one and asking for one
    locked already would wait in a circle with the restore. So the locking may take half
    of PostgreSQL's ``deadlock_timeout``; then the restore gives way (``_GaveWay``, its
    try rolled back) before a writer waiting for it is ever checked for a deadlock."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return
    names = ", ".join(connection.ops.quote_name(t) for t in _cleared_tables())
    with connection.cursor() as cursor:
        cursor.execute("SELECT extract(epoch FROM current_setting('deadlock_timeout')::interval)")
        cursor.execute(f"SET LOCAL statement_timeout = {max(1, int(cursor.fetchone()[0] * 500))}")
        try:
            cursor.execute(f"LOCK TABLE {names} IN EXCLUSIVE MODE")
        except DatabaseError as error:
            if getattr(error.__cause__, "sqlstate", None) in _GAVE_WAY:
                raise _GaveWay from error
            raise
        cursor.execute("SET LOCAL statement_timeout TO DEFAULT")


def restore_backup(
    path: Path, using: str = DEFAULT_DB_ALIAS, before: Path | None = None
) -> tuple[int, Path]:
    """Replace every backed-up row of the database by the backup file at ``path``.

    The file is read and checked (``read_file``), then loaded into a scratch database;
    any failure there raises Refused and nothing was changed. Then one transaction locks
    out writers, writes the data as it is to ``before`` (default: a new
    ``bummerl-before-restore-<time>.json.gz`` in ``backup_dir()``), empties the tables
    and loads the file; a failure rolls all of it back. A try that gives way to the
    site's writers (``_lock_tables``) is begun again, up to ``RESTORE_TRIES`` times.
    The database must be migrated. Returns (objects loaded, path of the before-file)."""
    document = read_file(path)
    connection = connections[using]
    if connection.in_atomic_block:
        raise Refused("a restore needs a transaction of its own (called inside another)")
    executor = MigrationExecutor(connection)
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        raise Refused("the database is not migrated: run `manage.py migrate` first")
    objects = document["objects"]
    with scratch_database(using) as scratch:
        try:
            with transaction.atomic(using=scratch):
                replace_rows(scratch, objects)
        except Exception as error:
            raise Refused(
                f"{path}: does not load ({type(error).__name__}: {_one_line(error)}); "
                "nothing was changed"
            ) from None
    before = Path(before) if before else default_path("bummerl-before-restore")
    tried = 0
    while True:
        tried += 1
        try:
            with _sqlite_begin(connection, "IMMEDIATE"), transaction.atomic(using=using):
                _lock_tables(using)
                write_file(before, header(using), iter_objects(using))
                count = replace_rows(using, objects)
            return count, before
        except _GaveWay:
            if tried == RESTORE_TRIES:
                raise Refused(
                    f"{path}: writers kept the tables busy; nothing was changed"
                ) from None
            sleep(random.uniform(0.05, 0.2) * tried)  # the writers finish meanwhile
        except Refused:
            raise
        except Exception as error:
            raise Refused(
                f"{path}: restore failed and was rolled back, nothing was changed "
                f"({type(error).__name__}: {_one_line(error)})"
            ) from None
