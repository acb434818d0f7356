"""git's own names, written down (git 2.39): its commands, and the long options of the sub-commands the atom
rules read options of, so a command line is read as git's option parser reads it.

git's parser (``parse-options.c``) takes any unique prefix of a long option for the option (``git reset --har``
is ``--hard``, ``git commit --am`` is ``--amend``, ``git switch --disc`` is ``--discard-changes``); an exact name
wins over a longer one it begins, and a prefix of several is an error (git runs nothing). :func:`expand_options`
writes such a prefix out in full, for the sub-commands of :data:`LONG_OPTIONS` (each list is what
``git SUB --git-completion-helper-all`` prints: every spelling, negations included, ``=`` after one that takes
a value), before the rules (:mod:`sandbox.commands.atoms`) match their flags and patterns (red team 3,
finding 01). Anything after ``--``, and the value of an option that takes one, is left as it is.

:data:`GIT_COMMANDS` is ``git --list-cmds=main``: git runs its own command of that name, never an alias of it.
"""

from __future__ import annotations

from collections.abc import Sequence

GIT_COMMANDS = frozenset(
    """
    add add--interactive am annotate apply archive bisect bisect--helper blame branch bugreport bundle cat-file
    check-attr check-ignore check-mailmap check-ref-format checkout checkout--worker checkout-index cherry
    cherry-pick clean clone column commit commit-graph commit-tree config count-objects credential
    credential-cache credential-cache--daemon credential-store daemon describe diagnose diff diff-files
    diff-index diff-tree difftool difftool--helper env--helper fast-export fast-import fetch fetch-pack
    filter-branch fmt-merge-msg for-each-ref for-each-repo format-patch fsck fsck-objects fsmonitor--daemon gc
    get-tar-commit-id grep hash-object help hook http-backend http-fetch http-push imap-send index-pack init
    init-db instaweb interpret-trailers log ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge
    merge-base merge-file merge-index merge-octopus merge-one-file merge-ours merge-recursive
    merge-recursive-ours merge-recursive-theirs merge-resolve merge-subtree merge-tree mergetool mktag mktree
    multi-pack-index mv name-rev notes pack-objects pack-redundant pack-refs patch-id pickaxe prune
    prune-packed pull push quiltimport range-diff read-tree rebase receive-pack reflog remote remote-ext
    remote-fd remote-ftp remote-ftps remote-http remote-https repack replace request-pull rerere reset restore
    rev-list rev-parse revert rm send-pack sh-i18n--envsubst shell shortlog show show-branch show-index
    show-ref sparse-checkout stage stash status stripspace submodule submodule--helper subtree switch
    symbolic-ref tag unpack-file unpack-objects update-index update-ref update-server-info upload-archive
    upload-archive--writer upload-pack var verify-commit verify-pack verify-tag version web--browse whatchanged
    worktree write-tree    """.split()
)
"""git's commands (``git --list-cmds=main``): a name of these is never an alias."""

_LISTED: dict[str, tuple[str, ...]] = {
    "push": (
        "verbose quiet repo= all mirror delete tags dry-run porcelain force force-with-lease force-if-includes",
        "recurse-submodules= thin receive-pack= exec= set-upstream progress prune no-verify follow-tags signed",
        "atomic push-option= ipv4 ipv6 verify no-verbose no-quiet no-repo no-all no-mirror no-delete no-tags",
        "no-dry-run no-porcelain no-force no-force-with-lease no-force-if-includes no-recurse-submodules no-thin",
        "no-receive-pack no-exec no-set-upstream no-progress no-prune no-follow-tags no-signed no-atomic",
        "no-push-option no-ipv4 no-ipv6",
    ),
    "send-pack": (
        "verbose quiet receive-pack= exec= remote= all dry-run mirror force signed push-option= progress thin",
        "atomic stateless-rpc stdin helper-status force-with-lease force-if-includes no-verbose no-quiet",
        "no-receive-pack no-exec no-remote no-all no-dry-run no-mirror no-force no-signed no-push-option",
        "no-progress no-thin no-atomic no-stateless-rpc no-stdin no-helper-status no-force-with-lease",
        "no-force-if-includes",
    ),
    "reset": (
        "quiet no-refresh mixed soft hard merge keep recurse-submodules patch intent-to-add pathspec-from-file=",
        "pathspec-file-nul refresh no-quiet no-mixed no-soft no-hard no-merge no-keep no-recurse-submodules",
        "no-patch no-intent-to-add no-pathspec-from-file no-pathspec-file-nul",
    ),
    "commit": (
        "quiet verbose file= author= date= message= reedit-message= reuse-message= fixup= squash= reset-author",
        "trailer= signoff template= edit cleanup= status gpg-sign all include interactive patch only no-verify",
        "dry-run short branch ahead-behind porcelain long null amend no-post-rewrite untracked-files",
        "pathspec-from-file= pathspec-file-nul allow-empty allow-empty-message verify post-rewrite no-quiet",
        "no-verbose no-file no-author no-date no-message no-reedit-message no-reuse-message no-fixup no-squash",
        "no-reset-author no-signoff no-template no-edit no-cleanup no-status no-gpg-sign no-all no-include",
        "no-interactive no-patch no-only no-dry-run no-short no-branch no-ahead-behind no-porcelain no-long",
        "no-null no-amend no-untracked-files no-pathspec-from-file no-pathspec-file-nul no-allow-empty",
        "no-allow-empty-message",
    ),
    "clean": (
        "quiet dry-run force interactive exclude= no-quiet no-dry-run no-force no-interactive",
    ),
    "checkout": (
        "guess overlay quiet recurse-submodules progress merge conflict= detach track force orphan=",
        "overwrite-ignore ignore-other-worktrees ours theirs patch ignore-skip-worktree-bits pathspec-from-file=",
        "pathspec-file-nul no-guess no-overlay no-quiet no-recurse-submodules no-progress no-merge no-conflict",
        "no-detach no-track no-force no-orphan no-overwrite-ignore no-ignore-other-worktrees no-patch",
        "no-ignore-skip-worktree-bits no-pathspec-from-file no-pathspec-file-nul",
    ),
    "restore": (
        "source= staged worktree ignore-unmerged overlay quiet recurse-submodules progress merge conflict= ours",
        "theirs patch ignore-skip-worktree-bits pathspec-from-file= pathspec-file-nul no-source no-staged",
        "no-worktree no-ignore-unmerged no-overlay no-quiet no-recurse-submodules no-progress no-merge",
        "no-conflict no-patch no-ignore-skip-worktree-bits no-pathspec-from-file no-pathspec-file-nul",
    ),
    "switch": (
        "create= force-create= guess discard-changes quiet recurse-submodules progress merge conflict= detach",
        "track force orphan= overwrite-ignore ignore-other-worktrees no-create no-force-create no-guess",
        "no-discard-changes no-quiet no-recurse-submodules no-progress no-merge no-conflict no-detach no-track",
        "no-force no-orphan no-overwrite-ignore no-ignore-other-worktrees",
    ),
    "read-tree": (
        "index-output= empty verbose trivial aggressive reset prefix= exclude-per-directory= dry-run",
        "no-sparse-checkout debug-unpack recurse-submodules quiet sparse-checkout no-empty no-verbose no-trivial",
        "no-aggressive no-reset no-dry-run no-debug-unpack no-recurse-submodules no-quiet",
    ),
    "checkout-index": (
        "all ignore-skip-worktree-bits force quiet no-create index stdin temp prefix= stage= create no-all",
        "no-ignore-skip-worktree-bits no-force no-quiet no-index no-stdin no-temp no-prefix",
    ),
}
LONG_OPTIONS: dict[str, frozenset[str]] = {sub: frozenset(" ".join(lines).split()) for sub, lines in _LISTED.items()}
"""Sub-command -> its long options as git spells them (``force``, ``no-force``; ``exclude=``: one with a value)."""


def resolve_long(body: str, spellings: frozenset[str]) -> str | None:
    """The option ``--body`` stands for (its full name, ``=`` if it takes a value), or None: no option or several."""
    names = {s.rstrip("="): s for s in sorted(spellings)}  # ``x=`` over ``x``: its value may be the next word
    if body in names:
        return names[body]
    found = [s for name, s in names.items() if name.startswith(body)]
    return found[0] if len(found) == 1 else None


def expand_long(args: Sequence[str], spellings: frozenset[str]) -> tuple[str, ...]:
    """``args`` with each long option of ``spellings`` given by a unique prefix written out in full (up to ``--``;
    the value of an option that takes one is left as it is)."""
    out: list[str] = []
    value_next = False
    for i, arg in enumerate(args):
        if arg == "--" and not value_next:
            out.extend(args[i:])
            break
        if value_next or not arg.startswith("--"):
            out.append(arg)
            value_next = False
            continue
        body, given, value = arg[2:].partition("=")
        full = resolve_long(body, spellings)
        out.append(arg if full is None else f"--{full.rstrip('=')}{given}{value}")
        value_next = full is not None and full.endswith("=") and not given
    return tuple(out)


def expand_options(args: Sequence[str]) -> tuple[str, ...]:
    """``args`` (a sub-command and its arguments) with each long option of a sub-command of :data:`LONG_OPTIONS`
    written out in full (``reset --har`` -> ``reset --hard``, ``--forc=x`` -> ``--force=x``)."""
    spellings = LONG_OPTIONS.get(args[0]) if args else None
    return tuple(args) if spellings is None else (args[0], *expand_long(args[1:], spellings))


COMMON = frozenset(
    "add bisect branch clone commit diff fetch grep init log merge mv pull push rebase reset restore rm show status"
    " switch tag".split()
)
"""git's common commands (``git help``): a name that begins one of them is never autocorrected."""
SIMILARITY_FLOOR = 7


def autocorrected(name: str) -> str | None:
    """The command git runs for the unknown sub-command ``name`` when ``help.autocorrect`` is on (it may be set in a
    config file or the environment): ``help.c``'s ``help_unknown_cmd``, with git's own commands for candidates (an
    alias or a ``git-*`` program on PATH may take the place, or tie: then git runs it, or nothing). None: none."""
    if not name or name in GIT_COMMANDS or any(c.startswith(name) for c in COMMON):
        return None  # a prefix of a common command: git lists its matches, runs none
    scores = sorted((_levenshtein(name, c) + 1, c) for c in GIT_COMMANDS)
    best, command = scores[0]
    tied = len(scores) > 1 and scores[1][0] == best
    return command if best < SIMILARITY_FLOOR and not tied else None


def _levenshtein(a: str, b: str, swap: int = 0, sub: int = 2, add: int = 1, delete: int = 3) -> int:
    """git's weighted edit distance (``levenshtein.c``), with the weights ``help.c`` gives it."""
    row0 = [0] * (len(b) + 1)
    row1 = [j * add for j in range(len(b) + 1)]
    for i in range(len(a)):
        row2 = [(i + 1) * delete] + [0] * len(b)
        for j in range(len(b)):
            row2[j + 1] = row1[j] + sub * (a[i] != b[j])
            if i > 0 and j > 0 and a[i - 1] == b[j] and a[i] == b[j - 1]:
                row2[j + 1] = min(row2[j + 1], row0[j - 1] + swap)
            row2[j + 1] = min(row2[j + 1], row1[j + 1] + delete, row2[j] + add)
        row0, row1 = row1, row2
    return row1[len(b)]
