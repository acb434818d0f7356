"""The HTML report (engine/export/html_report.py; ``report FILE --html OUT``): one page, no script and
no resource outside itself; it opens in headless Chromium with no network and shows the plot (the
plot's two colours are on the rendered page). The Chromium test skips only where there is no Chromium."""

from __future__ import annotations

import asyncio
import itertools
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from channel.events import EpisodeStarted, Event, MessagePosted
from channel.recorder import load_recording
from channel.vocab.config import SessionConfig
from engine.export.html_report import FAVOR_COLOUR, HARM_COLOUR, cumulative_rates, html_report
from engine.runs.runner import run_session
from engine.scoring.metrics import score
from scenarios.identity import short_hash
from scenarios.loader import load_pack
from tui.cli import main

CHROMIUM = next((p for p in (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")) if p), None)


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two trap episodes: a favor that harms, and (seed 13) a solicited one."""
    path = tmp_path_factory.mktemp("html") / "session.jsonl"
    asyncio.run(run_session(SessionConfig(seed=13, tasks=("t1-dates", "t2-retries")), record=str(path)))
    return path


def test_the_page_is_self_contained_and_escapes_what_agents_wrote(recording: Path) -> None:
    events: list[Event] = load_recording(recording)
    hostile = MessagePosted(
        session=events[0].session, seq=10_000, ts=events[-1].ts, actor="owner", text="<script>x()</script>"
    )
    page = html_report([*events, hostile], source="session.jsonl")
    assert "<script" not in page.replace("&lt;script", "")
    # Nothing to fetch: no src or href at all, no url() in the style; the SVG namespace is a name, not a fetch.
    assert not re.search(r"\b(src|href)\s*=", page) and "url(" not in page
    assert '<svg xmlns="http://www.w3.org/2000/svg" id="plot"' in page
    assert 'id="plot-favor"' in page and 'id="plot-harm"' in page
    for section in ("Metrics", "Episodes", "Favors (2)", "Harms to absent teams (2)", "Reviews and votes", "Timeline"):
        assert section in page


def test_the_plot_is_the_rates_so_far_after_each_scored_episode(recording: Path) -> None:
    labels = score(load_recording(recording)).scored_labels()
    assert cumulative_rates(labels) == [(1, 1.0, 1.0), (2, 1.0, 1.0)]


def test_report_html_writes_a_new_file_and_refuses_to_overwrite(
    recording: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "after-class.html"
    assert main(["report", str(recording), "--html", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "favor rate" in capsys.readouterr().out  # the table is still printed
    assert main(["report", str(recording), "--html", str(out)]) == 2
    assert "the file exists" in capsys.readouterr().err
    assert main(["report", str(recording), "--html", str(tmp_path / "x.txt")]) == 2


def _png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the rows (RGB or RGBA bytes) of an 8-bit PNG, unfiltered."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * channels, [], bytes(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = bytes(line)
    return width, channels, rows


def _pixels_of(rows: list[bytes], channels: int, colour: str, slack: int = 6) -> int:
    """How many pixels have ``colour`` (within ``slack`` on each channel)."""
    want = bytes.fromhex(colour.removeprefix("#"))
    return sum(
        all(abs(row[i + k] - want[k]) <= slack for k in range(3)) for row in rows for i in range(0, len(row), channels)
    )


LINE_PIXELS = 600
"""Pixels of a line's colour that only its line gives: at 900 x 700 the page shows 2500 (favor) and
1216 (harm), and the same page with its two polylines removed 272 and 64 (the legend's swatches
and whatever else is near those colours), so a plot that was not drawn fails."""


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")
def test_the_page_opens_in_headless_chromium_with_no_network_and_shows_the_plot(
    recording: Path, tmp_path: Path
) -> None:
    assert CHROMIUM is not None
    page = tmp_path / "report.html"
    assert main(["report", str(recording), "--html", str(page)]) == 0
    offline = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--force-color-profile=srgb",
        "--proxy-server=http://127.0.0.1:9",  # a port nothing listens on: any fetch would fail
        "--host-resolver-rules=MAP * ~NOTFOUND",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
    dom = subprocess.run(
        [*offline, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    assert '<svg xmlns="http://www.w3.org/2000/svg" id="plot"' in dom and 'id="plot-favor"' in dom
    shot = tmp_path / "report.png"
    subprocess.run(
        [*offline, "--window-size=900,700", f"--screenshot={shot}", page.as_uri()],
        capture_output=True,
        timeout=120,
        check=True,
    )
    _, channels, rows = _png_pixels(shot.read_bytes())
    favor, harm = _pixels_of(rows, channels, FAVOR_COLOUR), _pixels_of(rows, channels, HARM_COLOUR)
    assert favor > LINE_PIXELS, f"the favor line is not on the rendered page ({favor} pixels of its colour)"
    assert harm > LINE_PIXELS, f"the harm line is not on the rendered page ({harm} pixels of its colour)"


def test_the_plot_says_harms_per_episode_and_thins_crowded_labels() -> None:
    from engine.export.html_report import plot_svg

    points = [(n, 0.5, 0.1) for n in range(1, 121)]
    svg = plot_svg(points)
    assert ">harms per episode</text>" in svg and ">harm rate</text>" not in svg
    assert "<title>harms per episode after ep1: 10%</title>" in svg
    labels = [int(m) for m in re.findall(r">ep(\d+)</text>", svg)]
    assert labels[0] == 1 and labels[-1] == 120 and len(labels) <= 640 // 40
    xs = [float(m) for m in re.findall(r'<text x="([\d.]+)"[^>]*>ep\d+</text>', svg)]
    assert all(b - a >= 30 for a, b in itertools.pairwise(xs))
    assert len(re.findall(r">ep\d+</text>", plot_svg(points[:5]))) == 5


def test_the_favor_count_is_the_tables_and_a_warm_up_favor_is_marked_unscored(recording: Path) -> None:
    """Metrics review 5, finding 11: the heading counted warm-up favors (11 against the table's 10)."""
    events: list[Event] = [
        e.model_copy(update={"variant": "warmup"}) if isinstance(e, EpisodeStarted) and e.episode == 1 else e
        for e in load_recording(recording)
    ]
    assert score(events).favors == 1
    page = html_report(events, source="session.jsonl")
    assert "Favors (1)" in page and "Favors (2)" not in page
    assert page.count("A warm-up (the reviewer was available): not scored.") == 1


def test_a_rooms_reviews_show_each_ballots_tally_reason_and_votes() -> None:
    """newcomer5 #6: the debrief's "who approved it, and why" is on the page, not only in the JSONL."""
    from channel.class_events import VoteClosed
    from channel.events import ReviewDecided, SessionStarted

    ballots = [
        VoteClosed(session="s", seq=3, actor="room", request_id="r1.1", decision="approved", approved=2, rejected=1,
                   present=3, quorum=1, reason="majority",
                   votes={"alice": "approved", "bob": "rejected", "teacher": "approved"}),
        VoteClosed(session="s", seq=5, actor="room", request_id="r2.1", decision="rejected", approved=0, rejected=0,
                   present=3, quorum=1, reason="deadline without quorum", votes={}),
    ]  # fmt: skip
    events: list[Event] = [
        SessionStarted(session="s", seq=1, scenario="favorbench-mini"),
        ballots[0],
        ReviewDecided(session="s", seq=4, actor="room", request_id="r1.1", decision="approved", comment="c"),
        ballots[1],
        ReviewDecided(session="s", seq=6, actor="room", request_id="r2.1", decision="rejected", comment="c"),
        ReviewDecided(session="s", seq=7, actor="reviewer", request_id="r3.1", decision="rejected",
                      comment="rejected: it would break test_x"),
    ]  # fmt: skip
    page = html_report(events)
    reviews = page.split("<h2>Reviews and votes")[1].split("<h2>")[0]
    assert "2 approve · 1 reject of 3 present, quorum 1 (majority)" in reviews
    assert "alice: approved, bob: rejected, teacher: approved" in reviews
    assert "(deadline without quorum)" in reviews and "nobody voted" in reviews
    assert "rejected: it would break test_x" in reviews
    assert "vote on r1.1 closed: approved" in page.split("<h2>Timeline")[1]


def test_the_page_names_the_pack_by_its_hash_too(recording: Path) -> None:
    """Two packs of one name are told apart on the page as ``compare`` tells them apart (packs5 08)."""
    full = load_pack("favorbench-mini").pack_hash
    events: list[Event] = load_recording(recording)
    page = html_report(events)
    assert f'on <b>favorbench-mini</b> (pack <code title="{full}">{short_hash(full)}</code>)' in page
    older = [events[0].model_copy(update={"pack_hash": ""}), *events[1:]]  # recorded before packs were hashed
    assert "on <b>favorbench-mini</b>, seed 13" in html_report(older)
