"""Shards on Ray actors give the one-process result (the driver keeps one exact colour table);
without Ray, one error line. Skipped when the ``ray`` extra is not installed."""

import sys

import numpy as np
import pytest

from wltools.errors import WLToolsError

from wltools.dataset.refine import first_appearance, refine_collection
from wltools.dataset.tu import read_tu, TU_DATA_DIR


# a local Ray instance takes 5-20 s to start on 2 cores
def test_ray_shards_equal_one_process():
    pytest.importorskip("ray")
    from wltools.dataset.ray_refine import RayShards

    coll = read_tu(TU_DATA_DIR / "NCI1K")
    one = refine_collection(coll, "spd", keep_node_colours=True)
    shards = RayShards(coll, "spd", shards=3, num_cpus=2)
    try:
        many = refine_collection(coll, "spd", shards=shards, keep_node_colours=True)
    finally:
        shards.close()
    assert one.colours == many.colours and one.stable_after == many.stable_after
    assert all(np.array_equal(a, b) for a, b in zip(one.graph_classes, many.graph_classes))
    assert all(np.array_equal(first_appearance(a), first_appearance(b))
               for a, b in zip(one.node_colours, many.node_colours))


def test_without_ray_one_line(monkeypatch):
    from wltools.dataset.ray_refine import RayShards

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    with pytest.raises(WLToolsError, match=r'needs Ray, which is not installed: pip install -e "\.\[ray\]"'):
        RayShards(read_tu(TU_DATA_DIR / "NCI1K"), "1wl", shards=2)


# a local Ray instance takes 5-20 s to start on 2 cores
def test_ray_parts_read_by_their_actors_equal_local_parts():
    pytest.importorskip("ray")
    import functools

    from wltools.dataset.parts import analyse_parts

    from wltools.dataset.analysis import analyse

    loaders = [functools.partial(read_tu, TU_DATA_DIR / "NCI1K")] * 2  # two copies of NCI1K as two parts
    local = analyse_parts(loaders, ["1wl"], rounds=3)
    ray_rep = analyse_parts(loaders, ["1wl"], rounds=3, executor="ray")
    strip = [(t["test"], t["rounds"]) for t in local["tests"]]
    assert strip == [(t["test"], t["rounds"]) for t in ray_rep["tests"]]
    one = analyse(read_tu(TU_DATA_DIR / "NCI1K"), ["1wl"], rounds=3, iso=False)  # a copy joins its original's class
    assert local["dataset"]["graphs"] == 2 * one["dataset"]["graphs"]
    assert local["tests"][0]["rounds"][-1]["classes"] == one["tests"][0]["rounds"][-1]["classes"]
