"""Writing `.xmpuzzle` files as BurrTools writes them (puzzle_c::save and the savers it calls).

The elements come in BurrTools' order with its defaults left out (a weight of
1, a zero hotspot, an empty name, `count` when a part's range is one number),
the XML is indented by two blanks and gzip-compressed, and the file is
replaced atomically.  `parse_xmpuzzle(format_xmpuzzle(p)) == p` for every
puzzle the reader returns.
"""

from __future__ import annotations

import gzip
import os
from xml.etree import ElementTree
from xml.etree.ElementTree import Element, SubElement

from slidelab.burrtools.model import (
    CUBE_GRID,
    UNSOLVED,
    BurrProblem,
    Part,
    Puzzle,
    Shape,
    Solution,
)
from slidelab.burrtools.voxels import format_voxels
from slidelab.fileio import write_bytes_atomically


def write_xmpuzzle(path: str | os.PathLike[str], puzzle: Puzzle) -> None:
    """Save `puzzle` to `path` atomically."""
    write_bytes_atomically(path, format_xmpuzzle(puzzle))


def format_xmpuzzle(puzzle: Puzzle) -> bytes:
    """The gzip-compressed file (with no time stamp, so equal puzzles give equal bytes)."""
    return gzip.compress(xmpuzzle_xml(puzzle).encode("utf-8"), mtime=0)


def xmpuzzle_xml(puzzle: Puzzle) -> str:
    """The XML text of the file, before compression."""
    root = Element("puzzle", version=str(puzzle.version))
    SubElement(root, "gridType", type=str(CUBE_GRID))
    colours = SubElement(root, "colors")
    for red, green, blue in puzzle.colours:
        SubElement(colours, "color", red=str(red), green=str(green), blue=str(blue))
    shapes = SubElement(root, "shapes")
    for shape in puzzle.shapes:
        _shape(shapes, shape)
    problems = SubElement(root, "problems")
    for problem in puzzle.problems:
        _problem(problems, problem)
    comment = SubElement(root, "comment")
    if puzzle.comment:
        if puzzle.comment_popup:
            comment.set("popup", "")
        comment.text = puzzle.comment
    ElementTree.indent(root, "  ")
    text = ElementTree.tostring(root, encoding="unicode").replace(" />", "/>")  # BurrTools' style
    return '<?xml version="1.0"?>\n' + text + "\n"


def _shape(parent: Element, shape: Shape) -> None:
    x, y, z = shape.size
    node = SubElement(parent, "voxel", x=str(x), y=str(y), z=str(z))
    for name, value in zip(("hx", "hy", "hz"), shape.hotspot, strict=True):
        if value:
            node.set(name, str(value))
    if shape.weight != 1:
        node.set("weight", str(shape.weight))
    if shape.name:
        node.set("name", shape.name)
    node.set("type", "0")
    node.text = format_voxels(shape.size, shape.voxels)


def _problem(parent: Element, problem: BurrProblem) -> None:
    node = SubElement(parent, "problem")
    if problem.name:
        node.set("name", problem.name)
    node.set("state", str(problem.state))
    if problem.state != UNSOLVED:
        for name in ("assemblies", "solutions", "time"):
            value = getattr(problem, name)
            if value is not None:
                node.set(name, str(value))
    if problem.max_holes is not None:
        node.set("maxHoles", str(problem.max_holes))
    parts = SubElement(node, "shapes")  # BurrTools' name for the list of parts
    for part in problem.parts:
        _part(parts, part)
    if problem.result is not None:
        SubElement(node, "result", id=str(problem.result))
    bitmap = SubElement(node, "bitmap")
    for piece, result in problem.allowed_colours:
        SubElement(bitmap, "pair", piece=str(piece - 1), result=str(result - 1))
    if problem.saved_search is not None:
        search = SubElement(node, "assembler", version=problem.saved_search.version)
        search.text = problem.saved_search.state
    if problem.stored:
        solutions = SubElement(node, "solutions")
        for solution in problem.stored:
            _solution(solutions, solution)


def _part(parent: Element, part: Part) -> None:
    node = SubElement(parent, "shape", id=str(part.shape))
    if part.low == part.high:
        node.set("count", str(part.low))
    else:
        node.set("min", str(part.low))
        node.set("max", str(part.high))
    if len(part.groups) == 1 and part.groups[0].count == part.high:
        node.set("group", str(part.groups[0].group))
    else:
        for group in part.groups:
            SubElement(node, "group", group=str(group.group), count=str(group.count))


def _solution(parent: Element, solution: Solution) -> None:
    node = SubElement(parent, "solution")
    if solution.assembly_number is not None:
        node.set("asmNum", str(solution.assembly_number))
    if solution.solution_number is not None:
        node.set("solNum", str(solution.solution_number))
    assembly = SubElement(node, "assembly")
    assembly.text = " ".join(
        "x" if p is None else f"{p.x} {p.y} {p.z} {p.transformation}" for p in solution.assembly
    )
    if solution.disassembly is not None:
        node.append(ElementTree.fromstring(solution.disassembly))
