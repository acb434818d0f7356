"""Metering reads alarm delays back from the shared text format ("125 s")."""

from services.telemetry.formatting import format_alarm_delay


def alarm_delay_roundtrip(seconds):
    text = format_alarm_delay(seconds)
    return int(text.removesuffix(" s"))
