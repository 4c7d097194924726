"""Slider latency of every widget panel, measured headlessly.

Every panel in ``ppdm_edu.widgets`` (found by :func:`ppdm_edu.widgets.all_panels`) is built with
its default values; then each of its controls is driven across its range — sliders from min to
max, dropdowns / toggle buttons / radio buttons / checkboxes through their options — while the
other controls stay at their defaults. Setting ``control.value`` runs the panel's full update
synchronously (algorithm + matplotlib redraw + PNG encoding, see ``widgets/panel.py``), so the
wall time around the assignment *is* the latency a student feels (minus the browser's image
transfer, which the real-browser test covers).

Usage::

    python benchmarks/panel_latency.py                       # every panel
    python benchmarks/panel_latency.py --panel reconstruction  # panels whose key contains this
    python benchmarks/panel_latency.py --updates 60 --json out.json
    python benchmarks/panel_latency.py --steps --lecture     # one step at a time, as in class

``--steps`` moves each control the way the browser test does (``tests/browser/
test_notebooks_in_browser.py``) and a lecturer would: a slider one keyboard step away and back,
twice; toggle buttons and dropdowns to every other choice, then back; a multiple choice to all
options, then back. Before each move it waits until the panel has computed ahead what it
computes ahead (``AheadCache``, at most ``--pause`` seconds) and drawn ahead what the kernel
draws while idle (``Panel.draw_ahead``): the room looks at the figure between moves. These are
the kernel's share of the browser medians (the page adds the transfer, decoding and painting of
the image).

Reported per panel and per control: number of updates, p50 / p95 / max in milliseconds, how many
updates ended in a message (a ``ValueError`` shown instead of a figure: those are timed but kept
out of the percentiles, since they skip the redraw) and how many crashed (any other exception: a
bug). The verdict column compares the panel's p95 with the issue's target for its notebook.
Timings on a shared 2-core machine are noisy; re-run before drawing conclusions.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field

os.environ.setdefault("MPLBACKEND", "Agg")

import numpy as np  # noqa: E402

__all__ = [
    "ControlStats",
    "PanelStats",
    "sweep_values",
    "measure_panel",
    "measure_all",
    "target_for",
    "format_table",
]

# Latency targets of the notebook issues (p95 of one full update, seconds), keyed by a word that
# appears in the panel's module name (widgets are "one module per notebook topic"). First match
# wins, so the more specific words come first. A panel class may override with a class attribute
# ``latency_target_seconds``.
TARGETS: list[tuple[str, float, str]] = [
    ("reconstruct", 0.150, "issue 4: reconstruction < 150 ms at n = 10,000, <= 100 intervals"),
    ("rr_tree", 1.0, "issue 7: RR tree re-build < 1 s"),
    ("randomized_response_tree", 1.0, "issue 7: RR tree re-build < 1 s"),
    ("id3", 1.0, "issue 7: RR tree re-build < 1 s"),
    ("tree", 1.0, "issues 6-8: tree re-train < 1 s on the default sample"),
    ("perturbed", 1.0, "issue 8: PPDTC4.5 / NB re-train < 1 s"),
    ("liu", 1.0, "issue 8: PPDTC4.5 / NB re-train < 1 s"),
    ("direct", 1.0, "issue 8: PPDTC4.5 / NB re-train < 1 s"),
    ("c45", 1.0, "issue 8: PPDTC4.5 / NB re-train < 1 s"),
    ("attack", 0.300, "issue 10: attacks < 300 ms"),
    ("ldp", 0.300, "issue 10: attacks / LDP < 300 ms"),
    ("randomized_response", 0.100, "issue 5: randomized response < 100 ms"),
    ("response", 0.100, "issue 5: randomized response < 100 ms"),
    ("rr", 0.100, "issue 5: randomized response < 100 ms"),
    ("privacy", 0.100, "issue 3: randomization / privacy < 100 ms"),
    ("randomization", 0.100, "issue 3: randomization / privacy < 100 ms"),
    ("noise", 0.100, "issue 3: randomization / privacy < 100 ms"),
]

# The reconstruction target holds "at n = 10,000 and <= 100 intervals": updates whose n-like or
# interval-like control is above that are timed and shown, but not counted for the verdict.
_SCOPE_LIMITS = {"reconstruct": {"n": 10_000, "intervals": 100}}


def target_for(key: str, cls=None) -> tuple[float | None, str]:
    """The p95 target (seconds) and where it comes from, for a panel key ``module.Class``."""
    explicit = getattr(cls, "latency_target_seconds", None) if cls is not None else None
    if explicit is not None:
        return float(explicit), f"{key}.latency_target_seconds"
    module = key.split(".")[0].lower()
    for word, seconds, source in TARGETS:
        if word in module:
            return seconds, source
    return None, "no target in the issues"


def _in_scope(key: str, values: dict) -> bool:
    module = key.split(".")[0].lower()
    for word, limits in _SCOPE_LIMITS.items():
        if word not in module:
            continue
        for name, value in values.items():
            if not isinstance(value, (int, float, np.integer, np.floating)) or isinstance(value, bool):
                continue
            lname = name.lower()
            if "interval" in lname and value > limits["intervals"]:
                return False
            if (lname in {"n", "n_records", "n_samples", "size", "sample_size"} or lname.startswith("n_rec")) \
                    and value > limits["n"]:
                return False
    return True


# -- sweeping one control -------------------------------------------------------------------
def _options(control) -> list:
    """The values of a selection widget (Dropdown, ToggleButtons, RadioButtons, SelectionSlider)."""
    labels_values = getattr(control, "_options_values", None)
    if labels_values is not None:
        return list(labels_values)
    opts = list(getattr(control, "options", []))
    return [o[1] if isinstance(o, tuple) and len(o) == 2 else o for o in opts]


def _dedupe_consecutive(values: list, current) -> list:
    out = []
    last = current
    for v in values:
        if not _same(v, last):
            out.append(v)
            last = v
    return out


def _same(a, b) -> bool:
    try:
        result = a == b
        if isinstance(result, np.ndarray):
            return bool(result.all())
        return bool(result)
    except Exception:  # noqa: BLE001 - odd values: treat as different
        return False


def sweep_values(control, count: int) -> list:
    """``count`` values that drive ``control`` across its range (each differs from the previous).

    Sliders: evenly spaced from min to max snapped to the step (then back down and up again when
    the slider has fewer distinct values than ``count``). Log sliders: evenly spaced exponents. Selections: the options in turn, cycled.
    Checkboxes / toggle buttons: alternate. Range sliders: windows sweeping the range.
    Widgets with no range (text boxes, ...) are not driven: returns [].
    """
    import ipywidgets as w

    count = max(int(count), 1)
    current = control.value
    if isinstance(control, (w.Checkbox, w.ToggleButton, w.Valid)):
        vals = [not current if i % 2 == 0 else current for i in range(count)]
        return _dedupe_consecutive(vals, current)
    if isinstance(control, (w.SelectMultiple,)):
        opts = _options(control)
        singles = [(o,) for o in opts] + [tuple(opts)]
        vals = [singles[i % len(singles)] for i in range(count)]
        return _dedupe_consecutive(vals, current)
    if hasattr(control, "options"):  # Dropdown, ToggleButtons, RadioButtons, Select, SelectionSlider
        opts = _options(control)
        if len(opts) < 2:
            return []
        start = (opts.index(current) + 1) if current in opts else 0
        vals = [opts[(start + i) % len(opts)] for i in range(count)]
        return _dedupe_consecutive(vals, current)
    if isinstance(control, (w.IntRangeSlider, w.FloatRangeSlider)):
        lo, hi = float(control.min), float(control.max)
        span = (current[1] - current[0]) if current else (hi - lo) / 2
        starts = np.linspace(lo, hi - span, count)
        vals = [(s, s + span) for s in starts]
        if isinstance(control, w.IntRangeSlider):
            vals = [(int(round(a)), int(round(b))) for a, b in vals]
        return _dedupe_consecutive(vals, tuple(current))
    if isinstance(control, w.FloatLogSlider):
        exps = _zigzag(float(control.min), float(control.max), count)
        vals = [float(control.base) ** e for e in exps]
        return _dedupe_consecutive(_ping_pong(vals, count), current)
    if hasattr(control, "min") and hasattr(control, "max"):  # Int/Float sliders and bounded texts
        lo, hi = control.min, control.max
        step = getattr(control, "step", None)
        raw = _zigzag(float(lo), float(hi), count)
        if isinstance(current, (int, np.integer)) and not isinstance(current, bool):
            step = int(step or 1)
            vals = [int(min(hi, max(lo, lo + step * round((v - lo) / step)))) for v in raw]
        else:
            if step:
                vals = [float(min(hi, max(lo, lo + step * round((v - lo) / step)))) for v in raw]
            else:
                vals = [float(v) for v in raw]
        return _dedupe_consecutive(_ping_pong(vals, count), current)
    return []


def _zigzag(lo: float, hi: float, count: int) -> list[float]:
    """``count`` evenly spaced points from min to max."""
    if count <= 1:
        return [hi]
    return list(np.linspace(lo, hi, count))


def _ping_pong(values: list, count: int) -> list:
    """min..max, then back down, then up again ... until ``count`` values (after snapping to a
    coarse step, an integer slider may have fewer distinct values than ``count``)."""
    grid = []
    for v in values:
        if not grid or not _same(v, grid[-1]):
            grid.append(v)
    if len(grid) < 2:
        return grid
    out = list(grid)
    forward = False
    while len(out) < count:
        nxt = grid[1:] if forward else grid[-2::-1]
        out.extend(nxt)
        forward = not forward
    return out[:max(count, len(grid))]


# -- measuring ------------------------------------------------------------------------------
def _percentiles(seconds: list[float]) -> dict:
    if not seconds:
        return {"p50_ms": None, "p95_ms": None, "max_ms": None, "mean_ms": None}
    a = np.asarray(seconds) * 1000.0
    return {
        "p50_ms": float(np.percentile(a, 50)),
        "p95_ms": float(np.percentile(a, 95)),
        "max_ms": float(a.max()),
        "mean_ms": float(a.mean()),
    }


@dataclass
class ControlStats:
    name: str
    widget: str
    n_updates: int
    n_messages: int
    n_crashes: int
    p50_ms: float | None
    p95_ms: float | None
    max_ms: float | None
    mean_ms: float | None
    values_tried: str = ""


@dataclass
class PanelStats:
    key: str
    title: str
    build_ms: float
    n_updates: int
    n_messages: int
    n_crashes: int
    p50_ms: float | None
    p95_ms: float | None
    max_ms: float | None
    mean_ms: float | None
    target_ms: float | None
    target_source: str
    p95_in_scope_ms: float | None
    n_in_scope: int
    meets_target: bool | None
    controls: list[ControlStats] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    error: str | None = None


def _fmt_values(values: list) -> str:
    if not values:
        return ""
    def one(v):
        if isinstance(v, float):
            return f"{v:.4g}"
        return str(v)
    if len(values) <= 6:
        return ", ".join(one(v) for v in values)
    return f"{one(values[0])} .. {one(values[-1])} ({len(values)} values)"


def measure_panel(key: str, cls, min_updates: int = 30, min_per_control: int = 8,
                  verbose: bool = False) -> PanelStats:
    """Build ``cls()`` and drive each control; return the timings.

    Every panel gets at least ``min_updates`` timed updates in total, and every control at least
    ``min_per_control`` (fewer only when the control has fewer distinct values, e.g. a checkbox
    alternates, a 3-option dropdown is cycled).
    """
    target, source = target_for(key, cls)
    start = time.perf_counter()
    try:
        panel = cls()
    except Exception as err:  # noqa: BLE001 - report, do not stop the benchmark
        return PanelStats(key=key, title=getattr(cls, "title", ""), build_ms=math.nan, n_updates=0,
                          n_messages=0, n_crashes=1, p50_ms=None, p95_ms=None, max_ms=None,
                          mean_ms=None, target_ms=None if target is None else target * 1000,
                          target_source=source, p95_in_scope_ms=None, n_in_scope=0,
                          meets_target=False,
                          error=f"constructor failed: {type(err).__name__}: {err}")
    build_ms = (time.perf_counter() - start) * 1000.0
    controls = dict(panel.controls)
    driven = [name for name in controls if not getattr(controls[name], "disabled", False)]
    per_control = max(min_per_control, math.ceil(min_updates / max(len(driven), 1)))

    all_ok: list[float] = []
    in_scope: list[float] = []
    n_msg = n_crash = 0
    crashes: list[str] = []
    messages: list[str] = []
    control_stats: list[ControlStats] = []
    for name in driven:
        control = controls[name]
        default = control.value
        values = sweep_values(control, per_control)
        ok: list[float] = []
        c_msg = c_crash = 0
        for value in values:
            t0 = time.perf_counter()
            try:
                control.value = value
                failed = None
            except Exception as err:  # noqa: BLE001 - a crash is a bug in the panel: record it
                failed = err
            dt = time.perf_counter() - t0
            if failed is not None:
                c_crash += 1
                text = f"{name}={value!r}: {type(failed).__name__}: {failed}"
                if len(crashes) < 5 and text not in crashes:
                    crashes.append(text)
                    if verbose:
                        traceback.print_exception(failed)
            elif panel.error is not None:
                c_msg += 1
                text = f"{name}={value!r}: {panel.error}"
                if len(messages) < 5 and text not in messages:
                    messages.append(text)
            else:
                ok.append(dt)
                all_ok.append(dt)
                if _in_scope(key, panel.values()):
                    in_scope.append(dt)
        # back to the default so the next control is measured around the notebook's defaults
        try:
            if not _same(control.value, default):
                control.value = default
        except Exception:  # noqa: BLE001
            pass
        n_msg += c_msg
        n_crash += c_crash
        control_stats.append(ControlStats(name=name, widget=type(control).__name__,
                                          n_updates=len(values), n_messages=c_msg,
                                          n_crashes=c_crash, values_tried=_fmt_values(values),
                                          **_percentiles(ok)))
        if verbose:
            cs = control_stats[-1]
            p95 = "—" if cs.p95_ms is None else f"{cs.p95_ms:.0f}"
            print(f"  {key}.{name}: {cs.n_updates} updates, p95 {p95} ms", file=sys.stderr)
    stats = _percentiles(all_ok)
    scope = _percentiles(in_scope)
    meets = None
    if target is not None:
        meets = (scope["p95_ms"] is not None and scope["p95_ms"] <= target * 1000.0 and n_crash == 0)
    return PanelStats(key=key, title=getattr(panel, "title", ""), build_ms=build_ms,
                      n_updates=sum(c.n_updates for c in control_stats), n_messages=n_msg,
                      n_crashes=n_crash, target_ms=None if target is None else target * 1000.0,
                      target_source=source, p95_in_scope_ms=scope["p95_ms"],
                      n_in_scope=len(in_scope), meets_target=meets, controls=control_stats,
                      crashes=crashes, messages=messages, **stats)


def _wait_ahead(panel, timeout: float) -> None:
    """Wait (at most ``timeout`` s) until every AheadCache of ``panel`` has nothing to do, then
    draw ahead what the kernel's event loop draws while it is idle (``Panel.draw_ahead``; this
    script runs no event loop)."""
    from ppdm_edu.widgets.precompute import AheadCache, threads_available

    deadline = time.monotonic() + timeout
    for value in vars(panel).values():
        if isinstance(value, AheadCache):
            value.wait_idle(timeout=max(deadline - time.monotonic(), 0.0))
    draw_ahead = getattr(panel, "draw_ahead", None)
    if draw_ahead is not None and threads_available():
        while draw_ahead():
            pass


def _step_moves(control) -> list:
    """The moves of ``--steps`` for one control (see the module docstring)."""
    import ipywidgets as w

    from ppdm_edu.widgets.precompute import log_slider_neighbours, slider_neighbours

    current = control.value
    if isinstance(control, w.FloatLogSlider):
        near = log_slider_neighbours(control, current)
    elif isinstance(control, (w.IntSlider, w.FloatSlider)):
        near = slider_neighbours(control, current)
    else:
        near = None
    if near is not None:
        if not near:
            return []
        away = near[0]  # right first, as the browser test (left at the right end)
        if isinstance(control, w.IntSlider):
            away = int(away)
        return [away, current, away, current]
    if isinstance(control, w.SelectMultiple):
        every = tuple(_options(control))
        return [every, current] if every != tuple(current) else []
    if hasattr(control, "options"):
        return [o for o in _options(control) if not _same(o, current)] + [current]
    if isinstance(control, (w.Checkbox, w.ToggleButton)):
        return [not current, current]
    return []


def measure_steps(key: str, cls, pause: float = 10.0) -> PanelStats:
    """Build ``cls()`` and move each control one step at a time (``--steps``); return the timings."""
    target, source = target_for(key, cls)
    start = time.perf_counter()
    panel = cls()
    build_ms = (time.perf_counter() - start) * 1000.0
    all_ok: list[float] = []
    control_stats: list[ControlStats] = []
    n_msg = 0
    for name, control in panel.controls.items():
        if getattr(control, "disabled", False):
            continue
        moves = _step_moves(control)
        ok: list[float] = []
        c_msg = 0
        for value in moves:
            _wait_ahead(panel, pause)
            t0 = time.perf_counter()
            control.value = value
            dt = time.perf_counter() - t0
            if panel.error is not None:
                c_msg += 1
            else:
                ok.append(dt)
        all_ok += ok
        n_msg += c_msg
        control_stats.append(ControlStats(name=name, widget=type(control).__name__, n_updates=len(moves),
                                          n_messages=c_msg, n_crashes=0, values_tried=_fmt_values(moves),
                                          **_percentiles(ok)))
    stats = _percentiles(all_ok)
    return PanelStats(key=key, title=getattr(panel, "title", ""), build_ms=build_ms,
                      n_updates=sum(c.n_updates for c in control_stats), n_messages=n_msg, n_crashes=0,
                      target_ms=None if target is None else target * 1000.0, target_source=source,
                      p95_in_scope_ms=stats["p95_ms"], n_in_scope=len(all_ok),
                      meets_target=None if target is None else (stats["p95_ms"] or 0) <= target * 1000.0,
                      controls=control_stats, **stats)


def measure_all(panel_filter: str | None = None, min_updates: int = 30, min_per_control: int = 8,
                lecture: bool = False, verbose: bool = False, panels: dict | None = None,
                steps: bool = False, pause: float = 10.0) -> list[PanelStats]:
    """Measure every panel (``panels`` defaults to :func:`ppdm_edu.widgets.all_panels`);
    ``steps``: one step at a time (:func:`measure_steps`) instead of sweeping each range."""
    from ppdm_edu import lecture_mode

    lecture_mode(lecture)  # what the first cell of every notebook does
    if panels is None:
        from ppdm_edu.widgets import all_panels

        panels = all_panels()
    out = []
    for key, cls in sorted(panels.items()):
        if panel_filter and panel_filter.lower() not in key.lower():
            continue
        if verbose:
            print(f"measuring {key} ...", file=sys.stderr)
        if steps:
            out.append(measure_steps(key, cls, pause=pause))
            continue
        out.append(measure_panel(key, cls, min_updates=min_updates,
                                 min_per_control=min_per_control, verbose=verbose))
    return out


# -- reporting ------------------------------------------------------------------------------
def _ms(v) -> str:
    return "—" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.0f}"


def format_table(results: list[PanelStats], per_control: bool = True) -> str:
    """Markdown tables: one row per panel (with verdict), then one row per control."""
    lines = [
        "| panel | updates | p50 ms | p95 ms | max ms | target p95 | verdict | messages | crashes |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |",
    ]
    for r in results:
        if r.meets_target is None:
            verdict = "no target"
        elif r.meets_target:
            verdict = "met"
        else:
            verdict = "**MISSED**"
        target = "—" if r.target_ms is None else f"< {r.target_ms:.0f} ms"
        scope_note = ""
        if r.p95_in_scope_ms is not None and r.n_in_scope != r.n_updates - r.n_messages - r.n_crashes:
            scope_note = f" (in scope: {_ms(r.p95_in_scope_ms)}, {r.n_in_scope} updates)"
        lines.append(f"| `{r.key}` | {r.n_updates} | {_ms(r.p50_ms)} | {_ms(r.p95_ms)}{scope_note} | "
                     f"{_ms(r.max_ms)} | {target} | {verdict} | {r.n_messages} | {r.n_crashes} |")
    notes = [f"- `{r.key}`: {r.error}" for r in results if r.error]
    for r in results:
        notes += [f"- `{r.key}` crash: {c}" for c in r.crashes]
    if notes:
        lines += ["", *notes]
    if per_control:
        lines += ["", "| panel | control | widget | updates | p50 ms | p95 ms | max ms | messages | values |",
                  "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"]
        for r in results:
            for c in r.controls:
                lines.append(f"| `{r.key}` | `{c.name}` | {c.widget} | {c.n_updates} | {_ms(c.p50_ms)} | "
                             f"{_ms(c.p95_ms)} | {_ms(c.max_ms)} | {c.n_messages} | {c.values_tried} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--panel", default=None,
                        help="only panels whose key (module.ClassName) contains this text")
    parser.add_argument("--updates", type=int, default=30, help="minimum timed updates per panel (default 30)")
    parser.add_argument("--per-control", type=int, default=8,
                        help="minimum timed updates per control (default 8)")
    parser.add_argument("--lecture", action="store_true", help="measure in lecture (projector) mode")
    parser.add_argument("--steps", action="store_true",
                        help="one step at a time with a pause between moves, as the browser test "
                             "(see the module docstring)")
    parser.add_argument("--pause", type=float, default=10.0,
                        help="--steps: wait at most this long (s) for the computing ahead before each move")
    parser.add_argument("--json", default=None, help="also write the results to this JSON file")
    parser.add_argument("--list", action="store_true", help="list the panels and exit")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    from ppdm_edu.widgets import all_panels

    panels = all_panels()
    if args.list:
        for key, cls in sorted(panels.items()):
            target, source = target_for(key, cls)
            print(f"{key}\t{'-' if target is None else f'{target * 1000:.0f} ms'}\t{source}")
        return 0
    if not panels:
        print("no panels found in ppdm_edu.widgets", file=sys.stderr)
        return 1
    selected = [k for k in panels if not args.panel or args.panel.lower() in k.lower()]
    if not selected:
        print(f"no panel matches {args.panel!r}; panels: {', '.join(sorted(panels))}", file=sys.stderr)
        return 2
    results = measure_all(args.panel, min_updates=args.updates, min_per_control=args.per_control,
                          lecture=args.lecture, verbose=args.verbose, panels=panels,
                          steps=args.steps, pause=args.pause)
    print(f"Panel latency ({os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"{'lecture' if args.lecture else 'classroom'} style"
          f"{', one step at a time' if args.steps else ''}; load average "
          f"{os.getloadavg()[0]:.1f} at the end; shared machine: timings are noisy)\n")
    print(format_table(results))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump([asdict(r) for r in results], fh, indent=2)
    return 1 if any(r.n_crashes for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
