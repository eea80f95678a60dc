"""A Dask cluster on loopback gives the counts and listings of a run on one process."""

from __future__ import annotations

import contextlib
import socket
import threading

import pytest

from slidelab.cli import main
from slidelab.disassembly import batch, split
from slidelab.errors import SlidelabError
from slidelab.exactcover.split import search_split
from slidelab.parallel import run
from slidelab.parallel.run import ClusterError
from slidelab.runs import Progress, drive
from tests.burrtools.conftest import EXAMPLES
from tests.exactcover.problems import queens
from tests.sliding.test_hardest import CARS

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    ) as local:
        yield local


def test_the_cluster_lists_what_one_process_lists(cluster, monkeypatch):
    monkeypatch.setattr(run, "ROOT_NODES", 20)
    monkeypatch.setattr(run, "PROBE_NODES", 10)
    here = drive(search_split(queens(8), listing=True))
    there = drive(search_split(queens(8), listing=True, scheduler=cluster.scheduler_address))
    assert there.count == here.count == 92
    assert there.solutions == here.solutions and there.subproblems == here.subproblems > 8


def test_a_run_survives_the_workers_restarting(cluster, monkeypatch):
    monkeypatch.setattr(run, "ROOT_NODES", 20)
    monkeypatch.setattr(run, "PROBE_NODES", 10)
    restarts = []

    def restart_once(event: Progress) -> None:
        if event.phase.endswith("subproblems done") and not restarts:
            with distributed.Client(cluster.scheduler_address, set_as_default=False) as other:
                other.restart()
            restarts.append(event.found)

    outcome = drive(
        search_split(queens(9), scheduler=cluster.scheduler_address), on_progress=restart_once
    )
    assert restarts and outcome.count == 352


def test_the_command_line_counts_on_the_cluster(cluster, capsys):
    spec = "resources/puzzles/polycube/solid-pentominoes-2x3x10.pcube"
    assert main(["polycube", spec, "--count", "--scheduler", cluster.scheduler_address]) == 0
    assert capsys.readouterr().out == "96\n"


def test_an_unreachable_scheduler_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(run, "ROOT_NODES", 20)
    monkeypatch.setattr(run, "CONNECT_SECONDS", 1)
    with pytest.raises(
        ClusterError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:9"
    ):
        drive(search_split(queens(8), scheduler="tcp://127.0.0.1:9"))


def test_an_address_dask_cannot_use_is_a_clear_error_not_a_traceback(monkeypatch):
    """Dask raised ValueError for a malformed address as it connected, after the search began;
    one it still cannot use is reported as one it cannot reach."""

    def refused(address: str, **_options: object) -> None:
        raise ValueError(f"cannot use {address!r}")

    monkeypatch.setattr(run, "ROOT_NODES", 20)
    monkeypatch.setattr(distributed, "Client", refused)
    with pytest.raises(ClusterError) as caught:
        drive(search_split(queens(8), scheduler="tcp://127.0.0.1:9"))
    assert str(caught.value) == (
        "cannot reach the Dask scheduler at tcp://127.0.0.1:9: cannot use 'tcp://127.0.0.1:9'"
    )


def test_a_server_that_is_not_a_scheduler_is_a_clear_error(monkeypatch):
    """An HTTP server's reply read as a Dask frame asked for 3 EiB (a traceback before)."""

    def answer(server: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while True:
                connection, _ = server.accept()
                connection.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")
                connection.close()

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    threading.Thread(target=answer, args=(server,), daemon=True).start()
    monkeypatch.setattr(run, "ROOT_NODES", 20)
    monkeypatch.setattr(run, "CONNECT_SECONDS", 2)
    try:
        with pytest.raises(ClusterError) as caught:
            drive(search_split(queens(8), scheduler=f"tcp://127.0.0.1:{port}"))
    finally:
        server.close()
    assert str(caught.value).startswith(
        f"the server at tcp://127.0.0.1:{port} does not answer as a Dask scheduler ("
    )


def test_a_malformed_address_is_refused_before_the_search_begins(monkeypatch):
    searches = []  # the root's search starts through `relay`
    monkeypatch.setattr(run, "relay", lambda search, report: searches.append(search))
    with pytest.raises(SlidelabError, match=r"^'garbage' is not a Dask scheduler's address"):
        drive(search_split(queens(8), scheduler="garbage"))
    assert searches == []


class _FailedFuture:
    """A future as the client sees it when its task ended with `error`."""

    status = "error"

    def __init__(self, error: Exception) -> None:
        self.error = error

    def exception(self) -> Exception:
        return self.error

    def result(self) -> None:
        raise self.error


def test_a_task_dask_gave_up_on_is_submitted_again(monkeypatch):
    monkeypatch.setattr(run, "MAX_LOSSES", 1)
    work = run._DaskWork(client=None, job=None)
    killed = [_FailedFuture(distributed.KilledWorker("task", None, 0)) for _ in range(2)]
    work.submitted = dict.fromkeys(killed)
    assert isinstance(work.value(killed[0]), run._Lost)
    with pytest.raises(ClusterError, match="the Dask cluster lost 2 subproblems"):
        work.value(killed[1])


def test_a_task_that_failed_on_its_own_is_not_submitted_again():
    work = run._DaskWork(client=None, job=None)
    failed = _FailedFuture(ZeroDivisionError("in the search"))
    work.submitted = {failed: None}
    with pytest.raises(ZeroDivisionError):
        work.value(failed)


def test_the_hardest_start_on_the_cluster_is_the_one_found_here(
    cluster, monkeypatch, tmp_path, capsys
):
    monkeypatch.setattr(run, "ROOT_NODES", 100)  # every part a task
    path = tmp_path / "cars.slide"
    path.write_text(CARS)
    command = ["slide", str(path), "--hardest", "--style", "1", "--json"]
    assert main([*command, "--jobs", "1"]) == 0
    here = capsys.readouterr().out
    assert '"hardest_distance": 5' in here
    assert main([*command, "--scheduler", cluster.scheduler_address]) == 0
    assert capsys.readouterr().out == here


def test_assemblies_taken_apart_on_the_cluster_are_those_taken_apart_here(
    cluster, monkeypatch, capsys
):
    if not EXAMPLES.is_dir():
        pytest.skip(f"BurrTools examples not found at {EXAMPLES}")
    monkeypatch.setattr(batch, "FIRST_LOOK", 0.0)  # the root, probed here, is split at once
    monkeypatch.setattr(split, "ALONE_SECONDS", -1.0)
    cage = str(EXAMPLES / "CubeInCage.xmpuzzle")
    command = ["polycube", cage, "--disassemble", "--json"]
    assert main([*command, "--jobs", "1"]) == 0
    here = capsys.readouterr().out
    assert '"disassemblable": 12' in here
    assert main([*command, "--scheduler", cluster.scheduler_address]) == 0
    there = capsys.readouterr()
    assert there.out == here
    assert (
        there.err
        == f"Taken apart in 46 chunks on the Dask cluster at {cluster.scheduler_address}.\n"
    )
