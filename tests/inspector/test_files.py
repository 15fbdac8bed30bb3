"""inspector.files.write_atomic: the old file or the new one, never half of one; the .bak copy."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector import files


def test_replaces_and_keeps_the_previous_file_as_bak(tmp_path: Path) -> None:
    target = tmp_path / "order.json"
    target.write_bytes("旧\r\n".encode())
    files.write_atomic(target, "新\n", keep_backup=True)
    assert target.read_bytes() == "新\n".encode()
    assert (tmp_path / "order.json.bak").read_bytes() == "旧\r\n".encode()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["order.json", "order.json.bak"]


def test_without_backup_no_bak_is_written(tmp_path: Path) -> None:
    target = tmp_path / "export.md"
    files.write_atomic(target, "a")
    files.write_atomic(target, "b")
    assert target.read_text() == "b" and not (tmp_path / "export.md.bak").exists()


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "config.toml"
    target.write_text("old", encoding="utf-8")

    def full_disk(_fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full_disk)
    with pytest.raises(OSError):
        files.write_atomic(target, "new", keep_backup=True)
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]
