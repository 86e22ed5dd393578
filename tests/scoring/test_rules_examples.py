"""The worked examples of the rule texts, scored as score-sheet JSON documents.

Each file in ``tests/examples/`` (a copy of ``shared/examples/``) holds a sheet and,
under ``"expect"``, the values RULES.md demands; every one of them is checked here,
through ``scoring.sheetjson.score_document`` and through ``manage.py score``.
"""

import filecmp
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.sheetjson import score_document

ROOT = Path(__file__).resolve().parents[2]
SHARED_EXAMPLES = Path(__file__).resolve().parents[3] / "shared" / "examples"
LOCAL_EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
# The copy in tests/examples/ travels with the repository; the shared folder need not.
EXAMPLES = LOCAL_EXAMPLES if LOCAL_EXAMPLES.is_dir() else SHARED_EXAMPLES
EXAMPLE_FILES = sorted(EXAMPLES.glob("*.json"))


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def check_expect(expect: dict, scored: dict) -> None:
    """Assert every value under ``expect`` against the scored document."""
    players = scored["players"]
    deals = scored["deals"]
    for key, want in expect.items():
        if key == "deal_points":
            # A player a deal does not name scores nothing in it.
            assert len(want) == len(deals), key
            for number, (points, deal) in enumerate(zip(want, deals, strict=True), start=1):
                full = {p: points.get(p, 0) for p in players}
                assert deal["points"] == full, f"deal {number} points"
        elif key == "totals_after":
            assert deals[-1]["totals"] == want, key
        elif key == "left_after":
            assert deals[-1]["left"] == want, key
        elif key == "open_totals":
            assert scored["current"]["totals"] == want, key
        elif key == "tally":
            assert scored["tally"] == want, key
        elif key == "games":
            assert len(scored["games"]) == len(want), key
            for number, (game, got) in enumerate(zip(want, scored["games"], strict=True), 1):
                for field, value in game.items():
                    assert got[field] == value, f"game {number} {field}"
        else:
            pytest.fail(f"unknown key {key!r} under expect: teach check_expect to read it")


def test_the_examples_are_there():
    assert [p.name for p in EXAMPLE_FILES] == [
        "dreier-evening.json",
        "dreier-gang.json",
        "zweier-ausmelden.json",
        "zweier-zudrehen.json",
    ]


def test_the_tests_use_the_copy_in_tests_examples():
    assert EXAMPLES == LOCAL_EXAMPLES


@pytest.mark.skipif(not SHARED_EXAMPLES.is_dir(), reason="the shared folder is not beside main")
def test_the_example_copies_match_the_shared_originals():
    originals = sorted(SHARED_EXAMPLES.glob("*.json"))
    assert [p.name for p in originals] == [p.name for p in EXAMPLE_FILES]
    for original in originals:
        assert filecmp.cmp(original, LOCAL_EXAMPLES / original.name, shallow=False), original.name


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_worked_example_scores_the_values_the_rules_demand(path):
    document = load(path)
    assert document["expect"], "an example without expectations proves nothing"
    check_expect(document["expect"], score_document(document))


def test_gang_won_scores_nine_and_lost_gives_nine_to_each_opponent():
    scored = score_document(load(EXAMPLES / "dreier-gang.json"))
    assert [d["points"] for d in scored["deals"]] == [
        {"Anna": 0, "Ben": 0, "Clara": 9},
        {"Anna": 0, "Ben": 9, "Clara": 9},
    ]


def test_evening_example_opens_game_two_with_anna_dealing_again():
    scored = score_document(load(EXAMPLES / "dreier-evening.json"))
    assert [d["dealer"] for d in scored["deals"]] == ["Anna", "Ben", "Clara", "Anna"]
    assert [d["rufer"] for d in scored["deals"]] == ["Ben", "Clara", "Anna", "Ben"]
    assert [d["game"] for d in scored["deals"]] == [1, 1, 1, 2]


# --- manage.py score ------------------------------------------------------------------------


def run_score(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "score", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_score_command_prints_the_scored_sheet():
    path = EXAMPLES / "dreier-evening.json"
    result = run_score(path)
    assert result.returncode == 0, result.stderr
    scored = json.loads(result.stdout)
    check_expect(load(path)["expect"], scored)
    assert scored == score_document(load(path))


@pytest.mark.parametrize(
    ("deals", "deal_number", "field"),
    [
        (
            [
                {"contract": "gang", "declarer": "Anna", "won": True},
                {"contract": "gang", "declarer": "Zoe", "won": True},
            ],
            2,
            "declarer",
        ),
        (
            [
                {"contract": "bettler", "declarer": "Anna", "won": True},
                {"contract": "bettler", "declarer": "Ben", "won": False},
                {"contract": "solo", "declarer": "Clara", "won": True},
            ],
            3,
            "contract",
        ),
    ],
    ids=["wrong-declarer-name", "unknown-contract"],
)
def test_score_command_names_the_deal_and_field_of_a_bad_document(
    tmp_path, deals, deal_number, field
):
    document = {
        "variant": "dreierschnapsen",
        "rule_set": "wiki",
        "players": ["Anna", "Ben", "Clara"],
        "deals": deals,
    }
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    result = run_score(path)
    assert result.returncode != 0
    assert result.stdout == ""
    assert f"deal {deal_number}, {field}:" in result.stderr
