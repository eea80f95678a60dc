"""The main window builds its tabs from the workbench registry."""

from __future__ import annotations

from slidelab import registry
from slidelab.gui.workbenches import WORKBENCHES


def test_every_family_with_files_has_a_workbench():
    with_files = {
        family.name
        for family in registry.FAMILIES
        if family.extensions or family.signature or family.recognises_file
    }
    assert with_files == set(WORKBENCHES)


def test_one_tab_per_workbench_and_burrtools_files_open_in_the_polycube_tab(window):
    titles = [window.tabs.tabText(k) for k in range(window.tabs.count())]
    assert titles == ["Sliding blocks", "Antislide", "Polycube", "Dissection"]
    assert window.workbenches == [window.tabs.widget(k) for k in range(window.tabs.count())]
    assert window.by_family["burrtools"] is window.by_family["polycube"]
    assert {name: bench.family for name, bench in window.by_family.items()} == {
        "sliding": "sliding",
        "antislide": "antislide",
        "polycube": "polycube",
        "burrtools": "polycube",
        "dissection": "dissection",
    }
