"""The family registry: the command line, format detection and the library loop over it."""

from __future__ import annotations

import argparse
import gzip
import json

import pytest

from slidelab import cli, formats, library, registry
from slidelab.family import Family, Library, SubParsers, TextSignature
from tests.fresh import printed_by

SUBCOMMANDS = ["slide", "dlx", "antislide", "polycube", "dissect"]


def _fake_cli(subcommands: SubParsers) -> None:
    parser = subcommands.add_parser("fake", help="a family added in a test")
    parser.add_argument("size", type=int)
    parser.set_defaults(run=lambda args: 40 + args.size)


FAKE = Family(
    name="fake",
    title="Fake",
    subcommand="fake",
    register_cli=_fake_cli,
    extensions=(".fake",),
    recognises_file=lambda path: path.endswith(".fakebin"),
    signature=TextSignature(lambda text: text.startswith("FAKE"), rank=0, expected="a fake"),
    library=Library("fake", ".fake"),
)


@pytest.fixture
def with_fake(monkeypatch):
    monkeypatch.setattr(registry, "FAMILIES", (*registry.FAMILIES, FAKE))


def subcommand_names(parser: argparse.ArgumentParser) -> list[str]:
    (action,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(action.choices)


def test_the_registry_lists_every_family_once_in_command_line_order():
    names = [family.name for family in registry.FAMILIES]
    assert names == [
        "sliding", "exactcover", "antislide", "polycube", "dissection", "disassembly", "burrtools"
    ]  # fmt: skip
    assert registry.subcommands() == SUBCOMMANDS
    assert subcommand_names(cli.build_parser()) == SUBCOMMANDS
    assert registry.family_named("burrtools").subcommand == "polycube"
    with pytest.raises(registry.UnknownFamilyError, match="no puzzle family 'chess'"):
        registry.family_named("chess")


def test_burrtools_extends_the_polycube_subcommand():
    parser = cli.build_parser("polycube")
    assert subcommand_names(parser) == ["polycube"]
    args = parser.parse_args(["polycube", "x.xmpuzzle", "--problem", "2"])
    assert args.problem == "2" and args.export_xmpuzzle is None


def test_a_subcommand_loads_no_other_familys_kernels():
    code = (
        "import sys\nfrom slidelab import cli\ncli.build_parser('antislide')\n"
        "print(sorted(m for m in sys.modules if m.endswith('.kernels')"
        " and m != 'slidelab.kernels'))"
    )
    assert printed_by(code) == ["['slidelab.antislide.kernels']"]


def test_an_added_family_gets_its_subcommand_without_other_edits(with_fake, capsys):
    assert registry.subcommands() == [*SUBCOMMANDS, "fake"]
    assert subcommand_names(cli.build_parser()) == [*SUBCOMMANDS, "fake"]
    assert cli.main(["fake", "2"]) == 42
    with pytest.raises(SystemExit):  # a subcommand, not a file for the desktop app
        cli.main(["fake"])
    assert "the following arguments are required: size" in capsys.readouterr().err


def test_an_added_family_is_detected_without_other_edits(with_fake, tmp_path):
    assert formats.detect_family("a.fake", "") == "fake"
    assert formats.detect_family("a.txt", "FAKE\n# brick 2x2x1\n") == "fake"
    binary = tmp_path / "p.fakebin"
    binary.write_bytes(b"\x00\x01")
    assert formats.family_of_file(str(binary)) == "fake"
    with pytest.raises(formats.UnknownFormatError, match=r"'\.' and '\*'; or a fake\)$"):
        formats.detect_family("b.txt", "hello\n")


def test_burrtools_files_are_recognised_by_their_gzip_stream_whatever_their_name(tmp_path):
    packed = tmp_path / "puzzle.slide"
    packed.write_bytes(gzip.compress(b"<puzzle/>"))
    assert formats.family_of_file(str(packed)) == "burrtools"
    assert formats.detect_family("soma.xmpuzzle", "") == "burrtools"
    spec = tmp_path / "soma.txt"
    spec.write_text("| Soma\n[0-2][0-2][0-2]\nV 000 100 010\n")
    assert formats.family_of_file(str(spec)) == "polycube"


def test_the_content_signatures_are_tried_in_rank_order():
    # a '# brick' line wins over a 'ROWS x COLUMNS' first line, as it always did
    assert formats.detect_family("a.txt", "3 x 3\n# brick 2x2x1\n") == "antislide"
    assert formats.detect_family("a.txt", "..*\n") == "dissection"


def test_one_library_loader_serves_every_family():
    assert "klotski.slide" in library.shipped_names("sliding")
    assert library.shipped_names("antislide") == [
        "3x3x3-six-blocks.antislide",
        "4x4x4-twelve-blocks.antislide",
    ]
    assert library.shipped_text("dissection", "knuth-toy.dots").count("*") > 0
    assert library.load_shipped("polycube", "soma.pcube", lambda text, source: source) == (
        "library:soma.pcube"
    )
    with pytest.raises(library.NoLibraryError, match="exactcover family ships no puzzles"):
        library.shipped_names("exactcover")


def test_slidelab_polycube_hands_burrtools_files_to_burrtools_whatever_their_name(tmp_path, capsys):
    spec = tmp_path / "domino.pcube"
    spec.write_text("[0-2]00\nD 000 100\nU 000\n")
    exported = tmp_path / "domino.xmpuzzle"
    assert cli.main(["polycube", str(spec), "--export-xmpuzzle", str(exported)]) == 0
    renamed = tmp_path / "domino.dat"
    renamed.write_bytes(exported.read_bytes())
    assert cli.main(["polycube", str(renamed), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["problem"], result["solutions"]) == ("domino", 2)
    assert cli.main(["polycube", str(spec), "--json"]) == 0
    assert "problem" not in json.loads(capsys.readouterr().out)
