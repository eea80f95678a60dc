"""The libraries and licences About lists."""

from __future__ import annotations

from email.message import Message
from importlib import metadata

from slidelab.credits import LIBRARIES, Credit, credit, credits


def test_every_library_is_listed_with_its_installed_version_and_a_licence():
    listed = credits()
    assert [c.name for c in listed] == list(LIBRARIES)
    for each in listed:
        assert each.version == metadata.version(each.name)
        assert each.licence


def fake_metadata(monkeypatch, fields: list[tuple[str, str]]) -> None:
    info = Message()
    for key, value in [("Version", "1.2"), *fields]:
        info[key] = value
    monkeypatch.setattr(metadata, "metadata", lambda _name: info)


def test_a_licence_is_read_from_the_expression_the_licence_field_or_the_classifiers(
    monkeypatch,
):
    fake_metadata(monkeypatch, [("License-Expression", "MIT"), ("License", "BSD")])
    assert credit("x") == Credit("x", "1.2", "MIT")
    fake_metadata(monkeypatch, [("License", "BSD")])
    assert credit("x").licence == "BSD"
    fake_metadata(monkeypatch, [("License", "Long text\n" + "x" * 100)])
    assert credit("x").licence == "Long text"
    fake_metadata(monkeypatch, [("License", "x" * 100)])
    assert credit("x").licence == "see its documentation"
    classifier = "License :: OSI Approved :: BSD License"
    fake_metadata(monkeypatch, [("Classifier", "Topic :: Games"), ("Classifier", classifier)])
    assert credit("x").licence == "BSD License"


def test_a_missing_library_says_so():
    assert credit("no-such-distribution-here").version == "not installed"
