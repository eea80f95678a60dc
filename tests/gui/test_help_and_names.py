"""The Help menu's guide, shortcuts and About; library puzzles shown under their titles."""

from __future__ import annotations

import re

from PySide6.QtCore import QUrl
from PySide6.QtGui import QImage, QTextDocument
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu, QToolBar, QToolButton

import slidelab
from slidelab.gui.help.about import AboutDialog
from slidelab.gui.help.guide import guide_folder
from slidelab.gui.help.shortcuts import ShortcutsDialog
from tests.gui.mouse import LEFT


def menu_action(window, menu_title: str, text: str):
    """The action `text` of the menu bar's menu `menu_title` (accelerators ignored)."""
    for top in window.menuBar().actions():
        if top.text().replace("&", "") == menu_title:
            menu = top.menu()
            assert isinstance(menu, QMenu)
            for action in menu.actions():
                if action.text().replace("&", "") == text:
                    return action
    raise AssertionError(f"no {menu_title} / {text}")


def open_dialog(qtbot, window, text: str, kind):
    menu_action(window, "Help", text).trigger()
    qtbot.waitUntil(lambda: any(isinstance(w, kind) for w in QApplication.topLevelWidgets()))
    dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, kind))
    assert dialog.isVisible() and not dialog.isModal()
    return dialog


def test_the_user_guide_opens_with_its_pictures(window, qtbot):
    menu_action(window, "Help", "User Guide").trigger()
    guide = window.guide
    assert guide is not None and guide.isVisible()
    document = guide.browser.document()
    assert "Sliding blocks" in document.toPlainText()
    pictures = [
        "sliding.png", "antislide.png", "polycube.png", "take-apart.png", "disassembly.png",
        "dissection.png",
    ]  # fmt: skip
    html = document.toHtml()
    assert re.findall(r'<img src="([^"]+)"', html) == pictures  # in the guide's order
    shipped = [entry.name for entry in guide_folder().iterdir() if entry.name.endswith(".png")]
    assert sorted(shipped) == sorted(pictures)  # none missing, none left over
    for name in pictures:
        image = document.resource(QTextDocument.ResourceType.ImageResource, QUrl(name))
        assert isinstance(image, QImage) and not image.isNull() and image.width() > 100
    guide.close()


def test_the_shortcuts_dialog_lists_the_actions_own_keys(window, qtbot):
    dialog = open_dialog(qtbot, window, "Keyboard Shortcuts", ShortcutsDialog)
    table = dialog.table
    rows = {
        (table.item(r, 0).text(), table.item(r, 1).text()): table.item(r, 2).text()
        for r in range(table.rowCount())
    }
    save = menu_action(window, "File", "Save")
    assert rows[("File", "Save")] == save.shortcut().toString(
        save.shortcut().SequenceFormat.NativeText
    )
    assert ("Edit", "Undo") in rows
    assert ("Help", "User Guide") in rows
    dialog.close()


def test_about_names_the_version_and_the_libraries_licences(window, qtbot):
    dialog = open_dialog(qtbot, window, "About slidelab", AboutDialog)
    text = dialog.text.text()
    assert f"slidelab {slidelab.__version__}" in text
    for library in ("PySide6-Essentials", "numpy", "numba", "pyqtgraph"):
        assert library in text
    assert "BSD" in text and "LGPL" in text
    dialog.close()


def test_a_library_puzzle_opens_under_its_title_and_save_still_asks(window, qtbot, monkeypatch):
    bench = window.by_family["polycube"]
    title = bench.library_titles()["soma.pcube"]
    shelf = menu_action(window, "Puzzles", bench.title).menu()
    next(a for a in shelf.actions() if a.text() == title).trigger()
    assert window.workbench is bench
    assert window.windowTitle().startswith(title)
    asked: list[str] = []

    def ask(*args, **kwargs):
        asked.append(args[2])
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", ask)
    window.save()
    assert asked == [bench.default_name]
    window.new_document()
    assert window.windowTitle().startswith("untitled")


def test_the_start_up_klotski_shows_its_title(qtbot, tmp_path, monkeypatch):
    from PySide6.QtCore import QSettings

    from slidelab.gui import app, main_window

    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    monkeypatch.setattr(main_window, "QSettings", lambda *_args: settings)
    window = app.open_main_window()
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=120_000)
    title = window.by_family["sliding"].library_titles()["klotski.slide"]
    assert "Klotski" in title
    assert window.windowTitle().startswith(title)


def test_no_toolbar_overflows_in_any_tab_at_1024_by_700(window, qtbot):
    window.resize(1024, 700)
    checked = 0
    for workbench in window.workbenches:
        bar = window.tabs.tabBar()
        qtbot.mouseClick(bar, LEFT, pos=bar.tabRect(window.tabs.indexOf(workbench)).center())
        qtbot.wait(50)
        for toolbar in workbench.findChildren(QToolBar):
            if toolbar.isVisible():
                arrow = toolbar.findChild(QToolButton, "qt_toolbar_ext_button")
                assert arrow is None or not arrow.isVisible(), workbench.title
                checked += 1
    assert checked >= 4  # two rows above each 3D view


def test_the_kind_names_notation_is_explained_where_it_is_shown(window):
    bench = window.by_family["sliding"]
    window.open_library(bench, "klotski.slide")
    shown = [bench.kind_choice.itemText(i) for i in range(bench.kind_choice.count())]
    assert "kind 1 (11/11)" in shown
    tip = bench.kind_choice.toolTip()
    assert "Knuth's shorthand" in tip and "11/11 is a 2x2 square" in tip
