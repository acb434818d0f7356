"""A lesson's prompt on everyone's screen (issue 30): the notice line says it as it comes, and the
shared channel's notices keep it (a replay shows it too)."""

from __future__ import annotations

from channel.events import LessonPrompted
from tui.app import build_app


async def test_a_lesson_prompt_is_shown_in_the_notice_line_and_kept_in_the_channel() -> None:
    app = build_app(None, "s-lesson", flash_seconds=0)
    async with app.run_test(size=(160, 48)) as pilot:
        prompt = LessonPrompted(
            session="s-lesson",
            seq=1,
            ts=0.0,
            actor="lesson",
            lesson="Favors",
            cue=1,
            prompt="Would you approve this?",
            choices=("approve", "reject"),
            at_seq=1,
            paused=True,
        )
        app.apply_events([prompt], live=True)
        await pilot.pause()
        assert app.notices.text == "Would you approve this? [approve / reject]" and app.notices.kind == "📣 Lesson"
        assert (
            "📣 lesson: Would you approve this? [approve / reject] (paused: p resumes)" in app.channel.log_view.plain()
        )
