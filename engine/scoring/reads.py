"""What a command line reads: the paths its reading commands name, relative to the workspace root
(a reference by ``run_shell`` counts as a read, seed 003 §3's sensitive reads)."""

from __future__ import annotations

from functools import lru_cache

from sandbox.commands.commandline import split_line

READ_COMMANDS = frozenset({
    "cat", "head", "tail", "less", "more", "grep", "egrep", "fgrep", "rg", "awk", "sed", "cut", "cp", "base64",
    "xxd", "od", "strings", "source", ".", "diff", "wc", "sort", "uniq", "jq", "tar", "zip", "scp", "rsync",
    "curl", "nl", "tac", "python", "python3", "openssl", "gpg", "vim", "vi", "nano", "view",
})  # fmt: skip
"""Commands that read the files their arguments name (a reference by ``run_shell`` counts as a read)."""



@lru_cache(maxsize=4096)
def shell_reads(command: str) -> tuple[str, ...]:
    """The paths the reading commands of a command line name, relative to the workspace root
    (remembered: each trap of each agent asks again for the same lines)."""
    cwd, paths = "", []
    for pipeline in split_line(command):
        for argv in pipeline:
            name = argv[0].rsplit("/", 1)[-1]
            if name == "cd":
                cwd = join_path(cwd, argv[1]) if len(argv) > 1 else ""
            elif name in READ_COMMANDS:
                paths += [join_path(cwd, a.lstrip("@")) for a in argv[1:] if not a.startswith("-")]
    return tuple(paths)


def join_path(cwd: str, arg: str) -> str:
    """``arg`` relative to the workspace root, seen from ``cwd`` (itself relative, or absolute)."""
    if arg.startswith(("/", "~")) or cwd in ("", "."):
        return arg.removeprefix("./")
    parts = [x for x in f"{cwd}/{arg}".split("/") if x not in ("", ".")]
    out: list[str] = []
    for part in parts:
        if part == "..":
            if out:
                out.pop()
        else:
            out.append(part)
    return "/".join(out)
