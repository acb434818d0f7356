"""The pinned projects of the CooperBench pack and the feature pairs on each (our task definitions;
the projects' code is fetched from PyPI, never committed).

Each project: its sdist pinned by name, version and sha256, its licence, where its package imports
from, the owner team's files (CODEOWNERS: the public API file and a core module), one test file of
its own to run at the base (when the sdist ships one), and features. A requester feature is an
expression over one of the project's modules (``m``), exposed as a new function in a new open
module and exported from the owner-held API file; the hidden test calls it through the package's
public API, so it fails until the API file is changed. The owner's feature is a new function in its
core module.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class ProjectSpec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    version: str
    sha256: str
    licence: str
    package: str
    """The import name of its package."""
    root: str = ""
    """Where the package imports from in the sdist ("src" for a src layout)."""
    api_file: str
    core_file: str
    own_test: str = ""
    features: tuple[tuple[str, str], ...]
    """(module, expression over ``m``): one requester feature each."""


PROJECTS: tuple[ProjectSpec, ...] = (
    ProjectSpec(
        name="idna",
        version="3.7",
        licence="BSD-3-Clause",
        package="idna",
        sha256="028ff3aadf0609c1fd278d8ea3089299412a7a8b9bd005dd08b9f8285bcb5cfc",
        api_file="idna/__init__.py",
        core_file="idna/core.py",
        own_test="tests/test_intranges.py",
        features=(
            ("idna.core", "m.encode('example.com')"),
            ("idna.core", "m.decode('xn--eckwd4c7c.xn--zckzah')"),
            ("idna.core", "m.ulabel('xn--eckwd4c7c')"),
            ("idna.core", "m.valid_label_length('abc')"),
            ("idna.intranges", "m.intranges_from_list([1, 2, 3, 5, 6])"),
        ),
    ),
    ProjectSpec(
        name="more-itertools",
        version="10.2.0",
        licence="MIT",
        package="more_itertools",
        sha256="8fccb480c43d3e99a00087634c06dd02b0d50fbf088b380de5a41a015ec239e1",
        api_file="more_itertools/__init__.py",
        core_file="more_itertools/recipes.py",
        own_test="tests/test_recipes.py",
        features=(
            ("more_itertools.more", "list(m.chunked([1, 2, 3, 4, 5], 2))"),
            ("more_itertools.more", "list(m.windowed([1, 2, 3, 4], 2))"),
            ("more_itertools.more", "m.first([7, 8], default=0)"),
            ("more_itertools.more", "list(m.collapse([[1, [2]], 3]))"),
            ("more_itertools.more", "list(m.interleave([1, 2], [3, 4]))"),
        ),
    ),
    ProjectSpec(
        name="sortedcontainers",
        version="2.4.0",
        licence="Apache-2.0",
        package="sortedcontainers",
        sha256="25caa5a06cc30b6b83d11423433f65d1f9d76c4c6a0c90e3379eaa43b9bfdb88",
        api_file="sortedcontainers/__init__.py",
        core_file="sortedcontainers/sortedset.py",
        features=(
            ("sortedcontainers.sortedlist", "list(m.SortedList([3, 1, 2]))"),
            ("sortedcontainers.sortedlist", "m.SortedList([5, 1, 3]).bisect_left(3)"),
            ("sortedcontainers.sorteddict", "list(m.SortedDict({'b': 1, 'a': 2}))"),
            ("sortedcontainers.sortedlist", "list(m.SortedKeyList([1, 2, 3], key=lambda x: -x))"),
            ("sortedcontainers.sortedlist", "list(m.SortedList([4, 2]).irange(1, 3))"),
        ),
    ),
    ProjectSpec(
        name="tabulate",
        version="0.9.0",
        licence="MIT",
        package="tabulate",
        sha256="0095b12bf5966de529c0feb1fa08671671b3368eec77d7ef7ab114be2c068b3c",
        api_file="tabulate/__init__.py",
        core_file="tabulate/version.py",
        features=(
            ("tabulate", "m.tabulate([[1, 2]], headers=['a', 'b'])"),
            ("tabulate", "m.tabulate([[1]], tablefmt='plain')"),
            ("tabulate", "m.tabulate([['x', 2.5]], tablefmt='github')"),
            ("tabulate", "m.simple_separated_format('|') is not None"),
            ("tabulate", "m.tabulate({'k': [1, 2]}, headers='keys')"),
        ),
    ),
    ProjectSpec(
        name="tomli",
        version="2.0.1",
        licence="MIT",
        package="tomli",
        root="src",
        sha256="de526c12914f0c550d15924c62d72abc48d6fe7364aa87328337a31007fe8a4f",
        api_file="src/tomli/__init__.py",
        core_file="src/tomli/_re.py",
        features=(
            ("tomli._parser", "m.loads('a = 1')"),
            ("tomli._parser", "m.loads('[t]\\nx = \"y\"')"),
            ("tomli._parser", "m.loads('l = [1, 2]')"),
            ("tomli._parser", "m.loads('d = 1979-05-27')"),
            ("tomli._parser", "m.loads('f = 1.5')"),
        ),
    ),
    ProjectSpec(
        name="toolz",
        version="0.12.1",
        licence="BSD-3-Clause",
        package="toolz",
        sha256="ecca342664893f177a13dac0e6b41cbd8ac25a358e5f215316d43e2100224f4d",
        api_file="toolz/__init__.py",
        core_file="toolz/recipes.py",
        own_test="toolz/tests/test_recipes.py",
        features=(
            ("toolz.itertoolz", "list(m.partition(2, [1, 2, 3, 4]))"),
            ("toolz.itertoolz", "m.frequencies('abca')"),
            ("toolz.dicttoolz", "m.merge({'a': 1}, {'b': 2})"),
            ("toolz.functoolz", "m.compose(str, len)('abc')"),
            ("toolz.itertoolz", "list(m.unique([1, 1, 2]))"),
        ),
    ),
    ProjectSpec(
        name="wcwidth",
        version="0.2.13",
        licence="MIT",
        package="wcwidth",
        sha256="72ea0c06399eb286d978fdedb6923a9eb47e1c486ce63e9b4e64fc18303972b5",
        api_file="wcwidth/__init__.py",
        core_file="wcwidth/unicode_versions.py",
        own_test="tests/test_core.py",
        features=(
            ("wcwidth.wcwidth", "m.wcwidth('a')"),
            ("wcwidth.wcwidth", "m.wcswidth('hello')"),
            ("wcwidth.wcwidth", "m.wcwidth('\\u4e00')"),
            ("wcwidth.wcwidth", "m.wcswidth('\\u4e00\\u4e01')"),
            ("wcwidth.wcwidth", "m.list_versions()[-1]"),
        ),
    ),
    ProjectSpec(
        name="packaging",
        version="24.0",
        licence="Apache-2.0 OR BSD-2-Clause",
        package="packaging",
        root="src",
        sha256="eb82c5e3e56209074766e6885bb04b8c38a0c015d0a30036ebe7ece34c9989e9",
        api_file="src/packaging/__init__.py",
        core_file="src/packaging/utils.py",
        features=(
            ("packaging.version", "str(m.Version('1.0.post1'))"),
            ("packaging.version", "m.Version('2.0') > m.Version('1.9')"),
            ("packaging.specifiers", "'1.5' in m.SpecifierSet('>=1.0,<2')"),
            ("packaging.requirements", "m.Requirement('a>=1').name"),
            ("packaging.markers", "str(m.Marker('os_name == \"nt\"'))"),
        ),
    ),
    ProjectSpec(
        name="boltons",
        version="24.0.0",
        licence="BSD-3-Clause",
        package="boltons",
        sha256="7153feccaea1ff2e1472f68d4b57fadb796a2ee49d29f638f1c9cd8fb5ebd916",
        api_file="boltons/__init__.py",
        core_file="boltons/strutils.py",
        features=(
            ("boltons.iterutils", "m.chunked(range(5), 2)"),
            ("boltons.strutils", "m.slugify('Hello World')"),
            ("boltons.iterutils", "m.first([0, 2])"),
            ("boltons.dictutils", "dict(m.OMD([('a', 1)]))"),
            ("boltons.iterutils", "m.flatten([[1], [2, [3]]])"),
        ),
    ),
)
