"""Reading `.xmpuzzle` files: gzip-compressed XML (plain XML is accepted too, as BurrTools does).

Every element and attribute BurrTools writes for the cube grid is read; one
slidelab does not know, a grid other than cubes, or a value that breaks
BurrTools' rules raises `XmpuzzleError` naming the element by its path
(`puzzle/shapes/voxel[2]`, counting from 1 among elements of the same name)
and saying why.  Nothing is skipped silently.  The disassemblies of stored
solutions are kept as XML text without being checked.
"""

from __future__ import annotations

import gzip
import io
import os
import re
import zlib
from collections.abc import Iterator
from dataclasses import replace
from itertools import islice
from pathlib import Path
from xml.etree import ElementTree

from slidelab.burrtools.model import (
    CUBE_GRID,
    GRID_NAMES,
    SOLVED,
    SOLVING,
    UNSOLVED,
    BurrProblem,
    Group,
    Part,
    Position,
    Puzzle,
    SavedSearch,
    Shape,
    Solution,
    XmpuzzleError,
)
from slidelab.burrtools.voxels import MAX_COLOUR, parse_voxels
from slidelab.exactcover.problem import MAX_BOUND
from slidelab.fileio import TEXT_LIMIT, read_bytes
from slidelab.integers import DIGITS, INT64_MAX, whole_number

GZIP_MAGIC = b"\x1f\x8b"
EXTENSION = ".xmpuzzle"
ROTATIONS = 24
"""BurrTools' orientation numbers on the cube grid run from 0 to 23."""
MAX_XML_BYTES = 64 << 20
"""Most XML a compressed file may unpack to: BurrTools' biggest examples hold a few MiB."""
MAX_DEPTH = 200
"""Deepest nesting of a stored disassembly slidelab keeps: BurrTools' examples reach 14, and
Python's XML serializer recurses once per level."""


def is_xmpuzzle(path: str | os.PathLike[str]) -> bool:
    """Whether `path` names a BurrTools file: by its extension, or a gzip stream inside."""
    if Path(path).suffix.lower() == EXTENSION:
        return True
    try:
        with open(path, "rb") as stream:
            return stream.read(2) == GZIP_MAGIC
    except OSError:
        return False


def read_xmpuzzle(path: str | os.PathLike[str]) -> Puzzle:
    """The puzzle in the file `path`; errors name the file."""
    return parse_xmpuzzle(read_bytes(path, TEXT_LIMIT), str(path))


def parse_xmpuzzle(data: bytes, source: str = "<input>") -> Puzzle:
    """The puzzle in `data` (gzip-compressed or plain XML); errors name `source`."""
    if data.startswith(GZIP_MAGIC):
        data = _decompress(data, source)
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as error:
        line, column = error.position
        reason = re.sub(r": line \d+, column \d+$", "", str(error))
        raise XmpuzzleError(
            source, f"line {line}, column {column + 1}", f"not well-formed XML ({reason})"
        ) from None
    return _Reader(source).puzzle(_Node(source, root, root.tag))


def _decompress(data: bytes, source: str) -> bytes:
    """The XML inside the gzip stream `data`, refused at once beyond `MAX_XML_BYTES` (a small
    file can unpack to gigabytes)."""
    try:
        xml = gzip.GzipFile(fileobj=io.BytesIO(data)).read(MAX_XML_BYTES + 1)
    except EOFError:
        raise XmpuzzleError(
            source, "gzip stream", "the file ends inside the compressed data (truncated?)"
        ) from None
    except (gzip.BadGzipFile, zlib.error) as error:
        raise XmpuzzleError(source, "gzip stream", f"corrupt compressed data ({error})") from None
    if len(xml) > MAX_XML_BYTES:
        raise XmpuzzleError(
            source, "gzip stream", f"unpacks to more than {MAX_XML_BYTES >> 20} MiB of XML, "
            "more than any puzzle needs; refused",
        )  # fmt: skip
    return xml


class _Node:
    """An XML element with its path, for checked access and messages that point at it."""

    def __init__(self, source: str, element: ElementTree.Element, path: str) -> None:
        self.source = source
        self.element = element
        self.path = path

    def error(self, message: str) -> XmpuzzleError:
        return XmpuzzleError(self.source, self.path, message)

    def expect(
        self, attributes: tuple[str, ...], children: tuple[str, ...] = (), *, text: bool = False
    ) -> None:
        """Fail on any attribute or child element not named, and on text unless `text`."""
        for name in self.element.attrib:
            if name not in attributes:
                raise self.error(f"unknown attribute '{name}'")
        for child in self.element:
            if child.tag not in children:
                raise self.error(f"unknown element <{child.tag}>")
        strays = [*([] if text else [self.element.text]), *(c.tail for c in self.element)]
        if any(stray and stray.strip() for stray in strays):
            raise self.error("unexpected text")

    def children(self, tag: str) -> Iterator[_Node]:
        for number, child in enumerate(self.element.findall(tag), 1):
            yield _Node(self.source, child, f"{self.path}/{tag}[{number}]")

    def only(self, tag: str) -> _Node | None:
        """The single child named `tag`, if any (its path has no number)."""
        found = self.element.findall(tag)
        if len(found) > 1:
            raise self.error(f"<{tag}> appears {len(found)} times; at most once is allowed")
        return _Node(self.source, found[0], f"{self.path}/{tag}") if found else None

    def text(self) -> str:
        if len(self.element):
            raise self.error(f"unexpected element <{self.element[0].tag}> in the text")
        return self.element.text or ""

    def has(self, name: str) -> bool:
        return name in self.element.attrib

    def string(self, name: str, default: str = "") -> str:
        return self.element.attrib.get(name, default)

    def integer(self, name: str, low: int | None = 0, high: int = INT64_MAX) -> int:
        """A required whole-number attribute within [low, high]."""
        if name not in self.element.attrib:
            raise self.error(f"missing attribute '{name}'")
        return _integer(self, f"attribute '{name}'", self.element.attrib[name], low, high)

    def integer_or(
        self, name: str, default: int, low: int | None = 0, high: int = INT64_MAX
    ) -> int:
        """A whole-number attribute within [low, high], `default` when it is absent."""
        return self.integer(name, low, high) if self.has(name) else default

    def maybe(self, name: str) -> int | None:
        """A non-negative whole-number attribute, None when it is absent."""
        return self.integer(name) if self.has(name) else None

    def shape_id(self, shapes: int) -> int:
        """The 'id' attribute, which must number one of the puzzle's `shapes` shapes."""
        shape = self.integer("id")
        if shape >= shapes:
            known = f"numbered 0 to {shapes - 1}" if shapes else "none"
            raise self.error(f"shape id {shape} does not exist (the puzzle's shapes: {known})")
        return shape

    def colour(self, name: str, colours: int) -> int:
        """A colour attribute written from 0 (BurrTools' pairs), returned from 1."""
        colour = self.integer(name) + 1
        if colour > colours:
            raise self.error(
                f"attribute '{name}' names colour {colour}, but the puzzle defines {colours} "
                "colours"
            )
        return colour


def _integer(node: _Node, what: str, text: str, low: int | None, high: int) -> int:
    """`text` as a whole number within [low, high]; `low` None means -high."""
    least = -high if low is None else low
    found = re.fullmatch(f"(-?)({DIGITS})", text)
    if found is None:
        raise node.error(f"{what} must be a whole number, not {_shown(text)}")
    size = whole_number(found.group(2), INT64_MAX)
    value = None if size is None else -size if found.group(1) else size
    if value is None or not least <= value <= high:
        shown = _shown(text) if value is None else str(value)
        bounds = (
            f"at least {least}"
            if low is not None and high == INT64_MAX
            else f"between {least} and {high}"
        )
        raise node.error(f"{what} is {shown}; it must be {bounds}")
    return value


def _shown(text: str) -> str:
    """`text` quoted for a message, cut short when it is long."""
    return repr(text) if len(text) <= 40 else f"{text[:40]!r}..."


class _Reader:
    """Builds a Puzzle from the checked elements."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.colours: tuple[tuple[int, int, int], ...] = ()
        self.shapes: tuple[Shape, ...] = ()

    def puzzle(self, node: _Node) -> Puzzle:
        if node.element.tag != "puzzle":
            raise node.error("the root element must be <puzzle>")
        node.expect(("version",), ("gridType", "colors", "shapes", "problems", "comment"))
        version = node.integer("version", 1, 2)
        grid = node.only("gridType")
        if grid is not None:  # BurrTools assumes cubes without one
            self.grid_type(grid)
        colours = node.only("colors")
        if colours is not None:
            self.colours = tuple(self.colour(n) for n in self._items(colours, "color"))
            if len(self.colours) > MAX_COLOUR:
                raise colours.error(f"{len(self.colours)} colours; BurrTools allows {MAX_COLOUR}")
        shapes = node.only("shapes")
        if shapes is not None:
            self.shapes = tuple(self.shape(n) for n in self._items(shapes, "voxel"))
        problems = node.only("problems")
        found = () if problems is None else tuple(self._items(problems, "problem"))
        comment = node.only("comment")
        if comment is not None:
            comment.expect(("popup",), text=True)
        return Puzzle(
            shapes=self.shapes,
            problems=tuple(self.problem(n) for n in found),
            colours=self.colours,
            comment="" if comment is None else comment.text(),
            comment_popup=comment is not None and comment.has("popup"),
            version=version,
        )

    @staticmethod
    def _items(node: _Node, tag: str) -> Iterator[_Node]:
        node.expect((), (tag,))
        return node.children(tag)

    def grid_type(self, node: _Node) -> None:
        node.expect(("type",))
        grid = node.integer("type")
        if grid != CUBE_GRID:
            name = GRID_NAMES.get(grid, "unknown to BurrTools")
            raise node.error(
                f"grid type {grid} ({name}) is not supported: slidelab reads the cube grid "
                f"(type {CUBE_GRID}) only"
            )

    def colour(self, node: _Node) -> tuple[int, int, int]:
        node.expect(("red", "green", "blue"))
        red, green, blue = (node.integer(name, 0, 255) for name in ("red", "green", "blue"))
        return (red, green, blue)

    def shape(self, node: _Node) -> Shape:
        node.expect(("x", "y", "z", "type", "hx", "hy", "hz", "weight", "name"), text=True)
        size = (node.integer("x"), node.integer("y"), node.integer("z"))
        kind = node.integer("type")
        if kind != 0:
            raise node.error(f"voxel type {kind} is unknown (BurrTools writes type 0 only)")
        voxels = parse_voxels(node.text(), size, self.source, node.path)
        for voxel in voxels:
            if voxel.colour > len(self.colours):
                raise node.error(
                    f"voxel {voxel.cell} has colour {voxel.colour}, but the puzzle defines "
                    f"{len(self.colours)} colours"
                )
        return Shape(
            size=size,
            voxels=voxels,
            name=node.string("name"),
            weight=node.integer_or("weight", 1, None),
            hotspot=(
                node.integer_or("hx", 0, None),
                node.integer_or("hy", 0, None),
                node.integer_or("hz", 0, None),
            ),
        )

    def problem(self, node: _Node) -> BurrProblem:
        node.expect(
            ("name", "state", "assemblies", "solutions", "time", "maxHoles"),
            ("shapes", "result", "bitmap", "solutions", "assembler"),
        )
        state = node.integer_or("state", UNSOLVED, 0, SOLVED)
        for name in ("assemblies", "solutions", "time"):
            if node.has(name) and state == UNSOLVED:
                raise node.error(f"attribute '{name}' is given but the problem is unsolved")
        parts_node = node.only("shapes")
        parts = () if parts_node is None else self.parts(parts_node)
        result_node = node.only("result")
        result = None
        if result_node is not None:
            result_node.expect(("id",))
            result = result_node.shape_id(len(self.shapes))
        bitmap = node.only("bitmap")
        search = node.only("assembler")
        if search is not None and state != SOLVING:
            raise search.error("a saved search belongs only to a problem being solved (state 1)")
        stored = node.only("solutions")
        problem = BurrProblem(
            name=node.string("name"),
            parts=parts,
            result=result,
            allowed_colours=() if bitmap is None else self.colour_pairs(bitmap),
            max_holes=node.maybe("maxHoles"),
            state=state,
            assemblies=node.maybe("assemblies"),
            solutions=node.maybe("solutions"),
            time=node.maybe("time"),
            saved_search=None if search is None else self.saved_search(search),
        )
        if stored is None:
            return problem
        return replace(problem, stored=self.solutions(stored, problem.piece_count))

    def parts(self, node: _Node) -> tuple[Part, ...]:
        parts: list[Part] = []
        for part in self._items(node, "shape"):
            part.expect(("id", "count", "min", "max", "group"), ("group",))
            shape = part.shape_id(len(self.shapes))
            if any(p.shape == shape for p in parts):
                raise part.error(f"shape {shape} is already a part of this problem")
            if part.has("count"):
                if part.has("min") or part.has("max"):
                    raise part.error("give either 'count' or 'min' and 'max', not both")
                low = high = part.integer("count", 1, MAX_BOUND)
            elif part.has("min") or part.has("max"):
                low, high = part.integer("min", 0, MAX_BOUND), part.integer("max", 1, MAX_BOUND)
                if low > high:
                    raise part.error(f"'min' ({low}) is above 'max' ({high})")
            else:
                low = high = 1  # BurrTools' default
            group = part.integer_or("group", 0)
            nested = [self.group(g) for g in part.children("group")]
            if group and nested:
                raise part.error("give either a 'group' attribute or <group> elements, not both")
            parts.append(
                Part(shape, low, high, ((Group(group, high),) if group else tuple(nested)))
            )
        return tuple(parts)

    @staticmethod
    def group(node: _Node) -> Group:
        node.expect(("group", "count"))
        return Group(node.integer("group", 1), node.integer("count", 1, MAX_BOUND))

    def colour_pairs(self, node: _Node) -> tuple[tuple[int, int], ...]:
        pairs = set()
        for pair in self._items(node, "pair"):
            pair.expect(("piece", "result"))
            colours = len(self.colours)
            pairs.add((pair.colour("piece", colours), pair.colour("result", colours)))
        return tuple(sorted(pairs))

    def solutions(self, node: _Node, pieces: int) -> tuple[Solution, ...]:
        found = []
        for solution in self._items(node, "solution"):
            solution.expect(("asmNum", "solNum"), ("assembly", "separation", "separationInfo"))
            assembly = solution.only("assembly")
            if assembly is None:
                raise solution.error("missing element <assembly>")
            assembly.expect((), text=True)
            trees = [*solution.children("separation"), *solution.children("separationInfo")]
            if len(trees) > 1:
                raise solution.error("more than one disassembly")
            found.append(
                Solution(
                    assembly=_positions(assembly, pieces),
                    assembly_number=solution.maybe("asmNum"),
                    solution_number=solution.maybe("solNum"),
                    disassembly=_compact_xml(trees[0]) if trees else None,
                )
            )
        return tuple(found)

    @staticmethod
    def saved_search(node: _Node) -> SavedSearch:
        node.expect(("version",), text=True)
        if not node.has("version"):
            raise node.error("missing attribute 'version'")
        return SavedSearch(node.string("version"), node.text())


def _positions(node: _Node, pieces: int) -> tuple[Position | None, ...]:
    """A stored assembly: 'x y z orientation' per piece, or 'x' for a piece not used."""
    words = iter(node.text().split())
    found: list[Position | None] = []
    for word in words:
        if word == "x":
            found.append(None)
            continue
        what = f"piece {len(found) + 1}"
        numbers = [word, *islice(words, 3)]
        if len(numbers) < 4:
            raise node.error(f"{what} has {len(numbers)} numbers; a placed piece has 4")
        x, y, z = (_integer(node, what, n, None, INT64_MAX) for n in numbers[:3])
        turn = _integer(node, f"the orientation of {what}", numbers[3], 0, ROTATIONS - 1)
        found.append(Position(x, y, z, turn))
    if len(found) != pieces:
        raise node.error(f"the assembly places {len(found)} pieces; the problem has {pieces}")
    return tuple(found)


def _compact_xml(node: _Node) -> str:
    """The node's element as XML text without the blanks that only indent it.

    The blanks are cut from the reader's own tree (nothing else holds it), after
    checking its depth: the serializer recurses once per level."""
    element = node.element
    levels = [(element, 1)]
    while levels:
        item, depth = levels.pop()
        if depth > MAX_DEPTH:
            raise node.error(f"the disassembly is nested more than {MAX_DEPTH} levels deep")
        if item.text is not None and not item.text.strip():
            item.text = None
        if item.tail is not None and not item.tail.strip():
            item.tail = None
        levels += [(child, depth + 1) for child in item]
    element.tail = None
    return ElementTree.tostring(element, encoding="unicode")
