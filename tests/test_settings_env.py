"""Settings from the environment: typed readers that fail loudly."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from bummerl.env import env_bool, env_int, env_list


def test_env_bool_reads_the_usual_spellings(monkeypatch):
    for raw, value in [("1", True), ("yes", True), ("ON", True), ("0", False), ("false", False)]:
        monkeypatch.setenv("X_FLAG", raw)
        assert env_bool("X_FLAG", not value) is value


def test_env_bool_refuses_anything_else_and_names_the_variable(monkeypatch):
    monkeypatch.setenv("X_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="X_FLAG"):
        env_bool("X_FLAG", False)


def test_env_int_refuses_a_word(monkeypatch):
    monkeypatch.setenv("X_NUM", "twenty")
    with pytest.raises(ImproperlyConfigured, match="X_NUM"):
        env_int("X_NUM", 1)
    monkeypatch.delenv("X_NUM")
    assert env_int("X_NUM", 7) == 7


def test_env_list_splits_on_commas(monkeypatch):
    monkeypatch.setenv("X_HOSTS", "a.example, b.example,,")
    assert env_list("X_HOSTS", []) == ["a.example", "b.example"]
