"""The order editor's table model and edits, without a window: move-only drag and drop through
``mimeData``/``dropMimeData`` (as napari tests its list model), undo and redo of every kind of
edit, normalisation's reasons, and the atomic save with its ``.bak``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QModelIndex, Qt

from inspector.writing_agent.edits import (
    ERROR_DROP_OUTSIDE, ERROR_EMPTY_REF, ERROR_INSERT_WITHOUT_REF, move, move_to, set_anchor,
)
from inspector.writing_agent.assembly import BAG_NAMES
from inspector.writing_agent.order import Insert, OrderEditError, normalise, read_context_order, serialise
from inspector.writing_agent.vocabulary import PROJECTIONS
from ui.order_editor.commands import error_text, translated_messages
from ui.order_editor.document import OrderDocument, OrderFileError, read_order_file, save_with_backup
from ui.order_editor.model import (
    COL_LABEL, COL_NOTE, COL_PROJECTION, COL_REF, MIME_TYPE, InsertsModel, bag_labels, projection_label,
)
from ui.order_editor.window import SAMPLE_ORDER

WS = "world-simulator"
WS_REFS = ["worker.persona", "设计.实现机制", "设计.舞台骨架", "上下文.定稿摘要", "对话.历史", "运行.事件流",
           "变量.当前", "用户.最新输入"]


@pytest.fixture
def sample() -> Any:
    return normalise(read_context_order(SAMPLE_ORDER.read_text(encoding="utf-8"))).document


@pytest.fixture
def model(qapp: Any, sample: Any) -> InsertsModel:
    owner = OrderDocument(sample)
    m = InsertsModel(owner)
    m.set_slot(WS)
    return m


def refs(model: InsertsModel) -> list[str]:
    return [model.index(r, COL_REF).data() for r in range(model.rowCount())]


def drag(model: InsertsModel, source: int) -> QMimeData:
    return model.mimeData([model.index(source, c) for c in range(model.columnCount())])


def reorder(order: list[str], source: int, destination: int) -> list[str]:
    out = list(order)
    item = out.pop(source)
    out.insert(destination - 1 if destination > source else destination, item)
    return out


# --- drag and drop -----------------------------------------------------------------------------

@pytest.mark.parametrize(("source", "destination"), [(1, 3), (3, 1), (2, 8), (7, 5), (5, 4), (4, 6), (6, 2)])
def test_drop_moves_one_row_like_the_engine_moves(model: InsertsModel, source: int, destination: int) -> None:
    mime = drag(model, source)
    assert mime.hasFormat(MIME_TYPE)
    assert mime.text() == WS_REFS[source]
    assert model.canDropMimeData(mime, Qt.DropAction.MoveAction, destination, 0, QModelIndex())
    assert model.dropMimeData(mime, Qt.DropAction.MoveAction, destination, 0, QModelIndex())
    assert refs(model) == reorder(WS_REFS, source, destination)
    # The same as the engine's ±1 moves, step by step.
    doc = normalise(read_context_order(SAMPLE_ORDER.read_text(encoding="utf-8"))).document
    index, final = source, destination - 1 if destination > source else destination
    while index != final:
        step = 1 if final > index else -1
        doc = move(doc, WS, index, step).document
        index += step
    assert model.owner.document == doc
    assert [i.order for i in model.owner.document.slot(WS).inserts] == list(range(8))
    # One drop is one undo step.
    assert model.owner.undo_stack.count() == 1
    model.owner.undo_stack.undo()
    assert refs(model) == WS_REFS
    model.owner.undo_stack.redo()
    assert refs(model) == reorder(WS_REFS, source, destination)


def test_a_drop_on_a_row_lands_before_it_and_on_the_empty_area_at_the_end(model: InsertsModel) -> None:
    assert model.dropMimeData(drag(model, 2), Qt.DropAction.MoveAction, -1, -1, model.index(5, 0))
    assert refs(model) == reorder(WS_REFS, 2, 5)
    assert model.dropMimeData(drag(model, 1), Qt.DropAction.MoveAction, -1, -1, QModelIndex())
    assert refs(model)[-1] == reorder(WS_REFS, 2, 5)[1]


def test_only_moves_of_our_rows_in_this_slot_are_accepted(model: InsertsModel, sample: Any) -> None:
    mime = drag(model, 2)
    assert not model.canDropMimeData(mime, Qt.DropAction.CopyAction, 4, 0, QModelIndex())
    assert not model.dropMimeData(mime, Qt.DropAction.CopyAction, 4, 0, QModelIndex())
    plain = QMimeData()
    plain.setText("设计.舞台骨架")
    assert not model.canDropMimeData(plain, Qt.DropAction.MoveAction, 4, 0, QModelIndex())
    other = InsertsModel(OrderDocument(sample))
    other.set_slot(WS)
    assert not other.canDropMimeData(mime, Qt.DropAction.MoveAction, 4, 0, QModelIndex())  # another document
    narrator = InsertsModel(model.owner)
    narrator.set_slot("narrator")
    assert not narrator.canDropMimeData(mime, Qt.DropAction.MoveAction, 4, 0, QModelIndex())  # another slot
    assert model.supportedDropActions() == Qt.DropAction.MoveAction
    assert not model.flags(model.index(2, 0)) & Qt.ItemFlag.ItemIsDropEnabled
    assert model.flags(QModelIndex()) & Qt.ItemFlag.ItemIsDropEnabled
    assert refs(model) == WS_REFS and model.owner.undo_stack.count() == 0


def test_dropping_a_row_onto_its_own_place_is_no_edit(model: InsertsModel) -> None:
    for destination in (3, 4):
        assert not model.dropMimeData(drag(model, 3), Qt.DropAction.MoveAction, destination, 0, QModelIndex())
    assert model.owner.undo_stack.count() == 0


def test_the_persona_stays_first_and_the_reason_is_reported(model: InsertsModel) -> None:
    notices: list = []
    model.owner.notice.connect(notices.append)
    # Dragging the persona down: the engine's normalisation undoes it, nothing to undo.
    assert model.dropMimeData(drag(model, 0), Qt.DropAction.MoveAction, 3, 0, QModelIndex())
    assert refs(model) == WS_REFS
    assert model.owner.undo_stack.count() == 0
    assert [c.kind for c in notices[-1]] == ["move-undone"]
    assert notices[-1][0].message == "persona pinned first: move undone"
    # Dragging a row above it: it goes as far as row 1, and the reason comes with the edit.
    shown: list = []
    model.owner.shown.connect(lambda doc, focus, changes: shown.append((focus, changes)))
    assert model.dropMimeData(drag(model, 3), Qt.DropAction.MoveAction, 0, 0, QModelIndex())
    assert refs(model) == ["worker.persona", "上下文.定稿摘要", "设计.实现机制", "设计.舞台骨架", *WS_REFS[4:]]
    focus, changes = shown[-1]
    assert (focus.slot_ref, focus.row) == (WS, 1)
    assert [c.kind for c in changes] == ["move-undone"]


# --- cell edits ----------------------------------------------------------------------------------

def test_projection_ref_label_and_note_edits_are_undoable(model: InsertsModel) -> None:
    stack = model.owner.undo_stack
    assert model.setData(model.index(2, COL_PROJECTION), "fields")
    assert model.index(2, COL_PROJECTION).data(Qt.ItemDataRole.EditRole) == "fields"
    assert model.setData(model.index(2, COL_LABEL), "## 舞台")
    assert model.setData(model.index(2, COL_NOTE), "只要骨架")
    assert model.setData(model.index(2, COL_REF), "  设计.叙事指南 ")
    insert = model.owner.document.slot(WS).inserts[2]
    assert (insert.ref, insert.projection, insert.label, insert.note) == ("设计.叙事指南", "fields", "## 舞台", "只要骨架")
    assert stack.count() == 4
    assert not model.setData(model.index(2, COL_NOTE), "只要骨架")  # unchanged: no step
    for _ in range(4):
        stack.undo()
    assert model.owner.document.slot(WS).inserts[2] == Insert("设计.舞台骨架", "full", 2)
    for _ in range(4):
        stack.redo()
    assert model.owner.document.slot(WS).inserts[2].ref == "设计.叙事指南"


def test_an_empty_ref_is_refused_with_a_message(model: InsertsModel) -> None:
    notices: list = []
    model.owner.notice.connect(notices.append)
    assert not model.setData(model.index(3, COL_REF), "   ")
    assert model.last_error and notices[-1] == [model.last_error]
    assert refs(model) == WS_REFS and model.owner.undo_stack.count() == 0


def test_a_second_history_row_is_dropped_by_normalisation(model: InsertsModel) -> None:
    shown: list = []
    model.owner.shown.connect(lambda doc, focus, changes: shown.append(changes))
    assert model.setData(model.index(6, COL_REF), "history")
    assert "变量.当前" not in refs(model) and refs(model).count("对话.历史") == 1
    assert [c.kind for c in shown[-1]] == ["duplicate-history"]
    model.owner.undo_stack.undo()
    assert refs(model) == WS_REFS


def test_add_and_remove_rows(model: InsertsModel) -> None:
    assert model.add(5, "设计.叙事指南", "summary")
    assert refs(model)[5] == "设计.叙事指南"
    assert model.owner.document.slot(WS).inserts[5].projection == "summary"
    assert model.remove(1)
    assert refs(model) == [WS_REFS[0], *WS_REFS[2:5], "设计.叙事指南", *WS_REFS[5:]]
    model.owner.undo_stack.undo()
    model.owner.undo_stack.undo()
    assert refs(model) == WS_REFS
    # Without a persona, one added lower down is pinned first, and the edit says so.
    shown: list = []
    model.owner.shown.connect(lambda doc, focus, changes: shown.append((focus, changes)))
    assert model.remove(0)
    assert model.add(3, "persona", "fixed")
    assert refs(model) == ["persona", *WS_REFS[1:]]
    focus, changes = shown[-1]
    assert focus.row == 0 and [c.kind for c in changes] == ["persona-pinned"]
    # The engine pins only the first persona: a second one stays where it was put.
    assert model.add(4, "worker.persona", "fixed")
    assert refs(model)[4] == "worker.persona"


def test_history_highlight_and_tooltips(model: InsertsModel) -> None:
    assert model.history_row == 4
    assert model.index(4, COL_REF).data(Qt.ItemDataRole.FontRole).bold()
    assert model.index(4, COL_REF).data(Qt.ItemDataRole.BackgroundRole) is not None
    assert model.index(3, COL_REF).data(Qt.ItemDataRole.BackgroundRole) is None
    assert "pinned" in model.index(0, COL_REF).data(Qt.ItemDataRole.ToolTipRole)
    model.set_known_tags(["设计.实现机制"])
    assert model.index(2, COL_REF).data(Qt.ItemDataRole.DecorationRole) is not None  # not on the blackboard
    assert model.index(1, COL_REF).data(Qt.ItemDataRole.DecorationRole) is None
    assert model.index(4, COL_REF).data(Qt.ItemDataRole.DecorationRole) is None  # history is no tag


def test_a_ref_is_known_as_the_engine_reads_it(model: InsertsModel) -> None:
    model.set_known_tags(["设计", "设计.实现机制"])
    assert model.ref_known("设计.*") and model.ref_known(" 设计.实现机制 ") and model.ref_known("**")
    assert not model.ref_known("设计.舞台骨架")
    model.set_known_tags([])
    assert not model.ref_known("**") and not model.ref_known("设计.*")
    assert model.ref_known("worker.persona") and model.ref_known("history")


def test_rejected_edits_are_shown_through_the_editors_translations(sample: Any) -> None:
    # Without a translator the editor's texts are the engine's templates, so none can drift apart.
    assert set(translated_messages()) == {ERROR_DROP_OUTSIDE, ERROR_EMPTY_REF, ERROR_INSERT_WITHOUT_REF}
    assert all(template == text for template, text in translated_messages().items())
    with pytest.raises(OrderEditError) as drop:
        move_to(sample, WS, 1, 9)
    assert error_text(drop.value) == drop.value.message == "drop position 9 is outside 0..8"
    with pytest.raises(OrderEditError) as spec:
        move(sample, WS, 9, 1)
    assert error_text(spec.value) == "插入项下标越界"


def test_the_labels_name_the_engines_bags_and_projections(qapp: Any) -> None:
    assert set(bag_labels()) == {*BAG_NAMES, None}
    assert all(projection_label(p) for p in PROJECTIONS)
    assert projection_label("unknown") == "unknown"


# --- files -------------------------------------------------------------------------------------

def test_save_is_atomic_and_keeps_a_backup(tmp_path: Path, sample: Any, qapp: Any) -> None:
    path = tmp_path / "order.json"
    path.write_text("old content\n", encoding="utf-8")
    doc = OrderDocument(sample, path)
    doc.edit("anchor", lambda d: set_anchor(d, WS, 7, "pre_history"))
    assert not doc.undo_stack.isClean()
    doc.save()
    assert doc.undo_stack.isClean()
    assert (tmp_path / "order.json.bak").read_text(encoding="utf-8") == "old content\n"
    written = path.read_text(encoding="utf-8")
    assert written == serialise(doc.document) + "\n"
    assert read_order_file(path)[0] == doc.document
    assert sorted(p.name for p in tmp_path.iterdir()) == ["order.json", "order.json.bak"]  # no temp files left


def test_a_failed_write_leaves_the_file_and_no_temporary(tmp_path: Path, monkeypatch: Any) -> None:
    import ui.order_editor.document as document_module

    path = tmp_path / "o.json"
    path.write_text("keep me", encoding="utf-8")

    def broken(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(document_module.os, "fsync", broken)
    with pytest.raises(OSError):
        save_with_backup(path, "new")
    assert path.read_text(encoding="utf-8") == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.json"]


def test_a_worker_set_is_read_and_saved_back_as_a_worker_set(tmp_path: Path, sample: Any, qapp: Any) -> None:
    path = tmp_path / "workers.json"
    path.write_text(json.dumps({"workers": [{"ref": "narrator"}], "contextOrder": {"stale": True},
                                "context_order": json.loads(serialise(sample))}, ensure_ascii=False),
                    encoding="utf-8")
    document, container, _changes = read_order_file(path)
    assert container is not None and document == sample
    doc = OrderDocument(document, path, container)
    doc.edit("move", lambda d: move(d, WS, 2, 1))
    doc.save()
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["workers"] == [{"ref": "narrator"}] and "contextOrder" not in saved
    assert [i["ref"] for i in saved["context_order"]["slots"][0]["inserts"]][2:4] == ["上下文.定稿摘要", "设计.舞台骨架"]


def test_unreadable_order_files_say_why(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}', encoding="utf-8")
    with pytest.raises(OrderFileError, match="no context-order.v1 document"):
        read_order_file(bad)
    with pytest.raises(OrderFileError, match="Cannot read"):
        read_order_file(tmp_path / "missing.json")
    binary = tmp_path / "b.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(OrderFileError, match="UTF-8"):
        read_order_file(binary)
