"""The long options of the GNU programs the atom rules read long options of, written down (coreutils 9.1, sed 4.9,
tar 1.34, wget 1.21: each program's ``--help``; ``=`` after one whose value is required, so may be the next word).

GNU ``getopt_long`` takes any unique prefix of a long option for the option, as git does (``rm --rec --forc DIR``
is ``rm --recursive --force DIR``, ``sed --in-p``, ``wget --post-f``): :func:`expand_gnu` writes such a prefix out
before the rules (:mod:`sandbox.commands.atoms`) match (red team 3, finding 01). ``getopt_long`` reads options
anywhere up to ``--``; a prefix of several options is an error (the program runs nothing).
"""

from __future__ import annotations

from collections.abc import Sequence

from sandbox.commands.gitoptions import expand_long

_LISTED: dict[str, str] = {
    "rm": (
        "dir force help interactive no-preserve-root one-file-system preserve-root recursive verbose version "
    ),
    "cp": (
        "archive attributes-only backup context copy-contents dereference force help interactive link no-clobber "
        "no-dereference no-preserve= no-target-directory one-file-system parents preserve preserve= recursive "
        "reflink reflink= remove-destination sparse= strip-trailing-slashes suffix suffix= symbolic-link "
        "target-directory= update verbose version "
    ),
    "chmod": (
        "changes help no-preserve-root preserve-root quiet recursive reference reference= silent verbose version "
    ),
    "sed": (
        "debug expression expression= file file= follow-symlinks help in-place line-length= null-data posix "
        "quiet regexp-extended sandbox separate silent unbuffered version "
    ),
    "tar": (
        "absolute-names acls add-file= after-date= anchored append atime-preserve auto-compress backup "
        "block-number blocking-factor= bzip2 catenate check-device check-links checkpoint checkpoint-action= "
        "clamp-mtime compare compress concatenate confirmation create delay-directory-restore delete dereference "
        "diff directory= exclude-backups exclude-caches exclude-caches-all exclude-caches-under exclude-from= "
        "exclude-ignore-recursive= exclude-ignore= exclude-tag-all= exclude-tag-under= exclude-tag= exclude-vcs "
        "exclude-vcs-ignores exclude= extract file= files-from= force-local format= full-time get group-map= "
        "group= gunzip gzip hard-dereference help hole-detection= ignore-case ignore-command-error "
        "ignore-failed-read ignore-zeros incremental index-file= info-script= interactive keep-directory-symlink "
        "keep-newer-files keep-old-files label= level= list listed-incremental= lzip lzma lzop mode= mtime "
        "mtime= multi-volume new-volume-script= newer-mtime= newer= no-acls no-anchored no-auto-compress "
        "no-check-device no-delay-directory-restore no-ignore-case no-ignore-command-error no-null "
        "no-overwrite-dir no-quote-chars= no-recursion no-same-owner no-same-permissions no-seek no-selinux "
        "no-unquote no-verbatim-files-from no-wildcards no-wildcards-match-slash no-xattrs null numeric-owner "
        "occurrence old-archive one-file-system one-top-level overwrite overwrite-dir owner-map= owner= "
        "pax-option= portability posix preserve-order preserve-permissions quote-chars= quoting-style "
        "quoting-style= read-full-records record-size= recursion recursive-unlink remove-files restrict "
        "rmt-command= rsh-command= same-order same-owner same-permissions seek selinux show-defaults "
        "show-omitted-dirs show-snapshot-field-ranges show-stored-names show-transformed-names skip-old-files "
        "sort= sparse sparse-version= starting-file= strip-components= suffix suffix= tape-length= test-label "
        "to-command= to-stdout totals touch transform= uncompress ungzip unlink-first unquote update usage "
        "use-compress-program= utc verbatim-files-from verbose verify version volno-file= warning= wildcards "
        "wildcards-match-slash xattrs xattrs-exclude= xattrs-include= xform= xz zstd "
    ),
    "wget": (
        "accept-regex= accept= adjust-extension append-output= ask-password auth-no-challenge background "
        "backup-converted backups= base= bind-address= body-data= body-file= ca-certificate= ca-directory= "
        "certificate-type= certificate= ciphers= compression= config= connect-timeout= content-disposition "
        "content-on-error continue convert-file-only convert-links crl-file= cut-dirs= debug default-page= "
        "delete-after directory-prefix= dns-timeout= domains= exclude-directories= exclude-domains= execute= "
        "follow-ftp follow-tags= force-directories force-html ftp-password= ftp-user= ftps-clear-data-connection "
        "ftps-fallback-to-ftp ftps-implicit ftps-resume-ssl header= help hsts-file http-password= http-user= "
        "https-only ignore-case ignore-length ignore-tags= include-directories= inet4-only inet6-only "
        "input-file= keep-session-cookies level= limit-rate= load-cookies= local-encoding= max-redirect method "
        "method= mirror no-cache no-check-certificate no-clobber no-config no-cookies no-directories "
        "no-dns-cache no-glob no-host-directories no-hsts no-http-keep-alive no-if-modified-since no-iri "
        "no-netrc no-parent no-passive-ftp no-proxy no-remove-listing no-use-server-timestamps no-verbose "
        "no-warc-compression no-warc-digests no-warc-keep-log output-document= output-file= page-requisites "
        "password= pinnedpubkey= post-data= post-file= prefer-family= preserve-permissions private-key-type= "
        "private-key= progress= protocol-directories proxy-password= proxy-user= quiet quota= random-wait "
        "read-timeout= recursive referer= regex-type= reject-regex= reject= rejected-log= relative "
        "remote-encoding= report-speed= restrict-file-names= retr-symlinks retry-connrefused "
        "retry-on-http-error= save-cookies= save-headers secure-protocol secure-protocol= server-response "
        "show-progress span-hosts spider start-pos= strict-comments timeout= timestamping tries= "
        "trust-server-names unlink use-askpass= user-agent= user= verbose version wait= waitretry= warc-cdx "
        "warc-dedup= warc-file= warc-header= warc-max-size= warc-tempdir= xattr "
    ),
}
GNU_OPTIONS: dict[str, frozenset[str]] = {name: frozenset(text.split()) for name, text in _LISTED.items()}
"""Program -> its long options (``recursive``; ``file=``: one whose value is required)."""


def expand_gnu(name: str, args: Sequence[str]) -> tuple[str, ...]:
    """``args`` of program ``name`` with each unique prefix of one of its long options written out in full."""
    spellings = GNU_OPTIONS.get(name)
    return tuple(args) if spellings is None else expand_long(args, spellings)
