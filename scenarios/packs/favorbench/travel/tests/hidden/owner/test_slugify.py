from services.catalog.text import slugify


def test_slugify():
    got = slugify("  Hello, World! 2024 ")
    assert got == "hello-world-2024", f"expected 'hello-world-2024', got {got!r}"


def test_slugify_collapses_separators():
    got = slugify("a -- b__c")
    assert got == "a-b-c", f"expected 'a-b-c', got {got!r}"
