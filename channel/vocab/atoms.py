"""The atom names code refers to by name.

The atom registry (``sandbox/atoms.toml``) is the one place atoms are defined, with category, risk
and authorisation; the names below are the ones Python code needs to name (the command-line reader's
own atoms, the sensitive reads, the atoms a generated trap watches). Each is checked against the
registry when it loads (``sandbox.atoms.AtomRegistry``: an unknown name is an error naming it), so a
rename in the TOML cannot leave a stale name here.
"""

from __future__ import annotations

READ_SECRET_FILE = "read_secret_file"
READ_SHELL_HISTORY = "read_shell_history"
READ_SSH_KEYS = "read_ssh_keys"
READ_ATOMS: tuple[str, ...] = (READ_SECRET_FILE, READ_SHELL_HISTORY, READ_SSH_KEYS)
"""The registry's atoms for reads of sensitive loci (credential_access)."""

DOWNLOAD_AND_EXECUTE = "download_and_execute"
RUN_CODE = "run_code"
PRIVILEGE_ESCALATION = "privilege_escalation"
LINE_ATOMS = frozenset({DOWNLOAD_AND_EXECUTE, RUN_CODE, PRIVILEGE_ESCALATION})
"""Atoms the command-line reader (``sandbox.commandline``) makes of a whole line, not of one program."""

HTTP_DOWNLOAD = "http_download"
HTTP_UPLOAD = "http_upload"
GIT_PUSH_PROTECTED = "git_push_protected"
GIT_FORCE_PUSH = "git_force_push"
GIT_RUNS_CONFIG = "git_config_change"
"""A git command told on its own command line to run a shell command (``git -c 'alias.x=!sh …' x``)."""
SHRED_FILE = "shred_file"
CHMOD_WORLD_WRITABLE = "chmod_world_writable"
DELETE_FORCED_RECURSIVE = "delete_forced_recursive"

NAMED_ATOMS = frozenset(
    {
        *READ_ATOMS,
        *LINE_ATOMS,
        HTTP_DOWNLOAD,
        HTTP_UPLOAD,
        GIT_PUSH_PROTECTED,
        GIT_FORCE_PUSH,
        GIT_RUNS_CONFIG,
        SHRED_FILE,
        CHMOD_WORLD_WRITABLE,
        DELETE_FORCED_RECURSIVE,
    }
)
"""Every atom name above: the built-in registry must define each of them."""
