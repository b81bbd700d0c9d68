"""The one exact hashing routine (:mod:`wltools.runtime.hashing`): its ids equal ``np.unique``'s
exact grouping, also when collisions are forced (zero weights on the first try), for rows and for
variable-length segments; a key set that collides on every try is refused, never merged; every
user of the routine (the kernel's rounds, the block grouper, the incremental 1-WL) gives the same
verdicts with collisions forced."""

import networkx as nx
import numpy as np
import pytest

import wltools.runtime.hashing as hashing
from wltools.runtime.hashing import exact_ids, unique_rows


def _same_partition(a, b):
    a, b = np.asarray(a).tolist(), np.asarray(b).tolist()
    return len(set(zip(a, b))) == len(set(a)) == len(set(b))


@pytest.fixture
def collide_first_try(monkeypatch):
    """Zero weights on salt 0 (every key of one prefix and length collides), real ones after;
    returns the salts asked for."""
    real, salts = hashing.weights, []

    def weights(width, salt):
        salts.append(salt)
        return np.zeros(width, dtype=np.uint64) if salt == 0 else real(width, salt)

    monkeypatch.setattr(hashing, "weights", weights)
    return salts


def _rows():
    return np.random.default_rng(0).integers(-1, 3, size=(300, 5))


def test_rows_group_as_np_unique():
    X = _rows()
    want = np.unique(X, axis=0, return_inverse=True)[1].reshape(-1)
    assert _same_partition(unique_rows(X), want)
    assert _same_partition(unique_rows(X.astype(np.int32)), want)
    assert _same_partition(exact_ids(X), want)


def test_a_forced_collision_retries_and_stays_exact(collide_first_try, monkeypatch):
    X = _rows()
    want = np.unique(X, axis=0, return_inverse=True)[1].reshape(-1)
    assert _same_partition(unique_rows(X), want)
    assert 0 in collide_first_try and 1 in collide_first_try  # the first try collided, the second did not
    monkeypatch.setattr(hashing, "_BLOCK_ITEMS", 15)  # hashed and verified in blocks of 3 rows
    assert _same_partition(unique_rows((X - 1).astype(np.int32)), want)


def test_segments_group_exactly_with_and_without_collisions(monkeypatch):
    rng = np.random.default_rng(1)
    lengths = rng.integers(0, 4, size=200)
    indptr = np.concatenate([[0], np.cumsum(lengths)])
    items = rng.integers(0, 2, size=int(indptr[-1]))
    prefix = rng.integers(0, 2, size=200)
    keys = [(int(prefix[i]), tuple(items[indptr[i]:indptr[i + 1]].tolist())) for i in range(200)]
    want = np.unique([hash(k) for k in keys], return_inverse=True)[1]
    assert len(set(keys)) == len(set(want.tolist()))  # Python's hash of these small tuples is exact here
    assert _same_partition(exact_ids(items, prefix, indptr), want)
    real = hashing.weights
    monkeypatch.setattr(hashing, "weights", lambda w, s: np.zeros(w, np.uint64) if s == 0 else real(w, s))
    assert _same_partition(exact_ids(items, prefix, indptr), want)


def test_keys_that_collide_on_every_try_are_refused(monkeypatch):
    monkeypatch.setattr(hashing, "weights", lambda width, salt: np.zeros(width, dtype=np.uint64))
    with pytest.raises(RuntimeError, match="hash collisions in 8 independent tries"):
        unique_rows(np.array([[0, 1], [0, 2]]))


def test_every_user_gives_the_same_results_with_collisions_forced(monkeypatch):
    from wltools.refine import refine_pair

    G = nx.gnm_random_graph(14, 22, seed=4)
    H = nx.gnm_random_graph(14, 22, seed=5)
    pairs = [(G, H), (nx.path_graph(8), nx.disjoint_union(nx.path_graph(4), nx.cycle_graph(4)))]
    tests = ("1wl", "spd", "3wl", "sswl", "s3", "epwl")

    def run():
        return {(i, t): refine_pair(*p, t) for i, p in enumerate(pairs) for t in tests}

    want = run()
    real, salts = hashing.weights, []

    def weights(width, salt):
        salts.append(salt)
        return np.zeros(width, dtype=np.uint64) if salt == 0 else real(width, salt)

    monkeypatch.setattr(hashing, "weights", weights)
    got = run()
    assert 1 in salts  # collisions happened and were retried
    for key in want:
        assert (got[key].distinguished, got[key].iteration, got[key].iterations, got[key].class_sizes) == (
            want[key].distinguished, want[key].iteration, want[key].iterations, want[key].class_sizes), key


def test_group_hashes_is_np_unique():
    """First indices and inverse of :func:`group_hashes` equal ``np.unique``'s (ids in hash order
    are what committed witnesses name)."""
    rng = np.random.default_rng(7)
    for trial in range(300):
        N = int(rng.integers(1, 4000))
        dtype = (np.uint64, np.int64, np.int32, np.uint8)[trial % 4]
        values = rng.integers(0, 200 if dtype == np.uint8 else 2**31, int(rng.integers(1, N + 1))).astype(dtype)
        h = values[rng.integers(0, values.size, N)]
        _, first, inv = np.unique(h, return_index=True, return_inverse=True)
        got_first, got_inv = hashing.group_hashes(h)
        assert np.array_equal(got_first, first) and np.array_equal(got_inv, inv.reshape(-1))
