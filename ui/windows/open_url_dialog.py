"""File → Open Database URL…: a Covel store on a server (PostgreSQL), or any database URL.

The URL box offers the recent URLs (remembered without their passwords). A password typed in the
URL itself (``user:secret@`` or ``?password=secret``) is moved to the password box, and other
secret options (``?sslpassword=…``) are taken out of sight and kept for this connection only, so
no secret is shown or lands in the recent list; ticking "Remember" keeps the password in the
system keyring when there is one.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout, QWidget,
)

from inspector.store.urls import BadUrlError, SplitUrl, split_url

from ui import credentials


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("OpenUrlDialog", text)


EXAMPLE_URL = "postgresql://user@host:5432/covel"


class OpenUrlDialog(QDialog):
    """Asks for a database URL and its password. After ``exec()`` accepted, :meth:`connect_url`
    is the URL to open (password included) and :meth:`public_url` the one to remember."""

    def __init__(self, recent_urls: list[str], parent: QWidget | None = None, *, url: str = "",
                 problem: str = "") -> None:
        super().__init__(parent)
        # Secret options taken out of a pasted URL: (its public form, the options).
        self._hidden: tuple[str, tuple[tuple[str, str], ...]] | None = None
        self.setWindowTitle(_tr("Open Database URL"))
        self.setMinimumWidth(560)
        self.url_box = QComboBox(self)
        self.url_box.setEditable(True)
        self.url_box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.url_box.addItems(recent_urls)
        self.url_box.setCurrentText(url or (recent_urls[0] if recent_urls else ""))
        line = self.url_box.lineEdit()
        line.setPlaceholderText(EXAMPLE_URL)
        line.setClearButtonEnabled(True)
        self.password = QLineEdit(self)
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setPlaceholderText(_tr("leave empty for none, ~/.pgpass or PGPASSWORD"))
        self.remember = QCheckBox(_tr("Remember the password in the system keyring"), self)
        has_keyring = credentials.keyring_available()
        self.remember.setEnabled(has_keyring)
        if not has_keyring:
            self.remember.setToolTip(_tr("No system keyring is available: the password is not remembered"))
        hint = QLabel(_tr("A Covel store in PostgreSQL, for example <code>{example}</code>. Choose a schema "
                          "with <code>?options=-csearch_path%3Dname</code>. The connection only reads.")
                      .format(example=EXAMPLE_URL), self)
        hint.setWordWrap(True)
        hint.setTextFormat(Qt.TextFormat.RichText)
        self.problem = QLabel(problem, self)
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #c92a2a;")
        self.problem.setVisible(bool(problem))
        self.problem.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form = QFormLayout()
        form.addRow(_tr("&URL:"), self.url_box)
        form.addRow(_tr("&Password:"), self.password)
        form.addRow("", self.remember)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel,
                                        self)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(hint)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.url_box.currentTextChanged.connect(self._url_changed)
        self._url_changed(self.url_box.currentText())
        if url or recent_urls:
            self.password.setFocus()

    def _url_changed(self, text: str) -> None:
        ok = True
        try:
            split = split_url(text)
        except BadUrlError as exc:
            ok = False
            if text.strip():
                self._show_problem(str(exc))
            else:
                self._show_problem("")
        else:
            self._show_problem("")
            if split.password or split.secrets:
                # Typed or pasted with secrets in it: move them out of sight.
                if split.password:
                    self.password.setText(split.password)
                if split.secrets:
                    self._hidden = (split.public, split.secrets)
                self.url_box.setCurrentText(split.public)
                return
            if not self.password.text():
                stored = credentials.stored_password(split.public)
                if stored:
                    self.password.setText(stored)
                    self.remember.setChecked(True)
        self.buttons.button(QDialogButtonBox.StandardButton.Open).setEnabled(ok)

    def _show_problem(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.setVisible(bool(text))

    def public_url(self) -> str:
        return split_url(self.url_box.currentText()).public

    def _split(self) -> SplitUrl:
        split = split_url(self.url_box.currentText())
        if self._hidden is not None and self._hidden[0] == split.public:
            split = replace(split, secrets=self._hidden[1])
        return split

    def connect_url(self) -> str:
        return self._split().with_password(self.password.text() or None)

    def accept(self) -> None:  # noqa: D102 - Qt override
        try:
            public = self.public_url()
        except BadUrlError as exc:
            self._show_problem(str(exc))
            return
        if self.remember.isChecked() and self.password.text():
            credentials.store_password(public, self.password.text())
        elif not self.remember.isChecked() and self.remember.isEnabled():
            credentials.forget_password(public)
        super().accept()


def ask_url(parent: Any, recent_urls: list[str], *, url: str = "", problem: str = "") -> tuple[str, str] | None:
    """Run the dialog; ``(connect_url, public_url)`` or None when cancelled."""
    dialog = OpenUrlDialog(recent_urls, parent, url=url, problem=problem)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return dialog.connect_url(), dialog.public_url()
