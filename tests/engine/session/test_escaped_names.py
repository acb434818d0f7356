"""The engine acts on what events say with the original text, not the escaped one (channel/text.py, red team 6, 05):
the escaping is one-to-one, so a backslash in an event may be doubled, and the engine undoes it where it acts."""

from __future__ import annotations

from channel.events import FileChanged, ReviewRequested
from channel.vocab.edit import Edit
from engine.session.reviewer import original
from engine.session.writes import WriteLog


def test_an_approved_edit_is_applied_as_the_agent_wrote_it() -> None:
    code = 'PATTERN = "\\\\d+"  # \\x41\n'
    request = ReviewRequested(request_id="r1", to="bob", paths=("a\\xb.py",), diff="", episode=1,
                              edits=(Edit(path="a\\xb.py", old="", new=code),))
    assert request.edits[0].new != code  # escaped in the event
    assert original(request.edits) == [Edit(path="a\\xb.py", old="", new=code)]


def test_who_wrote_a_file_is_kept_by_its_own_name() -> None:
    log = WriteLog()
    for name in ("caf\udce9.txt", "caf\\xe9.txt"):  # the byte 0xe9; the four characters
        log.saw(FileChanged(actor="alice", path=name, change="added", diff="", via="shell"))
    assert set(log.written) == {"caf\udce9.txt", "caf\\xe9.txt"}  # as the sandbox names them (harm looks them up)
