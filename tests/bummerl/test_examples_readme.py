"""The examples the README points to: ``manage.py score`` gives what RULES.md demands."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))


def subset(expected, actual, where="") -> None:
    """Every value of ``expected`` is in ``actual`` (objects compared key by key)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), where
        for key, value in expected.items():
            assert key in actual, f"{where}.{key} missing"
            subset(value, actual[key], f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), where
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            subset(e, a, f"{where}[{i}]")
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_score_command_gives_the_values_of_the_rules(path):
    done = subprocess.run(
        [sys.executable, "manage.py", "score", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    scored = json.loads(done.stdout)
    expect = json.loads(path.read_text("utf-8"))["expect"]
    subset(expect, scored)


def test_score_command_names_the_deal_and_field_and_fails(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "variant": "dreierschnapsen",
                "players": ["Anna", "Ben", "Clara"],
                "deals": [
                    {"contract": "normal", "declarer": "Ben", "won": True, "normal_points": 1},
                    {"contract": "schnapser", "declarer": "Ben", "won": True},
                ],
            }
        )
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "score", str(bad)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    # Deal 2 is dealt by Ben, so Clara is Rufer: only she may play a Schnapser.
    assert done.returncode != 0
    assert "deal 2, declarer" in done.stderr
    assert done.stdout == ""
