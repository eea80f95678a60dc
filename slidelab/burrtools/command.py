"""`slidelab polycube FILE.xmpuzzle`: BurrTools puzzles listed, counted and written.

`extend_polycube` adds this family's options to the `polycube` subcommand and takes
over every `.xmpuzzle` file (recognised by its extension or its gzip header), and every
`--export-xmpuzzle` or `--disassemble` of a spec (made a BurrTools puzzle first);
everything else goes on to the polycube command.  The options mean what they mean for
specs: solutions are the assemblies in the fixed result shape, `--distinct` counts them
as BurrTools does.  `--disassemble` takes each assembly apart
(`slidelab.burrtools.disassemblies`), in chunks on several processes or a Dask cluster,
journaled, as --jobs, --scheduler and --journal ask (the assemblies are found here).  What
the file records (BurrTools' assemblies, and its solutions: assemblies it could also take
apart) is reported apart, as BurrTools'.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from slidelab.burrtools.assemblies import AssemblyCount, search_assemblies
from slidelab.burrtools.convert import puzzle_from_spec
from slidelab.burrtools.disassemblies import DisassemblyCount, TakenApart, search_disassemblies
from slidelab.burrtools.model import SOLVED, SOLVING, VARIABLE, Puzzle, Solution, XmpuzzleError
from slidelab.burrtools.packing import BurrPacking, packing_steps, problem_label
from slidelab.burrtools.reader import is_xmpuzzle, read_xmpuzzle
from slidelab.burrtools.stored import stored_solution
from slidelab.burrtools.writer import write_xmpuzzle
from slidelab.disassembly.model import DIRECTION_NAMES, Move, level_text, separations
from slidelab.errors import SlidelabError
from slidelab.exactcover.search import solve
from slidelab.family import SubParsers
from slidelab.fileio import read_input, refuse_writing_inputs
from slidelab.parallel.options import jobs_of, wants_split
from slidelab.polycube.family import SUBCOMMAND
from slidelab.polycube.packing import solution_numbers
from slidelab.polycube.spec import Spec, parse_spec
from slidelab.progress import drive_in_terminal

EXIT_FOUND, EXIT_NONE = 0, 1
RECORDED_NOTE = (
    "figures BurrTools recorded in the file, not slidelab's: 'solutions' are the assemblies "
    "BurrTools could also take apart (slidelab's own: --disassemble)"
)

STATES = {SOLVING: "being solved", SOLVED: "solved"}
"""How the JSON names the states of problems that carry BurrTools' figures."""

Command = Callable[[argparse.Namespace], int]
"""A subcommand's `run`: carries out the parsed command line, returns the exit status."""


def extend_polycube(subcommands: SubParsers) -> None:
    """Give the registered `polycube` subcommand BurrTools' options and files."""
    parser = subcommands.choices[SUBCOMMAND]
    add_arguments(parser)
    polycube_run: Command = parser.get_default("run")
    parser.set_defaults(run=lambda args: _route(args, polycube_run))


def _route(args: argparse.Namespace, polycube_run: Command) -> int:
    """Carry out `slidelab polycube`: BurrTools files and exports here, specs by `polycube_run`."""
    refuse_writing_inputs(
        {"--export-xmpuzzle": args.export_xmpuzzle, "--journal": args.journal}, [args.spec]
    )
    if args.unit_moves and not args.disassemble:
        raise SlidelabError("--unit-moves applies to --disassemble only")
    burrtools = args.spec != "-" and is_xmpuzzle(args.spec)
    if (burrtools or args.export_xmpuzzle) and not args.disassemble and wants_split(args):
        raise SlidelabError(
            "--jobs, --scheduler and --journal split --disassemble only, for .xmpuzzle files "
            "and --export-xmpuzzle"
        )
    if burrtools:
        return run(args)
    if args.problem is not None:
        raise SlidelabError("--problem applies to .xmpuzzle files only")
    if args.export_xmpuzzle or args.disassemble:
        source, text = read_input(args.spec)
        spec = parse_spec(text, source)
        if not args.disassemble:
            return export_spec(spec, args, source)
        name = "" if source == "<stdin>" else Path(source).stem
        return solve_puzzle(puzzle_from_spec(spec, name, source), args)
    return polycube_run(args)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `slidelab polycube` that concern BurrTools files."""
    parser.add_argument(
        "--problem",
        metavar="NAME",
        help="the problem of a .xmpuzzle file to solve: its name, or its number from 1 "
        "(needed when the file has more than one)",
    )
    parser.add_argument(
        "--export-xmpuzzle",
        metavar="OUT",
        help="write the puzzle as a BurrTools .xmpuzzle file OUT instead of solving it; with "
        "--disassemble, solve it and write the assemblies that come apart, with their "
        "disassemblies, as the problem's solutions",
    )
    parser.add_argument(
        "--disassemble",
        action="store_true",
        help="take every assembly apart as BurrTools does: how many come apart (BurrTools' "
        "solutions) and the moves to each separation (the level); the assemblies are found "
        "in this process, then taken apart in chunks as --jobs, --scheduler and --journal ask",
    )
    parser.add_argument(
        "--unit-moves",
        action="store_true",
        help="with --disassemble: a move slides its pieces by one cell, not by any distance",
    )


def export_spec(spec: Spec, args: argparse.Namespace, source: str) -> int:
    """Write a spec as a BurrTools puzzle (`--export-xmpuzzle`), named after its file."""
    if args.mirror:
        raise SlidelabError("--mirror cannot be exported: BurrTools never turns pieces over")
    name = "" if source == "<stdin>" else Path(source).stem
    write_xmpuzzle(args.export_xmpuzzle, puzzle_from_spec(spec, name, source))
    return EXIT_FOUND


def run(args: argparse.Namespace) -> int:
    """Carry out `slidelab polycube` on a BurrTools file; returns the exit status."""
    if args.dlx:
        raise SlidelabError("--dlx does not apply to .xmpuzzle files, only to polycube specs")
    if args.mirror:
        raise SlidelabError(
            "--mirror does not apply to .xmpuzzle files: BurrTools never turns pieces over"
        )
    puzzle = read_xmpuzzle(args.spec)
    if args.export_xmpuzzle and not args.disassemble:
        write_xmpuzzle(args.export_xmpuzzle, puzzle)
        return EXIT_FOUND
    return solve_puzzle(puzzle, args)


def solve_puzzle(puzzle: Puzzle, args: argparse.Namespace) -> int:
    """Count, list or take apart the assemblies of the chosen problem of `puzzle`."""
    chosen = _chosen(puzzle, args.problem, args.spec)
    packing = drive_in_terminal(packing_steps(puzzle, chosen, args.spec))
    summary = _summary(packing)
    if args.disassemble:
        return _disassemble(packing, args, summary)
    if args.distinct:
        counted: AssemblyCount = drive_in_terminal(search_assemblies(packing))
        count = counted.fixed
        summary |= _distinct_fields(counted)
        if not args.json:
            print(
                f"{counted.fixed} assemblies in the fixed result, {counted.assemblies} as "
                f"BurrTools counts them (up to the result's {counted.rotations} rotations and "
                f"{counted.reflections} reflections)"
            )
    elif args.count:
        count = drive_in_terminal(solve(packing.exact_cover, count_only=True)).count
        if not args.json:
            print(count)
    else:
        found = [_decoded(packing, s) for s in solution_numbers(packing.exact_cover)]
        count = len(found)
        if args.json:
            summary["found"] = found
        else:
            for solution in found:
                lines = [" ".join([p["piece"], *(_cell(c) for c in p["cells"])]) for p in solution]
                print("\n".join(lines) + "\n")
    summary["solutions"] = count
    if args.json:
        print(json.dumps(summary))
    elif args.distinct and packing.problem.state == SOLVED:
        print(f"BurrTools recorded {_recorded_text(packing)}")
    return EXIT_NONE if count == 0 else EXIT_FOUND


def _disassemble(packing: BurrPacking, args: argparse.Namespace, summary: dict[str, Any]) -> int:
    """`--disassemble`: take every assembly (one per class with --distinct) apart, in chunks
    as --jobs, --scheduler and --journal ask; with --export-xmpuzzle, write the puzzle with them
    as the problem's solutions."""
    jobs = jobs_of(args)
    search = search_disassemblies(
        packing, distinct=args.distinct, unit_steps=args.unit_moves, jobs=jobs,
        scheduler=args.scheduler, journal=args.journal, what=args.spec,
    )  # fmt: skip
    counted = drive_in_terminal(search)
    if counted.shared.subproblems:
        print(_shared_text(counted, jobs, args.scheduler), file=sys.stderr)
    if args.export_xmpuzzle:
        write_xmpuzzle(args.export_xmpuzzle, with_disassemblies(packing, counted))
    highest = counted.highest_level
    if args.json:
        summary |= {
            "assemblies": counted.assemblies,
            "disassemblable": counted.disassemblable,
            "highest_level": list(highest) if highest else None,
            "disassemblies": [
                _taken_apart_fields(number, taken)
                for number, taken in enumerate(counted.results, 1)
                if taken.disassembly.separable
            ],
        }
        print(json.dumps(summary))
    else:
        kind = "distinct assemblies" if args.distinct else "assemblies in the fixed result"
        print(
            f"{counted.disassemblable} of {counted.assemblies} {kind} come apart"
            + (f"; highest level {level_text(highest)}" if highest else "")
        )
        for number, taken in enumerate(counted.results, 1):
            if taken.disassembly.separable:
                print(f"assembly {number}: level {level_text(taken.disassembly.level)}")
        if args.distinct and packing.problem.state == SOLVED:
            print(f"BurrTools recorded {_recorded_text(packing)}")
    return EXIT_FOUND if counted.disassemblable else EXIT_NONE


def _shared_text(counted: DisassemblyCount, jobs: int, scheduler: str | None) -> str:
    """Where the assemblies were taken apart, for stderr: the output itself is the same."""
    shared = counted.shared
    if scheduler is not None:
        where = f"the Dask cluster at {scheduler}"
    else:
        where = "this process" if jobs == 1 else f"{jobs} processes"
    chunks = f"{shared.subproblems} chunks on {where}"
    if shared.here:
        assemblies = "1 assembly" if shared.here == 1 else f"{shared.here:,} assemblies"
        text = f"Taken apart here ({assemblies}), then in {chunks}"
    else:
        text = f"Taken apart in {chunks}"
    if shared.resumed:
        text += f"; {shared.resumed} chunks from the journal"
    return text + "."


def with_disassemblies(packing: BurrPacking, counted: DisassemblyCount) -> Puzzle:
    """The puzzle with the problem marked solved, BurrTools' figures slidelab's own, and the
    assemblies that come apart stored with their disassemblies, as BurrTools stores them."""
    puzzle = packing.puzzle
    index = puzzle.problems.index(packing.problem)
    stored: list[Solution] = []
    for number, taken in enumerate(counted.results):
        if taken.disassembly.separable:
            parts = [placed.part for placed in packing.decode(taken.solution)]
            solution = stored_solution(
                puzzle, index, parts, taken.assembly, taken.disassembly.separation
            )
            stored.append(replace(solution, assembly_number=number, solution_number=len(stored)))
    problem = replace(
        packing.problem,
        state=SOLVED,
        assemblies=counted.assemblies,
        solutions=counted.disassemblable,
        time=round(counted.seconds),
        stored=tuple(stored),
        saved_search=None,
    )
    problems = tuple(problem if k == index else p for k, p in enumerate(puzzle.problems))
    return replace(puzzle, problems=problems)


def _taken_apart_fields(number: int, taken: TakenApart) -> dict[str, Any]:
    disassembly = taken.disassembly
    return {
        "assembly": number,
        "pieces": [
            {"piece": piece.name, "cells": [list(c) for c in piece.cells]}
            for piece in taken.assembly.pieces
        ],
        "first_separation": disassembly.first_separation,
        "level": list(disassembly.level),
        "moves": [
            [_move_fields(move) for move in separation.moves]
            for separation in separations(disassembly.separation)
        ],
    }


def _move_fields(move: Move) -> dict[str, Any]:
    return {
        "pieces": list(move.pieces),
        "direction": DIRECTION_NAMES[move.direction],
        "distance": move.distance,
    }


def _chosen(puzzle: Puzzle, wanted: str | None, source: str) -> int:
    """The index of the problem `--problem` names (by name, else by number from 1)."""
    labels = [problem_label(puzzle, k) for k in range(len(puzzle.problems))]
    listed = ", ".join(f"{k + 1}: {label!r}" for k, label in enumerate(labels))
    if wanted is None:
        if len(labels) == 1:
            return 0
        problem = "no problems" if not labels else f"problems {listed}"
        raise XmpuzzleError(source, "problems", f"the file has {problem}; choose with --problem")
    if wanted in labels:
        return labels.index(wanted)
    if wanted.isdigit() and 1 <= int(wanted) <= len(labels):
        return int(wanted) - 1
    raise XmpuzzleError(source, "problems", f"no problem {wanted!r}; the file has {listed}")


def _summary(packing: BurrPacking) -> dict[str, Any]:
    problem = packing.problem
    variable = sum(v.state == VARIABLE for v in packing.result.voxels)
    summary: dict[str, Any] = {
        "problem": packing.label,
        "cells": len(packing.result.voxels) - variable,
        "variable_cells": variable,
        "pieces": problem.piece_count,
        "options": len(packing.placements),
        "mirror": False,
    }
    if problem.state in STATES:
        summary["recorded_by_burrtools"] = {
            "state": STATES[problem.state],
            "assemblies": problem.assemblies,
            "solutions": problem.solutions,
            "note": RECORDED_NOTE,
        }
    return summary


def _distinct_fields(counted: AssemblyCount) -> dict[str, Any]:
    return {
        "distinct": counted.assemblies,
        "symmetries": counted.rotations + counted.reflections,
        "reflections": counted.reflections > 0,
        "mirrorable": counted.mirrorable,
        "seconds": round(counted.seconds, 6),
    }


def _recorded_text(packing: BurrPacking) -> str:
    problem = packing.problem
    text = f"assemblies {problem.assemblies}"
    if problem.solutions is not None:
        text += f", solutions {problem.solutions} (assemblies it could also take apart)"
    return text


def _decoded(packing: BurrPacking, solution: tuple[int, ...]) -> list[dict[str, Any]]:
    return [
        {"piece": packing.part_label(p.part), "cells": [list(c) for c in p.cells]}
        for p in packing.decode(solution)
    ]


def _cell(cell: list[int]) -> str:
    return ",".join(map(str, cell))
