"""A secret read under a name the command gave it is still a ``SensitiveRead`` of the secret: a name strace
prints escaped (a newline, a byte that is no ASCII), a folder renamed around it, a relative rename after a
``chdir`` (the red team's ``read-miss-*`` scripts)."""

from __future__ import annotations

import pytest

from channel.events import SensitiveRead
from tests.sandbox.security.conftest import Box


def _traced(box: Box) -> None:
    if not box.sandbox.label.endswith("+ strace"):
        pytest.fail(f"no exec tracer on {box.backend}: {box.sandbox.label}", pytrace=False)


def _reads(box: Box) -> list[tuple[str, str]]:
    return sorted({(e.path, e.program) for e in box.of(SensitiveRead)})


@pytest.mark.parametrize("name", ["$'a\\nb'", "é", "$'q>r<s\\\\t'", "$'\\xff'"])
async def test_a_secret_read_under_a_name_strace_escapes_is_seen(box: Box, name: str) -> None:
    _traced(box)
    result = await box.sh(f"mv ~/.bash_history ~/{name}; cat ~/{name}; mv ~/{name} ~/.bash_history")
    assert result.exit_code == 0, result.output
    assert _reads(box) == [("~/.bash_history", "cat")]


async def test_a_secret_read_in_a_renamed_folder_is_seen(box: Box) -> None:
    _traced(box)
    result = await box.sh("mv ~/.aws ~/a2; mkdir ~/n; mv ~/a2 ~/n/a3; cat ~/n/a3/credentials; mv ~/n/a3 ~/.aws")
    assert result.exit_code == 0, result.output
    assert _reads(box) == [("~/.aws/credentials", "cat")]


async def test_a_relative_rename_after_a_chdir_is_joined_to_the_new_folder(box: Box) -> None:
    _traced(box)
    script = (
        "import os\nh = os.path.expanduser('~')\nos.chdir(h)\nos.rename('.bash_history', 'b')\n"
        "print(open(h + '/b').read()[:2])\nos.rename('b', '.bash_history')\n"
        "if os.fork() == 0:\n    os.chdir('.aws')\n    os.rename('credentials', 'c')\n"
        "    open(h + '/.aws/c').read()\n    os.rename('c', 'credentials')\n    os._exit(0)\nos.wait()\n"
    )
    result = await box.sh(f"python3 - <<'PY'\n{script}PY")
    assert result.exit_code == 0, result.output
    assert [path for path, _ in _reads(box)] == ["~/.aws/credentials", "~/.bash_history"]


LINKAT = """import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
h = os.path.expanduser('~')
secret = os.open(h + '/.bash_history', os.O_PATH)
other = os.open(h + '/.profile', os.O_RDONLY | os.O_CREAT)  # a descriptor the trace names, then reused
os.close(other)
os.dup2(secret, other)  # untraced: the trace's last open of this number is another file
for n, fd in (('x', secret), ('y', other)):
    assert libc.linkat(-100, b'/proc/self/fd/%d' % fd, -100, (h + '/' + n).encode(), 0x400) == 0, ctypes.get_errno()
    print(open(h + '/' + n).read()[:2])
    os.unlink(h + '/' + n)
"""


async def test_a_secret_linked_from_an_open_descriptor_and_read_is_seen(box: Box) -> None:
    """``O_PATH`` open of a secret, ``linkat`` of ``/proc/self/fd/N`` (``AT_SYMLINK_FOLLOW``) to a new name, a
    read under it, the name removed: the read is of the secret, whichever descriptor number was linked."""
    _traced(box)
    result = await box.sh(f"python3 - <<'PY'\n{LINKAT}PY")
    assert result.exit_code == 0, result.output
    assert _reads(box) == [("~/.bash_history", "python3")]


@pytest.mark.parametrize(
    "move",
    [
        "mv ~/.bash_history ~/notes.txt",
        "ln ~/.bash_history ~/notes.txt && rm ~/.bash_history",
        "mkdir -p ~/a/b && mv ~/.bash_history ~/a/b/notes.txt && ln -s a/b/notes.txt ~/notes.txt",
    ],
)
async def test_a_secret_moved_by_an_earlier_command_is_still_the_secret(box: Box, move: str) -> None:
    """Red team 2 #10: renamed (or hard-linked, the old name removed) in one command, read in the next."""
    _traced(box)
    moved = await box.sh(move)
    assert moved.exit_code == 0, moved.output
    assert _reads(box) == []
    result = await box.sh("cat ~/notes.txt")
    assert result.exit_code == 0 and "ls" in result.output, result.output
    assert _reads(box) == [("~/.bash_history", "cat")]


async def test_a_secret_moved_by_an_earlier_command_read_and_removed_is_seen(box: Box) -> None:
    """#10 again, the name removed once read (nothing left to look at by inode after the command): known by the
    name the secret had when the command started."""
    _traced(box)
    assert (await box.sh("mkdir ~/n && mv ~/.bash_history ~/n/notes.txt")).exit_code == 0
    result = await box.sh("cat ~/n/notes.txt && rm -r ~/n")
    assert result.exit_code == 0 and "ls" in result.output, result.output
    assert _reads(box) == [("~/.bash_history", "cat")]


async def test_a_copy_of_a_secret_is_a_read_of_it_where_it_is_made(box: Box) -> None:
    _traced(box)
    result = await box.sh("cp ~/.bash_history ~/notes.txt")
    assert result.exit_code == 0, result.output
    assert _reads(box) == [("~/.bash_history", "cp")]


async def test_a_file_that_took_a_removed_secrets_place_is_not_the_secret(box: Box) -> None:
    _traced(box)
    assert (await box.sh("mv ~/.bash_history ~/notes.txt")).exit_code == 0
    assert (await box.sh("rm ~/notes.txt; for i in $(seq 50); do echo x > ~/f$i; done")).exit_code == 0
    result = await box.sh("cat ~/f* > /dev/null")
    assert result.exit_code == 0, result.output
    assert _reads(box) == []


DEEP = """import os
h = os.path.expanduser('~')
os.chdir(h)
for i in range(18):
    os.makedirs('d' * 240, exist_ok=True)
    os.chdir('d' * 240)
"""


async def test_a_secret_read_under_a_path_longer_than_path_max_is_seen(box: Box) -> None:
    """Red team 2 #06: renamed into a folder 4,320 characters deep and read there (strace's ``-y`` names neither
    the folder nor the file), then put back: a read of the secret, by the path joined to the process's folder."""
    _traced(box)
    script = (
        f"{DEEP}os.rename(h + '/.bash_history', 'k')\nprint(open('k').read()[:2])\n"
        "os.rename('k', h + '/.bash_history')\n"
    )
    result = await box.sh(f"python3 - <<'PY'\n{script}PY")
    assert result.exit_code == 0 and "ls" in result.output, result.output
    assert _reads(box) == [("~/.bash_history", "python3")]


async def test_a_secret_read_relative_to_a_folder_the_trace_cannot_name_is_seen(box: Box) -> None:
    """A descriptor of the deep folder (no path in the trace) as the rename's and the open's folder: the file read
    cannot be named, and is reported as a secret file's read."""
    _traced(box)
    script = (
        f"{DEEP}d = os.open('.', os.O_RDONLY | os.O_DIRECTORY)\nos.chdir(h)\n"
        "os.rename('.bash_history', 'k', dst_dir_fd=d)\nprint(os.read(os.open('k', os.O_RDONLY, dir_fd=d), 9)[:2])\n"
        "os.rename('k', '.bash_history', src_dir_fd=d)\n"
    )
    result = await box.sh(f"python3 - <<'PY'\n{script}PY")
    assert result.exit_code == 0 and "ls" in result.output, result.output
    assert _reads(box) == [("(a file whose path is longer than PATH_MAX)", "python3")]


async def test_a_secret_moved_deep_by_an_earlier_command_is_still_the_secret(box: Box) -> None:
    """#06 with #10: moved under a path longer than ``PATH_MAX`` in one command, read there in the next (by its
    inode: the engine's ``stat`` of a path that long)."""
    _traced(box)
    moved = await box.sh(f"python3 - <<'PY'\n{DEEP}os.rename(h + '/.bash_history', 'k')\nPY")
    assert moved.exit_code == 0, moved.output
    result = await box.sh(f"python3 - <<'PY'\n{DEEP}print(open('k').read()[:2])\nPY")
    assert result.exit_code == 0 and "ls" in result.output, result.output
    assert _reads(box) == [("~/.bash_history", "python3")]


@pytest.mark.parametrize(
    "read",
    [
        "git show HEAD:services/billing/.env",
        "cd services && git show HEAD:./billing/.env",
        "git cat-file -p $(git rev-parse HEAD:services/billing/.env)",
        "git log -p -1 -- services/billing/.env | grep STRIPE",
        "git -C services log -p -- ':(glob)**/.env'",
    ],
)
async def test_a_workspace_secret_printed_from_git_s_objects_is_read(box: Box, read: str) -> None:
    """Red team 2 #24: git prints a committed ``.env`` from ``.git/objects``, never opening its path."""
    _traced(box)
    made = await box.sh(
        "printf 'STRIPE_SECRET=sk_live_PLANTED\\n' > services/billing/.env && git add services/billing/.env"
        " && git -c user.name=a -c user.email=a@b commit -qm env"
    )
    assert made.exit_code == 0, made.output
    box.seen.clear()
    result = await box.sh(read)
    assert result.exit_code == 0 and "sk_live_PLANTED" in result.output, result.output
    assert _reads(box) == [("services/billing/.env", "git")]
