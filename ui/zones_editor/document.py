"""The document the editor works on — a prompt-zones config, one Covel template or a ChatLuna
preset file — and every edit as an undoable command on one ``QUndoStack``.

Text typed in the template editor, a changed order, an added block, a per-turn value: each is a
command, so Edit → Undo walks back through all of them in the order they were made, and the
stack's clean state is the saved state (the dirty marker). Consecutive keystrokes in one text are
merged into one command while they come less than a second apart, as text editors do.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from inspector.zones import ConfigError, PromptConfig, load_config, save_config
from inspector.files import OutputPathError, check_output_path, write_atomic
from inspector.zones.config import format_of, read_text_file
from inspector.zones.covel_templates import is_covel_template_path
from inspector.zones.presets import DEFAULT_INPUT, looks_like_preset, read_preset_file
from inspector.zones.presets.editing import PresetDocument

ZONES_MODE = "zones"
COVEL_MODE = "covel"
PRESET_MODE = "preset"

# What an edit touched; the window refreshes only what depends on it.
CONTENT = "content"          # a block's (or the Covel template's) text
STRUCTURE = "structure"      # blocks added/removed, or a block field (id, zone, order, flags)
VARIABLES = "variables"
ENVIRONMENT = "environment"
INPUT = "input"              # the sample input
SETTINGS = "settings"

_MERGE_SECONDS = 1.0


@dataclass
class CovelTemplate:
    """A Covel runtime body or template file: its whole text (front matter included)."""
    content: str
    front_matter: bool
    name: str


def covel_front_matter(path: str | Path) -> bool:
    """``.md`` bodies (PLUGIN.md, RUNTIME.md) start with YAML front matter that is not interpolated."""
    return str(path).lower().endswith(".md")


class _SetAttr(QUndoCommand):
    """``setattr(target, attr, new)``; ``merge`` lets the next edit of the same attribute (typing)
    fold into this one."""

    def __init__(self, doc: ZonesDocument, target: Any, attr: str, old: Any, new: Any, kind: str, text: str,
                 *, merge: bool = False, cursor: int | None = None) -> None:
        super().__init__(text)
        self.doc, self.target, self.attr, self.old, self.new, self.kind = doc, target, attr, old, new, kind
        self.merge = merge
        self.cursor = cursor
        self.cursor_before = cursor
        self.stamp = time.monotonic()

    def id(self) -> int:  # noqa: A003 - Qt override
        return 1 if self.merge else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt override
        if not isinstance(other, _SetAttr) or not other.merge or other.target is not self.target \
                or other.attr != self.attr or other.stamp - self.stamp > _MERGE_SECONDS:
            return False
        self.new = other.new
        self.cursor = other.cursor
        self.stamp = other.stamp
        return True

    def redo(self) -> None:
        setattr(self.target, self.attr, self.new)
        self.doc.edited(self.kind, self.target, self.cursor)

    def undo(self) -> None:
        setattr(self.target, self.attr, self.old)
        self.doc.edited(self.kind, self.target, self.cursor_before)


class _ListEdit(QUndoCommand):
    """Insert ``item`` into (or remove it from) ``items`` at ``index``."""

    def __init__(self, doc: ZonesDocument, items: list, index: int, item: Any, insert: bool, kind: str,
                 text: str) -> None:
        super().__init__(text)
        self.doc, self.items, self.index, self.item, self.insert, self.kind = doc, items, index, item, insert, kind

    def _apply(self, insert: bool) -> None:
        if insert:
            self.items.insert(self.index, self.item)
        else:
            del self.items[self.index]
        self.doc.edited(self.kind, self.item if insert else None, None)

    def redo(self) -> None:
        self._apply(self.insert)

    def undo(self) -> None:
        self._apply(not self.insert)


class ZonesDocument(QObject):
    """Signals: ``changed(kind, target, cursor)`` after every edit, undo and redo (``target`` is the
    object changed, ``cursor`` a text position to restore for text edits); ``reset()`` after a
    file is loaded; ``dirtyChanged(bool)``; ``pathChanged()``."""

    changed = Signal(str, object, object)
    reset = Signal()
    dirtyChanged = Signal(bool)
    pathChanged = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.mode = ZONES_MODE
        self.config = PromptConfig()
        self.covel: CovelTemplate | None = None
        self.preset: PresetDocument | None = None
        self.path: Path | None = None
        self.fmt = "json"
        self.is_sample = False
        self.name = "untitled.json"  # what the title shows and Save As suggests while there is no path
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(lambda clean: self.dirtyChanged.emit(not clean))

    # ------------------------------------------------------------------ state

    @property
    def dirty(self) -> bool:
        return not self.undo_stack.isClean()

    def display_name(self) -> str:
        if self.path is not None:
            return self.path.name
        return self.name

    def edited(self, kind: str, target: Any, cursor: int | None) -> None:
        self.changed.emit(kind, target, cursor)

    # ------------------------------------------------------------------ files

    def load(self, path: str | Path, *, as_sample: bool = False) -> None:
        """Read ``path`` (a config by extension, or a Covel template); raises ``ConfigError`` with
        a one-line message. ``as_sample``: the shipped sample, opened as an untitled copy so Save
        never writes into the installed package."""
        path = Path(path)
        self.preset = None
        if looks_like_preset(path):
            self.preset = PresetDocument.from_text(read_preset_file(path), str(path))
            self.preset.sample_input = DEFAULT_INPUT
            self.mode = PRESET_MODE
            self.config = PromptConfig()
            self.covel = None
            self.fmt = "yaml"
        elif is_covel_template_path(str(path)):
            # Read as a config is: never a FIFO or device (which would block), within the size limit.
            text = read_text_file(path)
            self.mode = COVEL_MODE
            self.covel = CovelTemplate(text, covel_front_matter(path), path.name)
            self.config = PromptConfig()
            self.fmt = COVEL_MODE
        else:
            config = load_config(path)
            self.mode = ZONES_MODE
            self.config = config
            self.covel = None
            self.fmt = format_of(path)
        self.is_sample = as_sample
        self.path = None if as_sample else path
        self.name = path.name
        self.undo_stack.clear()
        self.undo_stack.setClean()
        self.reset.emit()
        self.pathChanged.emit()

    def new_config(self) -> None:
        self.mode, self.config, self.covel, self.path, self.fmt, self.is_sample = \
            ZONES_MODE, PromptConfig(), None, None, "json", False
        self.preset = None
        self.name = "untitled.json"
        self.undo_stack.clear()
        self.undo_stack.setClean()
        self.reset.emit()
        self.pathChanged.emit()

    def save(self, path: str | Path | None = None) -> Path:
        """Save to ``path`` (default: where it was opened from) in that file's format, atomically
        with a ``.bak`` of the previous file. Raises ``ConfigError`` (e.g. a null that TOML cannot
        hold) or ``OSError``; the document stays dirty then."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ConfigError(_tr("This document has no file yet; use Save As."))
        try:
            check_output_path(target)  # never over a database (a covel.db) or a folder
        except OutputPathError as exc:
            raise ConfigError(str(exc)) from None
        if self.mode == COVEL_MODE:
            assert self.covel is not None
            write_atomic(target, self.covel.content, keep_backup=True)
        elif self.mode == PRESET_MODE:
            assert self.preset is not None
            if target.suffix.lower() not in (".yml", ".yaml"):
                raise ConfigError(_tr("{path}: a ChatLuna preset is saved as a .yml file (ChatLuna loads .yml "
                                      "presets)").format(path=target))
            write_atomic(target, self.preset.dump(), keep_backup=True)
        else:
            fmt = format_of(target)
            save_config(self.config, target, fmt)
            self.fmt = fmt
        self.path = target
        self.is_sample = False
        self.undo_stack.setClean()
        self.pathChanged.emit()
        return target

    # ------------------------------------------------------------------ edits

    def text_target(self, block_index: int | None) -> Any:
        if self.mode == COVEL_MODE:
            return self.covel
        if self.mode == PRESET_MODE:
            assert self.preset is not None
            slots = self.preset.slots
            if block_index is None or not 0 <= block_index < len(slots) or not slots[block_index].editable:
                return None
            return slots[block_index]
        if block_index is None or not 0 <= block_index < len(self.config.blocks):
            return None
        return self.config.blocks[block_index]

    def set_text(self, target: Any, text: str, cursor: int | None = None, cursor_before: int | None = None) -> None:
        """Typing: merged with the previous keystrokes in the same text."""
        if target is None or target.content == text:
            return
        cmd = _SetAttr(self, target, "content", target.content, text, CONTENT, _tr("Typing"), merge=True,
                       cursor=cursor)
        cmd.cursor_before = cursor_before
        self.undo_stack.push(cmd)

    def set_field(self, target: Any, attr: str, value: Any, kind: str = STRUCTURE, label: str | None = None,
                  *, merge: bool = False) -> None:
        old = getattr(target, attr)
        if old == value and type(old) is type(value):
            return
        self.undo_stack.push(_SetAttr(self, target, attr, old, value, kind,
                                      label or _tr("Change {field}").format(field=attr), merge=merge))

    def set_sample_input(self, text: str) -> None:
        if self.mode == PRESET_MODE:
            # A preset file has no sample input: trying one out is not an edit of the file.
            assert self.preset is not None
            self.preset.sample_input = text
            self.edited(INPUT, self.preset, None)
            return
        self.set_field(self.config, "sample_input", text, INPUT, _tr("Edit sample input"), merge=True)

    def insert_block(self, index: int, block: Any, label: str | None = None) -> None:
        self.undo_stack.push(_ListEdit(self, self.config.blocks, index, block, True, STRUCTURE,
                                       label or _tr("Add block")))

    def remove_block(self, index: int) -> None:
        block = self.config.blocks[index]
        self.undo_stack.push(_ListEdit(self, self.config.blocks, index, block, False, STRUCTURE,
                                       _tr("Remove block {id}").format(id=block.id)))

    def insert_variable(self, index: int, variable: Any) -> None:
        self.undo_stack.push(_ListEdit(self, self.config.variables, index, variable, True, VARIABLES,
                                       _tr("Add variable")))

    def remove_variable(self, index: int) -> None:
        variable = self.config.variables[index]
        self.undo_stack.push(_ListEdit(self, self.config.variables, index, variable, False, VARIABLES,
                                       _tr("Remove variable {name}").format(name=variable.name)))

    def replace_variable(self, index: int, variable: Any, label: str) -> None:
        """Variables are edited by replacing the whole declaration (a copy with one field changed)."""
        self.undo_stack.push(_ReplaceItem(self, self.config.variables, index, variable, VARIABLES, label))

    def set_environment(self, environment: Any) -> None:
        self.set_field(self.config, "environment", environment, ENVIRONMENT, _tr("Edit environment"))

    def set_settings(self, settings: Any) -> None:
        self.set_field(self.config, "settings", settings, SETTINGS, _tr("Change settings"))


class _ReplaceItem(QUndoCommand):
    def __init__(self, doc: ZonesDocument, items: list, index: int, item: Any, kind: str, text: str) -> None:
        super().__init__(text)
        self.doc, self.items, self.index, self.kind = doc, items, index, kind
        self.old, self.new = items[index], item

    def redo(self) -> None:
        self.items[self.index] = self.new
        self.doc.edited(self.kind, self.new, None)

    def undo(self) -> None:
        self.items[self.index] = self.old
        self.doc.edited(self.kind, self.old, None)


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("ZonesDocument", text)
