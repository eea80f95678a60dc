"""`slidelab slide`: output forms, JSON fields and exit statuses."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from slidelab.cli import main
from slidelab.library import shipped_text
from slidelab.parallel import run
from slidelab.sliding import command
from slidelab.sliding.reference import reference_hardest, reference_to_goal
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import format_configuration, parse_puzzle
from tests.sliding.figures import SILLY, SILLY_LAYERS, SILLY_MOVES
from tests.sliding.test_hardest import CARS, WIDE_FOUR
from tests.sliding.test_search import single_blank


@pytest.fixture
def silly(tmp_path):
    path = tmp_path / "silly.slide"
    path.write_text(SILLY)
    return str(path)


def run_json(capsys, *args: str) -> tuple[int, dict]:
    status = main(["slide", *args, "--json"])
    return status, json.loads(capsys.readouterr().out)


def test_json_solution_has_the_promised_fields(capsys, silly):
    status, result = run_json(capsys, silly, "--style", "2")
    assert status == 0
    assert result["style"] == 2
    assert result["moves"] == 4
    assert result["layers"] == [1, 29, 184, 541, 326]
    assert result["states"] == sum(result["layers"])
    assert result["path"][0] == "1xx200000000033"
    assert result["path"][-1] == "000xx00033001002"
    assert len(result["path"]) == 5


def test_json_analysis_has_the_promised_fields(capsys, silly):
    status, result = run_json(capsys, silly, "--style", "5", "--analyze")
    assert status == 0
    assert result["layers"] == list(SILLY_LAYERS[5])
    assert result["reachable"] == sum(SILLY_LAYERS[5])
    assert (result["farthest_distance"], result["farthest_count"]) == (6, 23)
    assert len(result["farthest_examples"]) == 5
    assert result["goal_count"] == 1


def test_all_styles_prints_one_line_per_style(capsys, silly):
    assert main(["slide", silly, "--all-styles"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [f"style {s}" for s in range(6)]
    assert [int(line.split()[2]) for line in lines] == list(SILLY_MOVES)


def test_readable_solution_shows_boards(capsys, silly):
    assert main(["slide", silly, "--style", "5"]) == 0
    out = capsys.readouterr().out
    assert "style 5: 2 moves (165 configurations explored)" in out
    assert "Move 1: 3+3 right 3, then up 3\n" in out
    assert "Move 2: 1+2 down 2, then right 2\n" in out
    assert "  1-1-1 x x\n    |\n  2 1 2 . .\n" in out


def test_moves_are_named_by_piece_direction_and_distance(capsys, silly):
    assert main(["slide", silly, "--style", "2"]) == 0
    moves = [line for line in capsys.readouterr().out.splitlines() if line.startswith("Move")]
    assert moves == [
        "Move 1: 2 down 1, then right 2, then down 1",
        "Move 2: 1 down 1, then right 2, then down 1",
        "Move 3: 3 up 3, then right 4",
        "Move 4: 3 up 3, then right 2",
    ]
    assert main(["slide", silly, "--style", "0"]) == 0
    out = capsys.readouterr().out
    assert "Move 1: 2 down 1\n" in out and "Move 2: 2 right 1\n" in out


def test_unreachable_exits_with_1(capsys, tmp_path):
    path = tmp_path / "stuck.slide"
    path.write_text("1 x 3\n1 = 1\n2 = 1\n12\n021\n")
    status, result = run_json(capsys, str(path))
    assert (status, result["moves"], result["path"]) == (1, None, [])


def test_state_limit_exits_with_3(capsys, silly):
    status, result = run_json(capsys, silly, "--max-states", "100")
    assert status == 3
    assert result["limit"].startswith("stopped at distance")


def test_bad_input_gives_file_line_column_and_status_2_without_traceback(tmp_path):
    path = tmp_path / "bad.slide"
    path.write_text("2 x 2\n1 = 1\n1q\n01\n")
    done = subprocess.run(
        [sys.executable, "-m", "slidelab", "slide", str(path)], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == f"{path}:3:2: unexpected character 'q' in the start line\n"


def test_missing_file_is_reported_plainly(capsys, tmp_path):
    assert main(["slide", str(tmp_path / "nope.slide")]) == 2
    assert capsys.readouterr().err == (
        f"slidelab: {tmp_path / 'nope.slide'}: cannot read: No such file or directory\n"
    )


def test_help_lists_the_slide_command(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    assert "slide" in capsys.readouterr().out


def test_jobs_gives_the_same_json_on_any_number_of_threads(capsys, silly):
    outputs = [run_json(capsys, silly, "--analyze", "--style", "3", "--jobs", n) for n in "123"]
    assert outputs[0] == outputs[1] == outputs[2]
    assert outputs[0][1]["layers"] == list(SILLY_LAYERS[3])


def test_jobs_below_one_is_refused(capsys, silly):
    assert main(["slide", silly, "--jobs", "0"]) == 2
    assert capsys.readouterr().err == "slidelab: --jobs must be at least 1\n"


def test_memory_limit_exits_with_3_naming_the_option(capsys, tmp_path):
    path = tmp_path / "fifteen.slide"
    path.write_text(single_blank(3, 4))
    status, result = run_json(capsys, str(path), "--analyze", "--max-memory", "1M", "--jobs", "1")
    assert status == 3
    assert "would pass the limit set by --max-memory (1.0 MiB)" in result["limit"]


@pytest.mark.parametrize(
    ("size", "message"),
    [
        ("2X", "slidelab: --max-memory takes a size such as 2G or 512M, not '2X'\n"),
        ("100K", "slidelab: --max-memory must be at least 1M, not '100K'\n"),
    ],
)
def test_bad_memory_sizes_are_refused(capsys, silly, size, message):
    assert main(["slide", silly, "--max-memory", size]) == 2
    assert capsys.readouterr().err == message


def test_json_distances_to_the_goal_have_the_promised_fields(capsys, silly):
    status, result = run_json(capsys, silly, "--style", "3", "--to-goal")
    distance, solutions, layers, cannot_reach = reference_to_goal(
        parse_puzzle(SILLY), MoveStyle.SUPER_STEP
    )
    assert status == 0
    assert result["start_distance"] == SILLY_MOVES[3] == distance
    assert result["optimal_solutions"] == solutions
    assert result["to_goal_layers"] == list(layers)
    assert result["cannot_reach"] == cannot_reach == 0
    assert result["reachable"] == sum(SILLY_LAYERS[3])


def test_distances_to_an_unreachable_goal_exit_with_1(capsys, tmp_path):
    path = tmp_path / "stuck.slide"
    path.write_text("1 x 3\n1 = 1\n2 = 1\n12\n021\n")
    status, result = run_json(capsys, str(path), "--to-goal")
    assert status == 1
    assert (result["start_distance"], result["optimal_solutions"]) == (None, 0)
    assert (result["to_goal_layers"], result["cannot_reach"], result["reachable"]) == ([], 3, 3)
    assert main(["slide", str(path), "--to-goal"]) == 1
    assert "style 0: the goal cannot be reached (3 reachable, none meets the goal)\n" in (
        capsys.readouterr().out
    )


def test_distances_stopped_by_a_limit_exit_with_3(capsys, silly):
    status, result = run_json(capsys, silly, "--to-goal", "--max-states", "100")
    assert status == 3
    assert result["start_distance"] is None
    assert result["limit"].startswith("stopped at distance")


def test_readable_distances_name_the_start_and_the_histogram(capsys, tmp_path):
    path = tmp_path / "rush.slide"
    path.write_text(shipped_text("sliding", "rush-hour-hardest.slide"))
    assert main(["slide", str(path), "--style", "1", "--to-goal"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == (
        "style 1: the start is 51 moves from the goal, 127,484,544 shortest solutions "
        "(4,780 reachable, 0 cannot reach the goal)"
    )
    counts = [int(n) for n in lines[2].split(":")[1].split()]
    assert (len(counts), sum(counts), counts[0], counts[-1]) == (52, 4780, 199, 3)


def test_analyze_and_to_goal_do_not_mix(capsys, silly):
    with pytest.raises(SystemExit) as stopped:
        main(["slide", silly, "--analyze", "--to-goal"])
    assert stopped.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_json_hardest_starts_have_the_promised_fields(capsys, silly):
    status, result = run_json(capsys, silly, "--style", "1", "--hardest")
    farthest, hardest, components, placements = reference_hardest(
        parse_puzzle(SILLY), MoveStyle.SLIDE
    )
    assert status == 0
    assert (result["placements"], result["components"]) == (placements, components)
    assert (result["hardest_distance"], result["hardest_count"]) == (farthest, len(hardest))
    assert result["can_reach"] == sum(SILLY_LAYERS[1])  # one component holds the goal
    assert len(result["hardest"]) == len(hardest)
    puzzle = parse_puzzle(SILLY)
    assert set(result["hardest"]) == {
        format_configuration(puzzle, config.placements) for config in hardest
    }


def test_hardest_when_no_placement_meets_the_goal_exits_with_1(capsys, tmp_path):
    path = tmp_path / "full.slide"
    path.write_text("1 x 3 full\n1 = 1\n2 = 11\n12\n*1*\n")
    status, result = run_json(capsys, str(path), "--hardest")
    assert status == 1
    assert (result["placements"], result["components"], result["can_reach"]) == (2, 2, 0)
    assert (result["hardest_distance"], result["hardest"]) == (None, [])
    assert main(["slide", str(path), "--hardest"]) == 1
    assert "style 0: 2 placements in 2 components, 0 can reach the goal\n" in (
        capsys.readouterr().out
    )


def test_hardest_takes_a_memory_limit_and_stops_at_a_part_that_passes_it(capsys, tmp_path):
    path = tmp_path / "wide.slide"
    path.write_text(WIDE_FOUR)
    status, result = run_json(capsys, str(path), "--hardest", "--max-memory", "64M", "--jobs", "1")
    assert status == 3
    assert result == {
        "style": 0,
        "placements": None,  # a stopped run decides nothing
        "components": None,
        "can_reach": None,
        "hardest_distance": None,
        "hardest_count": None,
        "hardest": [],
        "limit": "stopped: a part of the placements that moves cannot leave needs at least "
        "68.1 MiB to search, more than the limit set by --max-memory (64.0 MiB)",
    }


def hardest_runs(capsys, monkeypatch, path: str, *args: str) -> list[tuple[int, str, str]]:
    """Status, output and errors of `--hardest` with `args` on one process, two, and one
    with a journal, every part a subproblem of its own."""
    monkeypatch.setattr(run, "ROOT_NODES", 100)
    runs = []
    for split in (["--jobs", "1"], ["--jobs", "2"], ["--jobs", "1", "--journal", path + ".j"]):
        status = main(["slide", path, "--hardest", "--style", "1", *args, *split])
        runs.append((status, *capsys.readouterr()))
    return runs


@pytest.mark.parametrize(
    ("limit", "status", "line"),
    [
        (
            "117",  # the biggest of CARS's 64 parts, which hold 3,456 placements in all
            0,
            "style 1: 3,456 placements in 60 components, 774 can reach the goal; the hardest "
            "are 5 moves from it (2 placements)",
        ),
        (
            "116",
            3,
            "style 1: stopped: a part of the placements that moves cannot leave holds more "
            "than 116, the limit set by --max-states for each part",
        ),
    ],
)
def test_hardest_max_states_bounds_each_part_for_every_jobs(
    capsys, monkeypatch, tmp_path, limit, status, line
):
    path = tmp_path / "cars.slide"
    path.write_text(CARS)
    runs = hardest_runs(capsys, monkeypatch, str(path), "--max-states", limit)
    assert runs[0] == runs[1] == runs[2]
    assert (runs[0][0], runs[0][1].splitlines()[1], runs[0][2]) == (status, line, "")


def test_hardest_all_styles_keeps_a_journal_per_style(capsys, tmp_path):
    path = tmp_path / "five.slide"
    path.write_text(shipped_text("sliding", "five-puzzle-2x3.slide"))
    journal = tmp_path / "five.journal"
    command = ["slide", str(path), "--all-styles", "--hardest", "--journal", str(journal)]
    assert main(command) == 0
    first = capsys.readouterr()
    assert first.out.splitlines()[0] == (
        "style 0: 720 placements in 2 components, 360 can reach the goal; the hardest are "
        "21 moves from it (1 placement)"
    )
    assert first.err == ""
    assert sorted(p.name for p in tmp_path.glob("five.journal*")) == [
        f"five.journal.style{s}" for s in range(6)
    ]
    assert main(command) == 0  # resumed: each style from its own journal
    assert capsys.readouterr() == first


@pytest.mark.parametrize(
    "command",
    [
        ["slide", "{silly}", "--hardest"],
        ["dlx", "p.dlx", "--count"],
        ["antislide", "4", "4", "4"],
        ["dissect", "3", "toy.dots"],
        ["polycube", "soma.pcube"],
    ],
)
def test_an_empty_journal_name_is_refused_by_every_command(capsys, silly, command):
    """An empty name was taken for no journal: the run went unrecorded without a word."""
    with pytest.raises(SystemExit) as stopped:
        main([*(part.format(silly=silly) for part in command), "--journal", ""])
    assert stopped.value.code == 2
    assert "argument --journal: needs the name of a file" in capsys.readouterr().err


@pytest.mark.parametrize("what", [[], ["--hardest"], ["--analyze"]])
def test_all_styles_refuses_a_style_it_cannot_run_before_running_any(
    capsys, monkeypatch, tmp_path, what
):
    def searched(*args: object, **kwargs: object) -> None:
        raise AssertionError("a style was searched")

    for name in ("solve", "analyze", "hardest_starts"):
        monkeypatch.setattr(command, name, searched)
    path = tmp_path / "many.slide"
    path.write_text("8 x 9 many\n1 = 1\n" + "1" * 64 + "\n0" + "1" * 64 + "\n")
    assert main(["slide", str(path), "--all-styles", *what]) == 2
    assert capsys.readouterr().err == (
        "slidelab: styles 3-5 handle at most 63 pieces; this puzzle has 64\n"
    )
