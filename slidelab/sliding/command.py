"""`slidelab slide`: shortest solutions and whole-space analysis from the command line."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Generator
from functools import partial
from typing import Any

from slidelab.errors import SlidelabError
from slidelab.family import SubParsers
from slidelab.fileio import refuse_writing_inputs
from slidelab.memory import parse_size
from slidelab.parallel.options import (
    JOBS_PER_CORE,
    SCHEDULER_EXAMPLE,
    checked_jobs,
    default_jobs,
    journal_argument,
    scheduler_argument,
)
from slidelab.progress import drive_in_terminal
from slidelab.runs import Progress
from slidelab.sliding.distance import GoalDistances, to_goal
from slidelab.sliding.hardest import HardestStarts, hardest_starts
from slidelab.sliding.model import Configuration, Puzzle
from slidelab.sliding.render import describe_move, render_board
from slidelab.sliding.search import (
    Analysis,
    SolveResult,
    analyze,
    every_style,
    solve,
)
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import format_configuration, read_puzzle_file
from slidelab.validation import whole_argument
from slidelab.wording import numbered

EXIT_SOLVED, EXIT_UNREACHABLE, EXIT_LIMITED = 0, 1, 3

Outcome = SolveResult | Analysis | GoalDistances | HardestStarts


def register(subcommands: SubParsers) -> None:
    styles = "; ".join(f"{s.number}: {s.explanation}" for s in MoveStyle.ALL)
    parser = subcommands.add_parser(
        "slide",
        help="shortest solution of a sliding-block puzzle",
        description="Find a shortest solution of a sliding-block puzzle by breadth-first "
        f"search. Move styles: {styles}.",
    )
    parser.add_argument("file", help="puzzle in Knuth's text format (usually FILE.slide)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--style",
        type=whole_argument,
        default=0,
        choices=[style.number for style in MoveStyle.ALL],
        metavar="S",
        help="move style 0-5 (default 0)",
    )
    which.add_argument("--all-styles", action="store_true", help="one line for each style")
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--analyze", action="store_true", help="explore the whole space reachable from the start"
    )
    what.add_argument(
        "--to-goal",
        action="store_true",
        help="distance to the goal of every configuration reachable from the start, and the "
        "number of shortest solutions",
    )
    what.add_argument(
        "--hardest",
        action="store_true",
        help="every placement of the start's pieces on the board: the ones farthest from the "
        "goal among those that can reach it",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--max-states",
        type=whole_argument,
        metavar="N",
        help="stop after N configurations; with --hardest, at a part of more than N placements "
        "(a part: placements that moves cannot leave, searched whole) (default: what fits in "
        "memory)",
    )
    parser.add_argument(
        "--jobs",
        type=whole_argument,
        default=default_jobs(),
        metavar="N",
        help="threads expanding each big layer of the search; with --hardest, processes "
        f"searching its parts, sharing --max-memory; at most {JOBS_PER_CORE} per core "
        "(default: every core, %(default)s here)",
    )
    parser.add_argument(
        "--scheduler",
        type=scheduler_argument,
        metavar="ADDRESS",
        help="with --hardest: search its parts on the Dask cluster whose scheduler is at "
        f"ADDRESS (e.g. {SCHEDULER_EXAMPLE})",
    )
    parser.add_argument(
        "--journal",
        type=journal_argument,
        metavar="FILE",
        help="with --hardest: record every part searched in FILE; rerunning with it skips them "
        "(with --all-styles, each style in its own file: FILE.style0 to FILE.style5)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    refuse_writing_inputs({"--journal": args.journal}, [args.file])
    try:
        puzzle = read_puzzle_file(args.file)
    except OSError as error:
        raise SlidelabError(f"{args.file}: cannot read: {error.strerror}") from None
    if args.max_states is not None and args.max_states < 1:
        raise SlidelabError("--max-states must be at least 1")
    checked_jobs(args.jobs)
    if not args.hardest and (args.scheduler is not None or args.journal is not None):
        raise SlidelabError("--scheduler and --journal split the search of --hardest only")
    max_memory = None if args.max_memory is None else parse_size(args.max_memory)
    search: Callable[..., Generator[Progress, None, Outcome]] = (
        analyze
        if args.analyze
        else to_goal
        if args.to_goal
        else partial(
            _hardest,
            scheduler=args.scheduler,
            journal=args.journal,
            journal_per_style=args.all_styles,
        )
        if args.hardest
        else solve
    )
    if args.all_styles:
        run = every_style(
            search, puzzle, max_states=args.max_states, max_memory=max_memory, jobs=args.jobs
        )
        outcomes: list[Outcome] = list(drive_in_terminal(run))
    else:
        style = MoveStyle.from_number(args.style)
        limits = {"max_states": args.max_states, "max_memory": max_memory}
        outcomes = [drive_in_terminal(search(puzzle, style, jobs=args.jobs, **limits))]
    if args.json:
        objects = [_as_json(puzzle, outcome) for outcome in outcomes]
        print(json.dumps({"styles": objects} if args.all_styles else objects[0]))
    elif args.all_styles:
        for outcome in outcomes:
            print(_summary_line(outcome))
    else:
        print(_report(puzzle, outcomes[0]))
    return _exit_status(outcomes)


def _exit_status(outcomes: list[Outcome]) -> int:
    if any(o.limit_message for o in outcomes):
        return EXIT_LIMITED
    if any(isinstance(o, SolveResult) and o.moves is None for o in outcomes):
        return EXIT_UNREACHABLE
    if any(isinstance(o, GoalDistances) and o.start_distance is None for o in outcomes):
        return EXIT_UNREACHABLE
    if any(isinstance(o, HardestStarts) and o.hardest_distance is None for o in outcomes):
        return EXIT_UNREACHABLE
    return EXIT_SOLVED


def _shorthand(puzzle: Puzzle, config: Configuration) -> str:
    return format_configuration(puzzle, config.placements)


def _hardest(
    puzzle: Puzzle,
    style: MoveStyle,
    *,
    max_states: int | None,
    max_memory: int | None,
    jobs: int,
    scheduler: str | None,
    journal: str | None,
    journal_per_style: bool,
) -> Generator[Progress, None, HardestStarts]:
    """`hardest_starts` called as the other searches are; with `journal_per_style` (a run
    of every style) each style has a journal of its own, `journal`.styleS: a journal
    records the parts of one search."""
    if journal is not None and journal_per_style:
        journal = f"{journal}.style{style.number}"
    return hardest_starts(
        puzzle,
        style,
        max_states=max_states,
        max_memory=max_memory,
        jobs=jobs,
        scheduler=scheduler,
        journal=journal,
    )


def _as_json(puzzle: Puzzle, outcome: Outcome) -> dict[str, Any]:
    if isinstance(outcome, HardestStarts):
        counts: dict[str, int | None] = {
            "placements": outcome.placements,
            "components": outcome.components,
            "can_reach": outcome.can_reach,
            "hardest_distance": outcome.hardest_distance,
            "hardest_count": outcome.hardest_count,
        }
        if outcome.limit_message:  # a stopped run decides nothing: its counts are unknown
            counts = dict.fromkeys(counts)
        return {
            "style": outcome.style.number,
            **counts,
            "hardest": [_shorthand(puzzle, c) for c in outcome.hardest],
            "limit": outcome.limit_message,
        }
    if isinstance(outcome, GoalDistances):
        return {
            "style": outcome.style.number,
            "states": outcome.component,
            "reachable": outcome.component,
            "start_distance": outcome.start_distance,
            "optimal_solutions": outcome.optimal_solutions,
            "to_goal_layers": list(outcome.to_goal_layers),
            "cannot_reach": outcome.cannot_reach,
            "limit": outcome.limit_message,
        }
    if isinstance(outcome, SolveResult):
        return {
            "style": outcome.style.number,
            "moves": outcome.moves,
            "states": outcome.states,
            "layers": list(outcome.layers),
            "path": [_shorthand(puzzle, c) for c in outcome.path],
            "limit": outcome.limit_message,
        }
    return {
        "style": outcome.style.number,
        "states": outcome.reachable,
        "reachable": outcome.reachable,
        "layers": list(outcome.layers),
        "farthest_distance": outcome.farthest_distance,
        "farthest_count": outcome.farthest_count,
        "farthest_examples": [_shorthand(puzzle, c) for c in outcome.farthest_examples],
        "goal_count": outcome.goal_count,
        "limit": outcome.limit_message,
    }


def _summary_line(outcome: Outcome) -> str:
    head = f"style {outcome.style.number}: "
    if outcome.limit_message:
        return head + outcome.limit_message
    if isinstance(outcome, GoalDistances):
        return head + _distances_line(outcome)
    if isinstance(outcome, HardestStarts):
        return head + _hardest_line(outcome)
    if isinstance(outcome, Analysis):
        return (
            head + f"{outcome.reachable:,} reachable, farthest distance "
            f"{outcome.farthest_distance} ({outcome.farthest_count:,} configurations), "
            f"{outcome.goal_count:,} meet the goal"
        )
    if outcome.moves is None:
        return head + f"no solution ({outcome.states:,} configurations explored)"
    return head + f"{numbered(outcome.moves, 'move')} ({outcome.states:,} configurations explored)"


def _distances_line(outcome: GoalDistances) -> str:
    reachable = f"{outcome.component:,} reachable"
    if outcome.start_distance is None:
        return f"the goal cannot be reached ({reachable}, none meets the goal)"
    solutions = outcome.optimal_solutions
    return (
        f"the start is {numbered(outcome.start_distance, 'move')} from the goal, "
        f"{solutions:,} shortest solution{'s' if solutions != 1 else ''} "
        f"({reachable}, {outcome.cannot_reach:,} cannot reach the goal)"
    )


def _hardest_line(outcome: HardestStarts) -> str:
    counts = (
        f"{outcome.placements:,} placements in {outcome.components:,} components, "
        f"{outcome.can_reach:,} can reach the goal"
    )
    if outcome.hardest_distance is None:
        return counts
    many = outcome.hardest_count
    return (
        f"{counts}; the hardest are {numbered(outcome.hardest_distance, 'move')} from it "
        f"({many:,} placement{'s' if many != 1 else ''})"
    )


def _report(puzzle: Puzzle, outcome: Outcome) -> str:
    title = f"{puzzle.rows} x {puzzle.cols} {puzzle.title}".rstrip()
    style = outcome.style
    lines = [f"{title}: style {style.number} ({style.explanation})", _summary_line(outcome)]
    if isinstance(outcome, HardestStarts):
        for index, config in enumerate(outcome.hardest, 1):
            lines += [
                f"Hardest {index}: {_shorthand(puzzle, config)}",
                render_board(puzzle, config.placements, "  "),
            ]
        return "\n".join(lines)
    if isinstance(outcome, GoalDistances):
        if outcome.limit_message:
            return "\n".join(lines)
        counts = " ".join(str(n) for n in outcome.to_goal_layers)
        return "\n".join([*lines, f"Configurations at each distance to the goal: {counts}"])
    lines.append("New configurations at each distance: " + " ".join(str(n) for n in outcome.layers))
    if isinstance(outcome, Analysis):
        for index, config in enumerate(outcome.farthest_examples, 1):
            lines += [
                f"Farthest example {index}: {_shorthand(puzzle, config)}",
                render_board(puzzle, config.placements, "  "),
            ]
        return "\n".join(lines)
    for move, config in enumerate(outcome.path):
        heading = (
            "Start"
            if move == 0
            else f"Move {move}: " + describe_move(puzzle, outcome.path[move - 1], config)
        )
        lines += ["", heading, render_board(puzzle, config.placements, "  ")]
    return "\n".join(lines)
