"""Fixtures of the base package's tests."""

from pathlib import Path

import pytest


@pytest.fixture
def folder(settings, tmp_path) -> Path:
    settings.BACKUP_DIR = tmp_path / "backups"
    return settings.BACKUP_DIR
