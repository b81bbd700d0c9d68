"""Shards on Ray actors give the one-process result (the driver keeps one exact colour table);
without Ray, one error line. Skipped when the ``ray`` extra is not installed.

A local Ray instance takes 5-20 s to start on 2 cores, so the module starts one: the shards of
:func:`nci1k_shards` start it (the path of a caller without Ray) and stop it when the module is done;
the parts test runs on it meanwhile (the path of a caller whose Ray is running, which must stay running).
"""

import sys

import numpy as np
import pytest

from wltools.errors import WLToolsError

from wltools.dataset.refine import first_appearance, refine_collection
from wltools.dataset.tu import read_tu, TU_DATA_DIR

pytestmark = pytest.mark.xdist_group("ray-shards")  # one xdist worker: the module's Ray instance is started once


@pytest.fixture(scope="module")
def nci1k_shards():
    """Three SPD shards of NCI1K on the local Ray instance they start; stopped with it at the end."""
    ray = pytest.importorskip("ray")
    from wltools.dataset.ray_refine import RayShards

    assert not ray.is_initialized()
    shards = RayShards(read_tu(TU_DATA_DIR / "NCI1K"), "spd", shards=3, num_cpus=2)
    try:
        yield shards
    finally:
        shards.close()
    assert not ray.is_initialized()  # the instance the shards started is stopped with them


def test_ray_shards_equal_one_process(nci1k_shards):
    coll = read_tu(TU_DATA_DIR / "NCI1K")
    one = refine_collection(coll, "spd", keep_node_colours=True)
    many = refine_collection(coll, "spd", shards=nci1k_shards, keep_node_colours=True)
    assert len(nci1k_shards) == 3
    assert one.colours == many.colours and one.stable_after == many.stable_after
    assert all(np.array_equal(a, b) for a, b in zip(one.graph_classes, many.graph_classes))
    assert all(np.array_equal(first_appearance(a), first_appearance(b))
               for a, b in zip(one.node_colours, many.node_colours))


def test_without_ray_one_line(monkeypatch):
    from wltools.dataset.ray_refine import RayShards

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    with pytest.raises(WLToolsError, match=r'needs Ray, which is not installed: pip install -e "\.\[ray\]"'):
        RayShards(read_tu(TU_DATA_DIR / "NCI1K"), "1wl", shards=2)


def test_ray_parts_read_by_their_actors_equal_local_parts(nci1k_shards):  # on the module's running Ray
    import functools

    import ray

    from wltools.dataset.parts import analyse_parts

    from wltools.dataset.analysis import analyse

    loaders = [functools.partial(read_tu, TU_DATA_DIR / "NCI1K")] * 2  # two copies of NCI1K as two parts
    local = analyse_parts(loaders, ["1wl"], rounds=3)
    ray_rep = analyse_parts(loaders, ["1wl"], rounds=3, executor="ray")
    assert ray.is_initialized()  # its shards closed without stopping the Ray they did not start
    strip = [(t["test"], t["rounds"]) for t in local["tests"]]
    assert strip == [(t["test"], t["rounds"]) for t in ray_rep["tests"]]
    one = analyse(read_tu(TU_DATA_DIR / "NCI1K"), ["1wl"], rounds=3, iso=False)  # a copy joins its original's class
    assert local["dataset"]["graphs"] == 2 * one["dataset"]["graphs"]
    assert local["tests"][0]["rounds"][-1]["classes"] == one["tests"][0]["rounds"][-1]["classes"]
