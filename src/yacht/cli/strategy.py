"""``yacht solve``, ``yacht hint`` and ``yacht distribution``: the exact strategy tables."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from yacht.cli import CommandError, add_lang_option, cli_gettext, cli_language
from yacht.cli.bounds import whole
from yacht.cli.core import json_option, preset_shown, rules_option, used_categories
from yacht.cli.errors import dice_error, no_upper_error
from yacht.cli.match import cmd_win_hint
from yacht.cli.text import number, open_text, option_text, percent, rolls_left
from yacht.rules import rules_by_name

MAX_EXPLAINED = 20
"""The most options ``yacht hint --explain N`` explains."""

MAX_POINTS = 10_000
"""The most points a ``--target``, ``--banked`` or ``--upper`` may say (far above any
preset's most)."""


def register(subs: Any) -> None:
    _ = cli_gettext()
    what = _("the expected final total under optimal play")
    p = subs.add_parser("solve", help=what, description=what)
    rules_option(p, choices=True)
    p.add_argument("--no-cache", action="store_true", help=_("build the table afresh"))
    p.add_argument(
        "--target",
        type=_points,
        metavar="T",
        help=_("the best chance of a final total of at least T points instead"),
    )
    json_option(p)
    add_lang_option(p)
    p.set_defaults(handler=cmd_solve)

    what = _("every option for a roll, best first")
    p = subs.add_parser("hint", help=what, description=what)
    p.add_argument(
        "--dice",
        nargs="+",
        type=_face,
        required=True,
        metavar=_("DIE"),
        help=_("the five dice, 1 to 6"),
    )
    p.add_argument(
        "--rolls-left",
        type=int,
        required=True,
        choices=(0, 1, 2),
        help=_("rolls left in the turn: 0, 1 or 2"),
    )
    p.add_argument(
        "--used",
        default="",
        metavar=_("CATEGORIES"),
        help=_("filled categories, comma-separated (e.g. ones,yacht)"),
    )
    p.add_argument(
        "--upper",
        type=whole(0, MAX_POINTS),
        default=None,
        metavar="N",
        help=_("the points of Ones to Sixes so far (a preset with an upper bonus)"),
    )
    rules_option(p, choices=True)
    p.add_argument(
        "--target",
        type=_points,
        metavar="T",
        help=_("rank by the chance of a final total of at least T points"),
    )
    p.add_argument(
        "--banked",
        type=_points,
        default=None,
        metavar="B",
        help=_("the points on your sheet so far"),
    )
    p.add_argument(
        "--opponents",
        metavar=_("SHEETS"),
        help=_("rank by the chance of finishing first against these sheets"),
    )
    p.add_argument(
        "--explain",
        type=whole(1, MAX_EXPLAINED),
        nargs="?",
        const=3,
        default=None,
        metavar="N",
        help=_("say in words why the N best options win (default 3)"),
    )
    json_option(p)
    add_lang_option(p)
    p.set_defaults(handler=cmd_hint)

    what = _("the exact distribution of the final total")
    p = subs.add_parser("distribution", help=what, description=what)
    rules_option(p, choices=True)
    json_option(p)
    p.add_argument("--plot", metavar=_("FILE"), help=_("draw a histogram (a .png or .svg file)"))
    add_lang_option(p)
    p.set_defaults(handler=cmd_distribution)


def _face(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 6:
        _ = cli_gettext()
        raise argparse.ArgumentTypeError(_("{word!r} is not a die face (1 to 6)").format(word=text))
    return value


_points = whole(0, MAX_POINTS)


def cmd_solve(args: argparse.Namespace) -> int:
    from yacht.strategy import solve
    from yacht.strategy.target import target_table

    if args.target is not None:
        most = rules_by_name(args.rules).max_total()
        if 0 < args.target <= most:
            table = target_table(args.rules, args.target, use_cache=not args.no_cache)
            p = table.probability([], args.target)
        else:
            p = 1.0 if args.target <= 0 else 0.0
        if args.json:
            print(json.dumps({"rules": args.rules, "target": args.target, "probability": p}))
        else:
            _ = cli_gettext()
            text = _("{rules}: the best chance of a final total of at least {target}: {p}")
            shown = text.format(
                rules=preset_shown(args.rules), target=args.target, p=percent(p, digits=4)
            )
            print(f"{shown} ({p!r})")
        return 0
    solution = solve(args.rules, use_cache=not args.no_cache)
    if args.json:
        out = {"rules": args.rules, "expected": solution.expected, "seconds": solution.seconds}
        print(json.dumps(out))
    else:
        _ = cli_gettext()
        text = _(
            "{rules}: expected final total under optimal play {expected} "
            "(table built in {seconds} s)"
        )
        print(
            text.format(
                rules=preset_shown(args.rules),
                expected=number(solution.expected, digits=7),
                seconds=number(solution.seconds, digits=3),
            )
        )
    return 0


def cmd_hint(args: argparse.Namespace) -> int:
    from yacht.coach import reason_text
    from yacht.strategy import hint
    from yacht.strategy.explain import explain

    _ = cli_gettext()
    if args.explain is not None and (args.opponents is not None or args.target is not None):
        raise CommandError(
            _("--explain explains the hint by expected points: leave out --target and --opponents")
        )
    if args.opponents is not None:  # playing to win
        return cmd_win_hint(args)

    if len(args.dice) != 5:
        raise dice_error(args.dice)
    rules = rules_by_name(args.rules)
    if args.upper is not None and rules.upper_bonus is None:
        raise no_upper_error(args.rules)
    if args.banked is not None and args.target is None:
        raise CommandError(_("--banked counts toward a target: give --target T too"))
    used = used_categories(args.used)
    try:  # hint() checks the position it is given before any work: its ValueError is ours
        h = hint(
            rules,
            used,
            args.dice,
            args.rolls_left,
            upper=args.upper or 0,
            target=args.target,
            banked=args.banked or 0,
        )
        explanation = None
        if args.explain is not None:
            explanation = explain(
                rules, used, args.dice, args.rolls_left, upper=args.upper or 0, top=args.explain
            )
    except ValueError as e:
        raise CommandError.about(e) from None
    if args.json:
        out = h.to_json()
        if explanation is not None:
            out["explanation"] = explanation.to_json()
        print(json.dumps(out))
        return 0
    print(
        _("{rules}: dice {dice}, {rolls}; open: {open}").format(
            rules=preset_shown(args.rules),
            dice=" ".join(map(str, args.dice)),
            rolls=rolls_left(args.rolls_left),
            open=open_text(h.used),
        )
    )
    texts = [option_text(o.action, o.keep, o.category, o.points) for o in h.options]
    expected = _("expected")
    width = max(len(t) for t in [_("option"), *texts])
    wide = max(8, len(expected))
    head = f"  {_('option'):<{width}}  {expected:>{wide}}"
    if args.target is not None:
        head += f"  {f'P(>={args.target})':>11}"
    print(head)
    for i, (o, text) in enumerate(zip(h.options, texts, strict=True)):
        line = f"{'*' if i == 0 else ' '} {text:<{width}}  {number(o.expected, digits=3):>{wide}}"
        if o.probability is not None:
            line += f"  {percent(o.probability, digits=4):>11}"
        print(line)
    if explanation is not None:
        print()
        print(_("Why:"))
        lang = cli_language()
        for option, reasons in zip(explanation.outlooks, explanation.reasons(), strict=True):
            text = option_text(
                option.option.action,
                option.option.keep,
                option.option.category,
                option.option.points,
            )
            print(f"{'*' if option is explanation.outlooks[0] else ' '} {text}")
            for r in reasons:
                print(f"    {reason_text(r.code, r.args, lang)}")
    return 0


def cmd_distribution(args: argparse.Namespace) -> int:
    from yacht.strategy.distribution import distribution

    _ = cli_gettext()
    plot = Path(args.plot) if args.plot else None
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        raise CommandError(_("--plot: {file!r} must end in .png or .svg").format(file=args.plot))
    start = time.perf_counter()
    d = distribution(args.rules)
    if plot is not None:
        _plot(d, plot, args.rules)
    if args.json:
        print(json.dumps(d.to_json()))
        return 0
    seconds = number(time.perf_counter() - start, digits=2)
    print(
        _("{rules}: final total under optimal play ({seconds} s)").format(
            rules=preset_shown(args.rules), seconds=seconds
        )
    )
    print(
        _("mean {mean}, standard deviation {stdev}").format(
            mean=number(d.mean, digits=4), stdev=number(d.stdev, digits=4)
        )
    )
    cuts = ", ".join(f"{percent(float(q) / 100, digits=0)}: {t}" for q, t in d.percentiles.items())
    print(_("percentiles: {cuts}").format(cuts=cuts))
    by_ten = [
        float(d.probabilities[lo : lo + 10].sum()) for lo in range(0, d.probabilities.size, 10)
    ]
    scale = 50 / max(by_ten)
    for i, p in enumerate(by_ten):
        if p >= 5e-5:
            print(f"{i * 10:>3}-{i * 10 + 9:<3} {percent(p, digits=3):>8} {'#' * round(p * scale)}")
    if plot is not None:
        print(_("plot written to {file}").format(file=plot))
    return 0


def _plot(d: Any, path: Path, rules: str) -> None:
    _ = cli_gettext()
    try:
        import matplotlib
    except ImportError:
        raise CommandError(_("--plot needs matplotlib: pip install 'yacht[plot]'")) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.5))
    totals = range(d.probabilities.size)
    ax.bar(totals, d.probabilities, width=1.0, color="#4c72b0", label=_("P(final total)"))
    mean = _("mean {mean}").format(mean=number(d.mean, digits=2))
    ax.axvline(d.mean, color="#c44e52", linewidth=2, label=mean)
    cuts = d.percentiles
    label = _("percentiles: {cuts}").format(
        cuts=", ".join(f"{percent(float(q) / 100, digits=0)} {t}" for q, t in cuts.items())
    )
    for i, (q, t) in enumerate(cuts.items()):
        ax.axvline(t, color="#555555", linestyle=":", linewidth=1, label=None if i else label)
        ax.annotate(
            percent(float(q) / 100, digits=0),
            (t, 1.0),
            xycoords=("data", "axes fraction"),
            ha="center",
            va="bottom",
            fontsize=8,
        )
    ax.set_xlabel(_("final total"))
    ax.set_ylabel(_("probability"))
    title = _("{rules}: final total under optimal play (standard deviation {stdev})")
    ax.set_title(title.format(rules=rules, stdev=number(d.stdev, digits=2)), pad=16)
    ax.set_xlim(0, d.probabilities.size)
    ax.set_ylim(0, float(d.probabilities.max()) * 1.3)  # room for the legend above the bars
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    try:
        fig.savefig(path)
    except OSError as e:
        raise CommandError(
            _("--plot: cannot write {file!r}: {error}").format(file=str(path), error=e.strerror)
        ) from None
    finally:
        plt.close(fig)
