"""``BUMMERL_CACHE_URL``: the default cache in Redis when named, each process's memory
when not (the settings read in a process of their own, as a server starts them)."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READ = "import json; from bummerl import settings; print(json.dumps(settings.CACHES['default']))"


def default_cache(**env):
    base = {k: v for k, v in os.environ.items() if k != "BUMMERL_CACHE_URL"}
    done = subprocess.run(
        [sys.executable, "-c", READ],
        cwd=ROOT,
        env={**base, "DJANGO_DEBUG": "1", **env},
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode, (json.loads(done.stdout) if done.returncode == 0 else done.stderr)


def test_the_default_cache_is_the_process_memory_unless_named():
    assert default_cache() == (0, {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"})


def test_a_redis_address_makes_the_default_cache_redis():
    code, cache = default_cache(BUMMERL_CACHE_URL="redis://127.0.0.1:6379/3")
    assert code == 0
    assert cache == {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:6379/3",
    }


def test_an_address_that_is_not_redis_stops_the_start():
    code, error = default_cache(BUMMERL_CACHE_URL="memcached://127.0.0.1:11211")
    assert code != 0
    assert "BUMMERL_CACHE_URL" in error
