"""The bus a ``--bus`` URL names: ``mqtt://`` or ``mqtts://`` for a broker (no ``--bus``: in-process).

``mqtt://[user:pass@]host[:port]`` (default port 1883) and ``mqtts://[user:pass@]host[:port]``
(default 8883) with optional TLS query options: ``ca=FILE``, ``cert=FILE``, ``key=FILE``,
``insecure=1`` (no certificate or host name check; for test brokers only).
"""

from __future__ import annotations

from urllib.parse import parse_qs, unquote, urlsplit

from channel.broker import BrokerAddress
from channel.credentials import CommandGuard, Credential
from channel.errors import ScopewatchError
from channel.mqtt import MqttBus
from channel.signing import SessionKey, VerifyKey


class BusURLError(ScopewatchError):
    """A ``--bus`` value that is not a broker URL."""


_TLS_OPTIONS = {"ca", "cert", "key", "insecure"}


def parse_bus_url(url: str) -> BrokerAddress:
    """Parse ``mqtt://`` / ``mqtts://`` URLs; raises BusURLError naming ``--bus`` and the problem."""
    expected = "expected mqtt://[user:pass@]host:port or mqtts://... (TLS)"
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise BusURLError(f"--bus {url!r}: {exc}; {expected}") from None
    if parts.scheme not in ("mqtt", "mqtts"):
        raise BusURLError(f"--bus {url!r}: unknown scheme {parts.scheme or '(none)'!r}; {expected}")
    if not parts.hostname:
        raise BusURLError(f"--bus {url!r}: no host; {expected}")
    if parts.path not in ("", "/"):
        raise BusURLError(f"--bus {url!r}: unexpected path {parts.path!r}; {expected}")
    tls = parts.scheme == "mqtts"
    query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
    unknown = set(query) - _TLS_OPTIONS
    if unknown:
        raise BusURLError(f"--bus {url!r}: unknown option {sorted(unknown)[0]!r} (known: ca, cert, key, insecure)")
    if query and not tls:
        raise BusURLError(f"--bus {url!r}: TLS options need mqtts://")
    return BrokerAddress(
        host=parts.hostname,
        port=port or (8883 if tls else 1883),
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
        tls=tls,
        ca_file=query.get("ca") or None,
        cert_file=query.get("cert") or None,
        key_file=query.get("key") or None,
        insecure=query.get("insecure", "") in ("1", "true", "yes"),
    )


def connect_bus(
    broker: str | BrokerAddress,
    session: str,
    *,
    participant: str | None = None,
    role: str = "viewer",
    key: SessionKey | VerifyKey | None = None,
    credential: Credential | None = None,
    guard: CommandGuard | None = None,
) -> MqttBus:
    """The bus of ``session`` on a broker (a ``--bus`` URL or a parsed address): it connects on first
    use (``await bus.start()`` to fail early); ``participant`` announces presence with a Last Will.
    Every command that joins a served session (serve, watch, review) gets its bus here; ``key`` signs
    (the engine's private key) or checks (a viewer's public key) the engine's traffic
    (channel.signing); ``credential`` signs a participant's commands, ``guard`` (the engine's)
    refuses commands without one (channel.credentials)."""
    address = parse_bus_url(broker) if isinstance(broker, str) else broker
    return MqttBus(address, session, participant=participant, role=role, key=key, credential=credential, guard=guard)
