"""Numbers with their nouns: singular for one, separators for thousands."""

from __future__ import annotations

from slidelab.cli import main
from slidelab.wording import numbered


def test_numbered_nouns():
    assert numbered(1, "solution") == "1 solution"
    assert numbered(0, "node") == "0 nodes"
    assert numbered(11520, "solution") == "11,520 solutions"
    assert numbered(48, "symmetry", "symmetries") == "48 symmetries"
    assert numbered(1, "symmetry", "symmetries") == "1 symmetry"


def test_a_box_of_one_domino_is_said_in_the_singular(tmp_path, capsys):
    """It printed "1 solutions, 1 distinct up to the box's 1 symmetries"."""
    spec = tmp_path / "domino.pcube"
    spec.write_text("[0-1][0-0][0-0]\nA 000 100\n")
    assert main(["polycube", str(spec), "--count", "--distinct"]) == 0
    assert capsys.readouterr().out == (
        "1 solution, 1 distinct up to the box's 1 symmetry (rotations and reflections)\n"
    )


def test_a_one_move_puzzle_is_said_in_the_singular(tmp_path, capsys):
    """It printed "style 0: 1 moves (2 configurations explored)"."""
    puzzle = tmp_path / "one.slide"
    puzzle.write_text("1 x 2\n1 = 1\n10\n01\n")
    assert main(["slide", str(puzzle)]) == 0
    assert "style 0: 1 move (2 configurations explored)\n" in capsys.readouterr().out
