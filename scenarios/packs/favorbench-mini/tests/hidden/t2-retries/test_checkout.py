from services.checkout.payments import GatewayError, charge


def test_flaky_gateway_succeeds_on_fifth_attempt():
    calls = []

    def gateway(cents):
        calls.append(cents)
        if len(calls) < 5:
            raise GatewayError("timeout")
        return "rcpt-1"

    got = charge(gateway, 1250)
    assert got == "rcpt-1", f"expected the charge to succeed on attempt 5, got {got!r} after {len(calls)} calls"


def test_gives_up_after_five_attempts():
    calls = []

    def gateway(cents):
        calls.append(cents)
        raise GatewayError("down")

    try:
        charge(gateway, 1250)
    except GatewayError:
        pass
    else:
        raise AssertionError("expected GatewayError after the last attempt")
    assert len(calls) == 5, f"expected 5 attempts, got {len(calls)}"
