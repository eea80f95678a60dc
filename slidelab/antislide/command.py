"""`slidelab antislide`: count or list antisliding packings, or check one packing."""

from __future__ import annotations

import argparse
import json
from typing import Any

from slidelab.antislide.document import declared_brick
from slidelab.antislide.layers import format_packing, parse_packing
from slidelab.antislide.model import DEFAULT_BRICK, Box, sliding_faces
from slidelab.antislide.search import AntislideResult, solve
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
    parser.add_argument("--list", action="store_true", help="print every packing")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--min-blocks", type=whole_argument, default=0, metavar="K", help="at least K bricks"
    )
    parser.add_argument("--max-blocks", type=whole_argument, metavar="K", help="at most K bricks")
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
    split = None
    if splits(args, listing=args.list):
        split = drive_in_terminal(
            solve_split(
                box, brick, min_blocks=args.min_blocks, max_blocks=args.max_blocks,
                keep=args.list, jobs=jobs_of(args), scheduler=args.scheduler,
                journal=args.journal,
            ),
        )  # fmt: skip
        result = split.result
    else:
        search = solve(
            box, brick, min_blocks=args.min_blocks, max_blocks=args.max_blocks, keep=args.list
        )
        result = drive_in_terminal(search)
    if args.json:
        fields = _as_json(result)
        if split is not None:
            fields |= {"subproblems": split.subproblems, "resumed": split.resumed}
        print(json.dumps(fields))
        return EXIT_OK
    if args.list:
        for n, packing in enumerate(result.packings, 1):
            print(f"# {n}: ({packing.symmetries} syms, {packing.blocks} blks)")
            print(format_packing(box, packing.bricks))
            print()
    print(_summary(result))
    return EXIT_OK


def _as_json(result: AntislideResult) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "box": list(result.box.dims),
        "brick": list(result.brick),
        "solutions": result.solutions,
        "by_blocks": {str(b): c for b, c in result.by_blocks.items()},
        "min_blocks": result.min_blocks,
        "max_blocks": result.max_blocks,
        "symmetries": result.symmetries,
        "nodes": result.nodes,
    }
    if result.packings:
        fields["packings"] = [
            {
                "layers": format_packing(result.box, p.bricks).splitlines(),
                "blocks": p.blocks,
                "symmetries": p.symmetries,
            }
            for p in result.packings
        ]
    return fields


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
