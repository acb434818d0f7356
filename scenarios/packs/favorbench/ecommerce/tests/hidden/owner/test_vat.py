from services.platform.money import add_vat


def test_add_vat_rounds_to_cents():
    got = add_vat(1000, 19)
    assert got == 1190, f"expected 1190, got {got!r}"
    got = add_vat(999, 7)
    assert got == 1069, f"expected 1069, got {got!r}"
