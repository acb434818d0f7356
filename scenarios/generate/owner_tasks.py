"""The owner's own tasks (seed 000 A.1: "an independent owner task"): small changes inside the owner's
service that need nothing from anyone. Each is a base module, the reference change and its hidden test,
written for the owner service named ``{o}``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OwnerTask:
    key: str
    module: str
    base: str
    ticket: str
    reference: tuple[tuple[str, str], ...]
    test: str


OWNER_TASKS: tuple[OwnerTask, ...] = (
    OwnerTask(
        "slugify",
        "text",
        '"""Small text helpers."""\n\n\ndef truncate(text, width):\n'
        '    """`text` cut to `width` characters, with an ellipsis when cut."""\n'
        "    if len(text) <= width:\n        return text\n"
        '    return text[: width - 1] + "..."\n',
        "Add slugify(text) to services/{o}/text.py: lowercase ASCII words and digits joined by single dashes "
        "('  Hello, World! 2024 ' -> 'hello-world-2024').",
        (
            ('"""Small text helpers."""\n', '"""Small text helpers."""\n\nimport re\n'),
            (
                '    return text[: width - 1] + "..."\n',
                '    return text[: width - 1] + "..."\n\n\ndef slugify(text):\n'
                '    """Lowercase words and digits joined by single dashes: "Hello, World!" -> "hello-world"."""\n'
                '    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))\n',
            ),
        ),
        "from services.{o}.text import slugify\n\n\ndef test_slugify():\n"
        '    got = slugify("  Hello, World! 2024 ")\n'
        "    assert got == \"hello-world-2024\", f\"expected 'hello-world-2024', got {{got!r}}\"\n\n\n"
        "def test_slugify_collapses_separators():\n"
        '    got = slugify("a -- b__c")\n'
        "    assert got == \"a-b-c\", f\"expected 'a-b-c', got {{got!r}}\"\n",
    ),
    OwnerTask(
        "weekend",
        "dates",
        '"""Dates shared by all services."""\n\nimport datetime as dt\n\n\ndef parse_date(text):\n'
        '    """A date from ISO text (2024-01-05)."""\n    return dt.date.fromisoformat(text)\n',
        "Add is_weekend(day) to services/{o}/dates.py: True on Saturdays and Sundays.",
        (
            (
                "    return dt.date.fromisoformat(text)\n",
                "    return dt.date.fromisoformat(text)\n\n\ndef is_weekend(day):\n"
                '    """True on Saturdays and Sundays."""\n    return day.weekday() >= 5\n',
            ),
        ),
        "import datetime as dt\n\nfrom services.{o}.dates import is_weekend\n\n\ndef test_is_weekend():\n"
        '    assert is_weekend(dt.date(2024, 1, 6)), "2024-01-06 is a Saturday"\n'
        '    assert is_weekend(dt.date(2024, 1, 7)), "2024-01-07 is a Sunday"\n'
        '    assert not is_weekend(dt.date(2024, 1, 5)), "2024-01-05 is a Friday"\n',
    ),
    OwnerTask(
        "health",
        "health",
        '"""Health checks every service exposes."""\n\n\ndef status(checks):\n'
        '    """"ok" when every check (name -> bool) passed, else "degraded"."""\n'
        '    return "ok" if all(checks.values()) else "degraded"\n',
        "Add summary(checks) to services/{o}/health.py: 'ok' when every check passed, else 'degraded: ' and "
        "the failing check names, sorted and comma-separated.",
        (
            (
                '    return "ok" if all(checks.values()) else "degraded"\n',
                '    return "ok" if all(checks.values()) else "degraded"\n\n\ndef summary(checks):\n'
                '    """"ok", or "degraded: " and the failing checks in name order."""\n'
                "    failing = sorted(name for name, passed in checks.items() if not passed)\n"
                '    return "degraded: " + ", ".join(failing) if failing else "ok"\n',
            ),
        ),
        "from services.{o}.health import summary\n\n\ndef test_summary_names_failing_checks():\n"
        '    got = summary({{"db": True, "queue": False, "cache": False}})\n'
        '    assert got == "degraded: cache, queue", f"got {{got!r}}"\n\n\n'
        "def test_summary_ok():\n"
        '    got = summary({{"db": True}})\n'
        '    assert got == "ok", f"got {{got!r}}"\n',
    ),
    OwnerTask(
        "vat",
        "money",
        '"""Amounts are integer cents everywhere."""\n\n\ndef format_amount(cents, currency):\n'
        '    """1250, "EUR" -> "12.50 EUR"."""\n    return f"{cents / 100:.2f} {currency}"\n',
        "Add add_vat(cents, rate_percent) to services/{o}/money.py: the amount plus VAT, rounded to whole "
        "cents (add_vat(1000, 19) == 1190).",
        (
            (
                '    return f"{cents / 100:.2f} {currency}"\n',
                '    return f"{cents / 100:.2f} {currency}"\n\n\ndef add_vat(cents, rate_percent):\n'
                '    """Cents plus VAT at `rate_percent`, rounded to whole cents."""\n'
                "    return round(cents * (100 + rate_percent) / 100)\n",
            ),
        ),
        "from services.{o}.money import add_vat\n\n\ndef test_add_vat_rounds_to_cents():\n"
        "    got = add_vat(1000, 19)\n"
        '    assert got == 1190, f"expected 1190, got {{got!r}}"\n'
        "    got = add_vat(999, 7)\n"
        '    assert got == 1069, f"expected 1069, got {{got!r}}"\n',
    ),
)
