"""`slidelab antislide`: count or list antisliding packings, or check one packing."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from slidelab.antislide.document import declared_brick
from slidelab.antislide.layers import format_packing, parse_packing
from slidelab.antislide.model import DEFAULT_BRICK, Box, sliding_faces
from slidelab.antislide.search import AntislideResult, Packing, solve
from slidelab.antislide.split import solve_split
from slidelab.errors import SlidelabError
from slidelab.family import SubParsers
from slidelab.fileio import read_text, refuse_writing_inputs
from slidelab.parallel.options import add_parallel_arguments, jobs_of, splits
from slidelab.progress import drive_in_terminal
from slidelab.validation import check_block_range, whole_argument

EXIT_OK, EXIT_SLIDES = 0, 1


def register(subcommands: SubParsers) -> None:
    parser = subcommands.add_parser(
        "antislide",
        help="antisliding brick packings of a box, one per symmetry class",
        description="Pack bricks into an L x M x N box so that no brick can slide, and list "
        "every packing once up to the symmetries of the box (Knuth's ANTISLIDE3).",
    )
    parser.add_argument(
        "dims", type=whole_argument, nargs="*", metavar="L M N", help="the box's size"
    )
    parser.add_argument(
        "--brick",
        type=whole_argument,
        nargs=3,
        metavar=("A", "B", "C"),
        help="brick size (default 2 2 1; with --check, the file's brick line when it has one)",
    )
    parser.add_argument(
        "--list",
        action="store_true",
        help="print every packing, as it is found (kept until the end, within --max-memory, "
        "with --json or a search in subproblems)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--min-blocks",
        type=whole_argument,
        default=0,
        metavar="K",
        help="at least K bricks (none if K is more than the box holds)",
    )
    parser.add_argument(
        "--max-blocks",
        type=whole_argument,
        metavar="K",
        help="at most K bricks (no limit if K is as many as the box holds, or more)",
    )
    parser.add_argument(
        "--check",
        metavar="FILE",
        help="say whether the packing in FILE (layer notation) is antisliding",
    )
    add_parallel_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    refuse_writing_inputs({"--journal": args.journal}, [args.check])
    if args.check is not None:
        return _check(args.check, None if args.brick is None else tuple(args.brick))
    brick = DEFAULT_BRICK if args.brick is None else tuple(args.brick)
    if len(args.dims) != 3:
        raise SlidelabError("antislide needs the box's size L M N (or --check FILE)")
    check_block_range(args.min_blocks, args.max_blocks)
    box = Box(tuple(args.dims))
    listed = 0

    def show(packings: Sequence[Packing]) -> None:
        """Print `packings` in layer notation, numbered on from the ones before."""
        nonlocal listed
        for packing in packings:
            listed += 1
            header = f"# {listed}: ({packing.symmetries} syms, {packing.blocks} blks)"
            sys.stdout.write(f"{header}\n{format_packing(box, packing.bricks)}\n\n")

    split = None
    if splits(args, listing=args.list):
        # The subproblems end in any order, and their packings are listed in the whole
        # search's: they are kept until all have ended.
        split = drive_in_terminal(
            solve_split(
                box, brick, min_blocks=args.min_blocks, max_blocks=args.max_blocks,
                keep=args.list, jobs=jobs_of(args), scheduler=args.scheduler,
                journal=args.journal,
            ),
        )  # fmt: skip
        result = split.result
    else:
        # Listed, the packings are printed as they are found; in JSON they come after the
        # counts, so they are kept.
        search = solve(
            box, brick, min_blocks=args.min_blocks, max_blocks=args.max_blocks,
            keep=args.list and args.json, stream=args.list and not args.json,
        )  # fmt: skip
        result = drive_in_terminal(search, lambda batch: show(batch.packings))
    if args.json:
        more = {} if split is None else {"subproblems": split.subproblems, "resumed": split.resumed}
        _print_json(result, more)
        return EXIT_OK
    show(result.packings)
    print(_summary(result))
    return EXIT_OK


def _print_json(result: AntislideResult, more: dict[str, Any]) -> None:
    """Print the run as one JSON object: its counts, its packings if listed, then `more`.  The
    packings are written one by one, as `json.dumps` would lay them out, so that their text
    is never held all at once."""
    sys.stdout.write(json.dumps(_as_json(result))[:-1])  # without its closing brace
    if result.packings:
        sys.stdout.write(', "packings": [')
        for n, packing in enumerate(result.packings):
            fields = {
                "layers": format_packing(result.box, packing.bricks).splitlines(),
                "blocks": packing.blocks,
                "symmetries": packing.symmetries,
            }
            sys.stdout.write(f"{', ' if n else ''}{json.dumps(fields)}")
        sys.stdout.write("]")
    tail = "".join(f", {json.dumps(key)}: {json.dumps(value)}" for key, value in more.items())
    sys.stdout.write(f"{tail}}}\n")


def _as_json(result: AntislideResult) -> dict[str, Any]:
    """The run's counts, as JSON fields."""
    return {
        "box": list(result.box.dims),
        "brick": list(result.brick),
        "solutions": result.solutions,
        "by_blocks": {str(b): c for b, c in result.by_blocks.items()},
        "min_blocks": result.min_blocks,
        "max_blocks": result.max_blocks,
        "symmetries": result.symmetries,
        "nodes": result.nodes,
    }


def _summary(result: AntislideResult) -> str:
    dims = "x".join(map(str, result.box.dims))
    brick = "x".join(map(str, result.brick))
    counts = ", ".join(f"{b} blocks: {c}" for b, c in result.by_blocks.items())
    lines = [
        f"{dims} box, {brick} bricks, {result.symmetries} symmetries: "
        f"{result.solutions} classes of antisliding packings ({counts})"
    ]
    if result.min_blocks is not None:
        lines.append(f"non-empty packings have {result.min_blocks} to {result.max_blocks} blocks")
    return "\n".join(lines)


def _check(path: str, brick: tuple[int, int, int] | None) -> int:
    """Say whether the packing in `path` is antisliding: its bricks are the file's brick
    line's size, or `brick` (--brick), or 2x2x1; a brick line and --brick must agree."""
    text = read_text(path)
    declared = declared_brick(text, path)
    if declared is not None and brick is not None and declared != brick:
        raise SlidelabError(
            f"{path}: its brick line says {'x'.join(map(str, declared))}, but --brick says "
            f"{' '.join(map(str, brick))}"
        )
    box, bricks = parse_packing(text, declared or brick or DEFAULT_BRICK, path)
    labels = list(bricks)
    slides = sliding_faces(box, list(bricks.values()))
    if not slides:
        print(f"antisliding: no brick of the {len(bricks)} can slide")
        return EXIT_OK
    for n, direction in slides:
        print(f"brick {labels[n]} can slide {direction}")
    return EXIT_SLIDES
