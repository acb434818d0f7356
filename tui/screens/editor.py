"""An inline editor for a file (a person in an agent's seat edits what they read, then writes it back)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import TextArea


class EditorScreen(ModalScreen[str | None]):
    """Edit ``text``; ctrl+s returns the new text, escape returns None (nothing is written)."""

    DEFAULT_CSS = """
    EditorScreen { align: center middle; }
    EditorScreen > TextArea { width: 95%; height: 90%; border: thick $primary; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("escape", "cancel", "Cancel", priority=True),
    ]

    def __init__(self, path: str, text: str) -> None:
        super().__init__()
        self.path = path
        self.area = TextArea.code_editor(text)

    def compose(self) -> ComposeResult:
        self.area.border_title = self.path
        self.area.border_subtitle = "ctrl+s write it back · esc cancel"
        yield self.area

    def on_mount(self) -> None:
        self.area.focus()

    def action_save(self) -> None:
        self.dismiss(self.area.text)

    def action_cancel(self) -> None:
        self.dismiss(None)
