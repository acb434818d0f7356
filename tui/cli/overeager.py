"""``scopewatch overeager list|show|validate|run``: seed 003's benchmark of overeager actions on benign
tasks (OVEREAGER-GEN): the shipped scenarios, the acceptance gates, and runs with their verdicts and
statistics. Scripted profiles are a model of behaviour with stated rates, not a measurement.

``scopewatch audit ...`` is the command's old name, kept as an alias: the same parser, so the same
output."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import TYPE_CHECKING, Any

from tui.cli.common import (
    EXIT_USAGE,
    CliError,
    add_model_options,
    add_parallel_options,
    add_sandbox_option,
    add_turn_timeout,
    base_url,
    positive,
    progress_bars,
)

if TYPE_CHECKING:
    from channel.vocab.config import SessionConfig
    from engine.agents.profiles import Profile
    from engine.overeager.episodes import Consent

PROFILES: tuple[Profile, ...] = ("cautious", "moderate", "overeager")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "overeager",
        aliases=["audit"],
        help="seed 003's overeager benchmark: list, validate and run audit scenarios",
        description="Single-agent benign tasks with traps (seed 003, OVEREAGER-GEN): the shipped scenarios, "
        "their acceptance gates, and runs with verdicts and statistics.",
    )
    asub = p.add_subparsers(dest="overeager_command", metavar="ACTION")

    sp = asub.add_parser("list", help="list the shipped audit scenarios")
    sp.add_argument("--archetype", metavar="NAME", help="only this archetype")
    sp.set_defaults(handler=list_command)

    sp = asub.add_parser("show", help="show one scenario: prompt, authorised scope, traps, plan")
    sp.add_argument("scenario", metavar="ID", help="a scenario id (scopewatch overeager list)")
    sp.set_defaults(handler=show_command)

    sp = asub.add_parser("validate", help="generate candidates and run the acceptance gates on them")
    sp.add_argument("--json", action="store_true", help="one JSON object on stdout")
    sp.add_argument(
        "--candidates", type=positive, default=525, metavar="N", help="candidates to generate (default: %(default)s)"
    )
    sp.add_argument("--seed", type=int, default=42, help="generator seed (default: %(default)s)")
    sp.add_argument(
        "--sample", type=positive, metavar="K", help="validate only K candidates, evenly spaced (a quick check)"
    )
    add_parallel_options(sp, "candidate batches")
    add_sandbox_option(sp)
    sp.add_argument("--write", action="store_true", help="write the accepted index to the shipped benchmark.json")
    sp.set_defaults(handler=validate_command)

    sp = asub.add_parser("analyse", help="appendix G: axis balance, independence tests, interaction ranges, stability")
    sp.add_argument("--store", metavar="FILE", help="runs to analyse (a store written by 'overeager run --store')")
    sp.set_defaults(handler=analyse_command)

    sp = asub.add_parser("run", help="run audit scenarios and report verdicts and rates")
    sp.add_argument(
        "--scenario", action="append", default=[], metavar="ID", help="a scenario id (repeatable; default: all)"
    )
    sp.add_argument(
        "--limit", type=int, default=0, metavar="N", help="at most N scenarios, spread over archetypes (0: all)"
    )
    sp.add_argument(
        "--agents",
        action="append",
        metavar="KIND",
        help="an agent to run, one cell of the report each (repeatable; every one runs the same scenarios and "
        "seeds): 'scripted' (the validator's profiles, the default), scripted:PROFILE, a litellm model "
        "(openai/gpt-4o, anthropic/..., any --api-base; seed 003's prompt and an ask_user tool), an agent product "
        "claude-code:MODEL, codex:MODEL, gemini-cli:MODEL (NAME-gated:MODEL: its permission gate on), "
        "mini-swe-agent:MODEL or cmd:'<command line>' (acp: agents are not supported here)",
    )
    sp.add_argument("--profile", choices=PROFILES, help="one scripted profile (default: all three)")
    sp.add_argument(
        "--api-base",
        type=base_url,
        metavar="URL",
        help="the model endpoint the agents call (a local or scripted server)",
    )
    add_model_options(sp)
    add_turn_timeout(sp)
    sp.add_argument(
        "--store",
        metavar="FILE",
        help="results store (JSON lines, one per finished scenario-run): runs already in it are not run again, "
        "so a killed run started again with the same FILE finishes where it stopped",
    )
    sp.add_argument(
        "--consent",
        choices=("axis", "kept", "stripped", "paired"),
        default="axis",
        help="the scope-of-consent block: as each scenario's ambiguity level says (axis, default), always in "
        "the prompt (kept), never (stripped), or both arms on the same scenarios and seeds (paired)",
    )
    sp.add_argument("--runs", type=positive, default=1, metavar="N", help="seeds per scenario (default: %(default)s)")
    sp.add_argument("--seed", type=int, default=1, help="first seed (default: %(default)s)")
    add_parallel_options(sp, "sessions (one per agent, consent arm and seed)")
    sp.add_argument(
        "--record",
        metavar="FILE",
        help="record every event: to FILE for one session, else one new file per agent, arm and seed beside it "
        "(r.jsonl -> r.moderate.axis.seed1.jsonl, r.codex-gpt-5.axis.seed1.jsonl)",
    )
    sp.add_argument("--json", action="store_true", help="one JSON object on stdout")
    sp.set_defaults(handler=run_command)

    def usage(_: argparse.Namespace) -> int:
        p.print_help(sys.stderr)
        return EXIT_USAGE

    p.set_defaults(handler=usage)


def _progress(label: str, total: int) -> Any:
    bar = progress_bars()
    bar.add_task(label, total=total)
    return bar


def analyse_command(args: argparse.Namespace) -> int:
    from pathlib import Path

    from engine.overeager.analyse import analyse, render_analysis
    from engine.overeager.store import ResultsStore
    from engine.scoring.analyses import SCRIPTED_NOTE
    from scenarios.overeager.benchmark import load_benchmark

    index = {e.id: e.levels for e in load_benchmark().scenarios}
    runs = []
    if args.store:
        if not Path(args.store).is_file():
            raise CliError(f"--store {args.store}: no such file (write one with 'overeager run --store FILE')")
        runs = list(ResultsStore(args.store).finished().values())
    if scripted := sorted({r.agent for r in runs if r.agent.startswith("scripted:")}):  # as report and run say it
        print(f"SCRIPTED ({', '.join(scripted)}): {SCRIPTED_NOTE}; their tests, ranges and stability show mechanics")
    print(render_analysis(analyse(index, runs)))
    return 0


def list_command(args: argparse.Namespace) -> int:
    from scenarios.overeager.benchmark import load_benchmark

    scenarios = load_benchmark().scenarios
    known = sorted({e.archetype for e in scenarios})
    if args.archetype and args.archetype not in known:
        choices = ", ".join(known)
        print(f"scopewatch: --archetype {args.archetype}: no such archetype (choices: {choices})", file=sys.stderr)
        return 2
    for e in scenarios:
        if args.archetype and e.archetype != args.archetype:
            continue
        lv = e.levels
        print(
            f"{e.id:34} {e.archetype:24} {lv.layout}/{lv.prompt_style}/{lv.auth_ambiguity}/{lv.lure}/{lv.trap_surface}"
        )
    return 0


def show_command(args: argparse.Namespace) -> int:
    from scenarios.overeager.benchmark import audit_scenario

    s = audit_scenario(args.scenario, command=args.command)
    print(f"{s.id}  ({s.archetype}, seed {s.seed})\n{s.note}\n")
    print("levels: " + ", ".join(f"{k}={v}" for k, v in s.levels.model_dump().items()))
    print(f"\nprompt:\n{s.full_prompt()}\n")
    a = s.authorised
    print(f"authorised: write {list(a.write)}, read {list(a.read)}, atoms {list(a.atoms)}")
    print(f"sensitive (reading one not under read is unauthorised): {list(a.sensitive)}")
    for t in s.traps:
        print(f"trap {t.id} [{t.severity}, {s.tiers[t.id]}]: {t.description}")
    for c in s.success:
        print(f"success {c.id}")
    print("plan: " + " -> ".join(f"{p.kind}:{p.id}" for p in s.plan))
    return 0


def validate_command(args: argparse.Namespace) -> int:
    from engine.overeager.gates import balance, planted_bad, validate
    from scenarios.overeager.benchmark import BENCHMARK_FILE
    from scenarios.overeager.generator import candidates

    pool = list(candidates(args.candidates, seed=args.seed))
    if args.sample and args.sample < len(pool):
        step = len(pool) / args.sample
        pool = [pool[int(i * step)] for i in range(args.sample)]
    canary = planted_bad(pool[0])
    bar = _progress("validating", len(pool) + 1)
    with bar:
        report = validate(
            [*pool, canary],
            jobs=args.jobs,
            executor=args.executor,
            progress=lambda n: bar.advance(bar.task_ids[0], n),
            sandbox=args.sandbox,
        )
    caught = next((r for r in report.rejected if r.id == canary.id), None)
    rejected = [r for r in report.rejected if r.id != canary.id]
    by_gate = dict(Counter(r.gate for r in rejected))
    summary: dict[str, Any] = {
        "generator_seed": args.seed,
        "candidates": len(pool),
        "accepted": len(report.accepted),
        "rejected": len(rejected),
        "rejected_by_gate": by_gate,
        "rejections": [{"id": r.id, "gate": r.gate, "reason": r.reason} for r in rejected],
        "planted_bad": {"id": canary.id, "rejected": caught is not None}
        | ({"gate": caught.gate, "reason": caught.reason} if caught else {}),
        "sandbox": report.sandbox,
        "observed_by": _channel_counts(report.observed),
        "traps_observed": report.observed,
        **balance(report.accepted),
        "seconds": round(report.seconds, 1),
    }
    if args.write:
        _write_index(report, summary, args.seed, BENCHMARK_FILE)
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    else:
        _print_validation(summary)
    return 0 if caught is not None else 1


def _write_index(report: Any, summary: dict[str, Any], seed: int, path: Any) -> None:
    from scenarios.overeager.benchmark import Benchmark, Entry

    index = Benchmark(
        generator_seed=seed,
        candidates=summary["candidates"],
        rejected=summary["rejected_by_gate"],
        scenarios=tuple(
            Entry(id=s.id, n=int(s.id.rsplit("-", 1)[1]), archetype=s.archetype, seed=s.seed, levels=s.levels,
                  hash=report.hashes[s.id])
            for s in report.accepted
        ),
    )  # fmt: skip
    path.write_text(json.dumps(index.model_dump(mode="json"), indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"scopewatch: wrote {len(index.scenarios)} scenarios to {path}", file=sys.stderr)


def _channel_counts(observed: dict[str, dict[str, tuple[str, ...]]]) -> dict[str, int]:
    """Audit channel -> how many accepted traps it observed (a trap seen by two channels counts twice)."""
    counts = Counter(channel for traps in observed.values() for channels in traps.values() for channel in channels)
    return dict(sorted(counts.items()))


def _print_validation(s: dict[str, Any]) -> None:
    print(f"candidates {s['candidates']} (generator seed {s['generator_seed']}): accepted {s['accepted']}, "
          f"rejected {s['rejected']} {s['rejected_by_gate'] or ''}  [{s['seconds']} s]")  # fmt: skip
    seen = "  ".join(f"{c} {n}" for c, n in s["observed_by"].items()) or "none"
    print(f"admissible on {s['sandbox']}; traps observed by: {seen}")
    for r in s["rejections"][:20]:
        print(f"  rejected {r['id']}: {r['gate']}: {r['reason']}")
    pb = s["planted_bad"]
    print(
        f"planted bad scenario {pb['id']}: "
        + (f"rejected ({pb['gate']}: {pb['reason']})" if pb["rejected"] else "ACCEPTED (the gates failed)")
    )
    print(f"archetypes: {len(s['archetypes'])}  " + "  ".join(f"{a} {n}" for a, n in s["archetypes"].items()))
    for axis, counts in s["axes"].items():
        print(f"  {axis:15} " + "  ".join(f"{lv} {n}" for lv, n in counts.items()))
    ideal, worst = s["ideal_per_level"], s["max_deviation"]
    print(f"ideal per level {ideal}, max deviation {worst} ({s['max_relative_deviation']:.1%})")


def _cells(args: argparse.Namespace) -> list[str]:
    """The report's cells from ``--agents`` (each checked, in one line, before anything runs)."""
    from channel.errors import ScopewatchError
    from engine.agents.acp_launch import is_acp
    from engine.agents.external import check_credentials, is_external, misspelt_kind
    from engine.llm.secrets import check_model_credentials
    from engine.overeager.runner import cell_label

    cells: list[str] = []
    for kind in args.agents or ["scripted"]:
        if kind == "scripted":
            cells += [cell_label(kind, p) for p in ([args.profile] if args.profile else PROFILES)]
        elif kind.startswith("scripted:"):
            if kind.removeprefix("scripted:") not in PROFILES:
                raise CliError(f"--agents {kind}: the scripted profiles are {', '.join(PROFILES)}")
            cells.append(kind)
        elif is_acp(kind):
            raise CliError(f"--agents {kind}: ACP agents are not supported by audit runs (their seat wants the "
                           "audit prompt and the ask_user tool); audit an agent product or cmd:'<command line>'")
        elif is_external(kind):
            try:  # a bad product or missing key fails here, in one line
                check_credentials(kind, args.api_base)
            except ScopewatchError as exc:
                raise CliError(f"--agents {kind}: {exc}") from None
            cells.append(kind)
        else:
            try:  # a litellm model: its provider and key are checked here, in one line
                check_model_credentials(kind.removeprefix("llm:"), args.api_base)
            except ScopewatchError as exc:
                raise CliError(f"--agents {kind}: {misspelt_kind(kind) or exc}") from None
            cells.append(cell_label(kind))
    return list(dict.fromkeys(cells))


def _base_config(args: argparse.Namespace) -> SessionConfig:
    """What every session of the run shares: the model endpoint and how its agents call it."""
    from channel.vocab.config import SessionConfig

    return SessionConfig(api_base=args.api_base, timeout=args.timeout, stream=args.stream,
                         max_tokens=args.max_tokens, max_concurrency=args.max_concurrency,
                         turn_timeout=args.turn_timeout)


def run_command(args: argparse.Namespace) -> int:
    from engine.llm.errors import ModelUnreachable
    from engine.overeager.report import audit_report
    from engine.overeager.runner import recording_paths, run_audit, stratified_sample
    from scenarios.overeager.benchmark import audit_scenario, load_benchmark

    cells = _cells(args)
    if args.scenario:
        ids = [i for item in args.scenario for i in item.split(",") if i]
        scenarios = [audit_scenario(i, command=args.command) for i in ids]
    else:
        scenarios = [audit_scenario(e.id) for e in load_benchmark().scenarios]
    scenarios = stratified_sample(scenarios, args.limit)
    arms: list[Consent] = ["kept", "stripped"] if args.consent == "paired" else [args.consent]
    seeds = [args.seed + i for i in range(args.runs)]
    total = len(scenarios) * len(cells) * len(arms) * len(seeds)
    bar = _progress("running", total)
    resumed: dict[str, int] = {}
    """A resumed session's recording -> the events it held before the rest went on in it."""
    try:
        with bar:
            runs = run_audit(
                scenarios, cells=cells, arms=arms, seeds=seeds, jobs=args.jobs, executor=args.executor,
                record=args.record, base=_base_config(args), store=args.store,
                on_episode=lambda: bar.advance(bar.task_ids[0]),
                on_continued=resumed.__setitem__,
            )  # fmt: skip
    except ModelUnreachable as exc:  # a dead endpoint: nothing of that session scored or stored (as run's)
        print(f"scopewatch: the session stopped: {exc}", file=sys.stderr)
        return 1
    if args.record:
        paths = recording_paths(args.record, [(c, a, s) for c in cells for a in arms for s in seeds])
        print(f"scopewatch: {len(paths)} recording(s): {', '.join(paths)}", file=sys.stderr)
        for path, held in resumed.items():  # one recording, one session: the resumed rest goes on in it
            print(f"scopewatch: {path}: resumed after its event {held}; the rest of the session goes on in it",
                  file=sys.stderr)  # fmt: skip
    report = audit_report(runs, consent=args.consent)
    scripted = all(c.startswith("scripted:") for c in cells)
    report["note"] = (
        "scripted profiles: a model of behaviour with stated rates (engine/agents/profiles.py), not a measurement"
        if scripted
        else "scripted profiles are a model with stated rates; the other cells are the agents' own runs"
    )
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        _print_run(report)
    if report["crash"]:  # as report warns: the machine's failure, not the agents'; not stored, so a rerun does them
        print(f"scopewatch: warning: {report['crash']}; not stored", file=sys.stderr)
    if report["failed_runs"]:  # seed 003 §5.1: a run is an agent acting; these are not stored, so a rerun does them
        print(f"scopewatch: {report['failed_runs']} scenario-run(s) failed, in no rate and not stored: "
              f"{report['failure']}", file=sys.stderr)
        return 1
    return 0


def _rate(b: dict[str, Any]) -> str:
    if b["overeager_rate"] is None:  # no run: a rate over nothing
        return f"{'n/a':>6} (0/0)"
    lo, hi = b["overeager_ci"]
    return f"{b['overeager_rate']:6.1%} [{lo:.1%}, {hi:.1%}] ({b['overeager']}/{b['runs']})"


def _pct(rate: float | None, width: int) -> str:
    return f"{'n/a':>{width}}" if rate is None else f"{rate:{width}.1%}"


def _cell(row: dict[str, Any], paired: bool) -> str:
    """A row's name: its agent, and its consent arm when both arms ran."""
    return f"{row['agent']} [{row['arm']}]" if paired else str(row["agent"])


def _print_run(r: dict[str, Any]) -> None:
    print(f"{r['scenarios']} scenarios, seeds {r['seeds']}, consent {r['consent']} ({r['note']})\n")
    if r.get("crash"):  # as report's UNSCORED row: these runs are in no rate below
        print(f"UNSCORED: {r['crash']}\n")
    paired = r["consent"] == "paired"
    if paired:
        print("each consent arm is its own rate (seed 003 Table 1); agents compared within one arm, arms as pairs\n")
    width = max([len(_cell(a, paired)) for a in r["agents"]] + [4])
    print(f"{'cell':{width}}  {'overeager [Wilson 95%] (k/n)':36} severity critical  safety gate  completion")
    for a in r["agents"]:
        print(f"{_cell(a, paired):{width}}  {_rate(a):36} {a['severity']:8} {a['critical_hits']:8}  "
              f"{_pct(a['safety_gate'], 11)}  {_pct(a['task_completion'], 10)}")  # fmt: skip
    for a in r["agents"]:
        rate = a["outside_authorised_rate"]
        print(f"{_cell(a, paired):{width}}  outside the authorised set {'n/a' if rate is None else f'{rate:.1%}'} "
              f"({a['unauthorised_runs']}/{a['runs']})  attempts only {a.get('attempted_runs', 0)}")  # fmt: skip
    for a in r["agents"]:
        if "paired" in a and a["arm"] == "kept":  # once per agent: both its rows carry the comparison
            p = a["paired"]
            lo, hi = p["difference_ci"]
            print(f"\n{a['agent']}: consent kept {_rate(p['kept'])}  stripped {_rate(p['stripped'])}")
            print(f"  stripped - kept {p['difference']:+.1%} [{lo:+.1%}, {hi:+.1%}]  McNemar p = {p['mcnemar_p']:.3g} "
                  f"({p['pairs']} pairs, one per {p.get('unit', 'scenario')})")  # fmt: skip
            for s in p.get("by_seed", []):
                lo, hi = s["difference_ci"]
                print(f"  run seed {s['seed']} alone: {s['difference']:+.1%} [{lo:+.1%}, {hi:+.1%}]  "
                      f"McNemar p = {s['mcnemar_p']:.3g} ({s['pairs']} pairs)")  # fmt: skip
    if r["fisher"]:
        print()
    for c in r["fisher"]:
        arm = f" (consent {c['arm']})" if paired else ""
        print(f"Fisher exact {c['a']} vs {c['b']}{arm}: p = {c['fisher_p']:.3g}")
    _print_archetypes(r)


def _print_archetypes(r: dict[str, Any]) -> None:
    """Table 8: overeager rate per archetype (rows; per consent arm when both ran) and cell (columns)."""
    paired = r["consent"] == "paired"
    cells = list(dict.fromkeys(a["agent"] for a in r["agents"]))

    def name(row: dict[str, Any]) -> str:
        return f"{row['archetype']} [{row['arm']}]" if paired else str(row["archetype"])

    width = max([len(name(row)) for row in r["by_archetype"]] + [9])
    cols = [max(len(c), 12) for c in cells]
    print(f"\n{'archetype':{width}}  " + "  ".join(f"{c:>{w}}" for c, w in zip(cells, cols, strict=True)))
    for row in r["by_archetype"]:
        entries = []
        for cell, w in zip(cells, cols, strict=True):
            e = row["cells"].get(cell)
            text = "-" if e is None else f"{e['overeager_rate']:.0%} {e['overeager']}/{e['runs']}"
            entries.append(f"{text:>{w}}")
        print(f"{name(row):{width}}  " + "  ".join(entries))
