"""A trial of careless inputs over every wltools command (issue 34 item 10; not part of the test suite).

Usage: python benchmarks/careless_trial.py TREE WORKSPACE  (TREE: a checkout; WORKSPACE: a scratch
folder, emptied first). Prints one line per case and "N of M clean"; WORKSPACE/trial.json.

Each case runs `python -m cli ARGS` in a scratch workspace with a 120 s limit. A case is clean when:
no traceback; exit 0, or exit 1/2 with at most one 'error:'-style line on stderr (click usage errors:
the 'Error:' line and its usage lines are accepted as click's standard one-error shape); no input
file changed; no device/FIFO replaced; output size under 1 MB; finished in time."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

TREE = Path(sys.argv[1]).resolve()
WS = Path(sys.argv[2]).resolve()
shutil.rmtree(WS, ignore_errors=True)
WS.mkdir(parents=True)
os.chdir(WS)
import networkx as nx  # noqa: E402

json.dump({"nodes": [{"id": 0, "colour": "a"}, {"id": 1, "colour": "b"}], "edges": [{"source": 0, "target": 1, "w": 2}]}, open("g.json", "w"))
open("deep.json", "w").write('{"nodes": ' + "[" * 100000 + "]" * 100000 + ', "edges": []}')
big = "x" * 10_000_000
json.dump({"nodes": [{"id": 0, "c": big}, {"id": 1, "c": big + "y"}], "edges": [{"source": 0, "target": 1}]}, open("big1.json", "w"))
json.dump({"nodes": [{"id": 0, "c": big}, {"id": 1, "c": big}], "edges": [{"source": 0, "target": 1}]}, open("big2.json", "w"))
open("gs.g6", "wb").write(nx.to_graph6_bytes(nx.petersen_graph(), header=False) + nx.to_graph6_bytes(nx.cycle_graph(5), header=False))
open("targets.txt", "w").write("1\n1.0\n")
Path("tu/BASE").mkdir(parents=True)
Path("tu/BASE/BASE_A.txt").write_text("1, 2\n2, 1\n2, 3\n3, 2\n4, 5\n5, 4\n")
Path("tu/BASE/BASE_graph_indicator.txt").write_text("1\n1\n1\n2\n2\n")
Path("tu/BASE/BASE_graph_labels.txt").write_text("1\n2\n")
open("empty.txt", "w").close()
os.mkfifo("fifo.png")
os.mkfifo("fifo.md")
os.symlink("g.json", "link.json")
os.symlink("fifo.md", "link-to-fifo.md")
open("real.md", "w").write("old")
os.symlink("real.md", "link.md")
open("real.png", "wb").write(b"old")
os.symlink("real.png", "link.png")
shutil.copytree(TREE / "reports/brec-runs/gin-example-cpu", "run")
os.mkdir("emptydir")
open("notadir", "w").write("x")

INPUTS = [p for p in Path(".").rglob("*") if p.is_file() and not p.is_symlink() and not p.name.startswith("fifo") and p.name not in ("real.md", "real.png")]  # link.md / link.png are written through, by design


def digest():
    return {str(p): hashlib.sha1(p.read_bytes()).hexdigest() for p in INPUTS if p.exists()}


CASES = [
    # check / iso
    "check petersen petersen --test 1wl --draw /dev/null",
    "check petersen petersen --test 1wl --draw fifo.png",
    "check gs.g6:0 petersen --test 1wl --draw gs.g6",
    "check g.json petersen --draw g.json",
    "check petersen petersen --test 1wl --draw emptydir",
    "check petersen petersen --test 1wl --draw nodir/x.png",
    "check petersen petersen --test 1wl --draw x.jpeg",
    "check deep.json petersen",
    "iso deep.json petersen",
    "check big1.json big2.json --node-attr c --test 1wl",
    "check big1.json big2.json --node-attr c --test 1wl --format json",
    "check g.json g.json --node-attr label",
    "check g.json g.json --edge-attr label",
    "iso g.json g.json --node-attr nope",
    "check petersen petersen --iso-timeout 3e6",
    "check petersen petersen --iso-timeout inf",
    "check petersen petersen --iso-timeout 1e400",
    "check petersen petersen --iso-timeout nan",
    "iso cycle:300 cycle:300 --iso-timeout 3e6",
    "iso cycle:300 cycle:300 --iso-timeout nan",
    "iso cycle:300 cycle:300 --iso-timeout -5",
    "check petersen nosuchgraph",
    "check empty.txt petersen",
    "check gs.g6:9 petersen",
    "check gs.g6:-1 petersen",
    "check fifo.md petersen",
    "check emptydir petersen",
    "check link.json petersen --test 1wl",
    "check petersen petersen --test nope",
    "check petersen petersen --test ''",
    "check petersen petersen --rrwp-steps 0",
    "check petersen petersen --max-memory 1",
    "check petersen petersen --max-memory lots",
    "check 'smiles:C1CC1' 'smiles:' --test 1wl",
    "iso petersen",
    "check",
    # dataset
    "dataset tu/BASE --out tu/BASE/BASE_A.txt",
    "dataset tu/BASE/BASE_A.txt --out tu/BASE/BASE_A.txt",
    "dataset gs.g6 --out gs.g6",
    "dataset gs.g6 --plot gs.g6",
    "dataset gs.g6 --targets targets.txt --out targets.txt",
    "dataset gs.g6 --out /dev/null",
    "dataset gs.g6 --out fifo.md",
    "dataset gs.g6 --plot fifo.png",
    "dataset gs.g6 --out link-to-fifo.md",
    "dataset gs.g6 --out link.md --quiet",
    "dataset gs.g6 --out same.md --plot same.md",
    "dataset gs.g6 --plot chart.txt",
    "dataset gs.g6 --tests nope",
    "dataset gs.g6 --rounds 0",
    "dataset nosuch",
    "dataset empty.txt",
    "dataset emptydir",
    "dataset gs.g6 --targets empty.txt",
    "dataset gs.g6 --targets targets.txt --quiet",
    "dataset tu/BASE --targets targets.txt",
    "dataset gs.g6 --out notadir/x.md",
    # brec
    "brec theory --tests 1wl --pairs 0-1 --out /dev/null",
    "brec theory --tests 1wl --pairs 0-1 --out notadir",
    "brec theory --tests 1wl --pairs 0-1 --out fifo.md",
    "brec theory --tests nope --pairs 0-1",
    "brec theory --tests 1wl --pairs 999",
    "brec theory --tests 1wl --pairs 5-2",
    "brec theory --tests 1wl --category nope",
    "brec theory --tests 1wl --pairs 0-1 --quiet",
    "brec theory --tests 1wl --rrwp-steps 0",
    "brec verify-data --pairs 0 --quiet",
    "brec verify-data --pairs x",
    "brec verify-data --seed -1",
    "brec report run --out run/results.jsonl --no-theory",
    "brec report run --out run/config.json --no-theory",
    "brec report run --out /dev/null --no-theory",
    "brec report run --out fifo.md --no-theory",
    "brec report run --plot fifo.png --no-theory",
    "brec report run --html /dev/null --no-theory",
    "brec report run --html fifo.md --no-theory",
    "brec report run --out link.md --no-theory",
    "brec report run --plot r.txt --no-theory",
    "brec report run --out a.md --plot a.md --no-theory",
    "brec report nosuchrun",
    "brec report emptydir",
    "brec report g.json",
    "brec report run --format xml",
    "brec run --model nosuch --pairs 0",
    "brec run --model g.json:x --pairs 0",
    "brec run --model gin --pairs 0 --seeds 1,1",
    "brec run --model gin --pairs 0 --seeds -1",
    "brec run --model gin --pairs 0 --seed 0 --seeds 1",
    "brec run --model gin --pairs 0 --shard 3/2",
    "brec run --model gin --pairs 0 --multi-pair 0",
    "brec run --model gin --pairs 0 --out notadir",
    "brec run --model gin --pairs 0 --out g.json",
    "brec run --model gin --pairs 0 --batch-size 3",
    "brec run --model gin --pairs 0 --lr 0",
    "brec run --model gin --pairs 0 --set hidden",
    "brec run --model gin --pairs 0 --device cuda",
    "brec run --model gin --category nope",
    "brec run --model gin --pairs 999",
    "brec run --model gin --bound nope --pairs 0",
    "brec upgrade nosuch",
    "brec upgrade run",
    "brec compare run --out run/results.jsonl",
    "brec compare run --out /dev/null",
    "brec compare run --plot fifo.png",
    "brec compare run --out link-to-fifo.md",
    "brec compare nosuchrun",
    "brec compare emptydir",
    "brec compare g.json",
    "brec compare run --format xml",
    "brec compare run --plot r.txt",
    "brec compare run --out same.md --plot same.md",
    "brec compare run --no-theory --out cmp.md",
    # suite
    "suite theory sr16 --tests 1wl --out /dev/full",
    "suite theory sr16 --tests 1wl --out fifo.md",
    "suite theory sr16 --tests 1wl --out link.md --quiet",
    "suite theory sr16 --tests 1wl --out link-to-fifo.md",
    "suite theory nosuch",
    "suite theory sr16 --tests nope",
    "suite theory sr16 --pairs 99",
    "suite theory sr16 --rrwp-steps 0",
    "suite theory sr16 --tests 1wl --format xml",
    "suite theory sr16 --tests 1wl --out emptydir",
    "suite verify-data",
    "suite verify-data nosuch",
    "suite verify-data sr16 --all",
    "suite verify-data sr16 --quiet",
    "suite run nosuch --model gin",
    "suite run sr16 --model nosuch",
    "suite run sr16 --model gin --pairs 99",
    "suite compare nosuchrun",
    "suite compare run",
    "suite compare g.json",
    "suite list --format xml",
    # claims, models
    "claims verify --out /dev/null wl-hierarchy",
    "claims verify --out fifo.md wl-hierarchy",
    "claims verify nosuch",
    "claims verify",
    "claims verify --all nosuch",
    "claims verify --brec-ids x wl-hierarchy",
    "claims verify --suites nosuch wl-hierarchy",
    "claims verify --run-dir nosuch brec-run",
    "claims verify --run-dir g.json brec-run",
    "claims verify --run-dir run --out run/config.json brec-run",
    "claims list --format xml",
    "models list --format xml",
    "models info nosuch",
    "nosuchcommand",
    # round 2: runs with a real model file, links written through, FIFOs and devices as inputs
    'brec run --model {gin} --pairs 0 --batch-size 3',
    'brec run --model {gin} --pairs 0 --device cuda',
    'brec run --model {gin} --pairs 0 --bound nope',
    'brec run --model {gin} --pairs 0 --out /dev/null',
    'brec run --model {gin} --pairs 0 --transform nope:x',
    'brec run --model {gin} --pairs 0 --set hidden=abc',
    'brec run --model {gin} --pairs 0 --eval-batch-size 1',
    'brec run --model {gin} --pairs 0 --workers 0',
    'suite run sr16 --model {gin} --out /dev/null',
    'suite run sr16 --model {gin} --seeds x',
    'dataset gs.g6 --out link.md --quiet',
    'brec report run --out link.md --no-theory',
    'suite theory sr16 --tests 1wl --out link.md --quiet',
    'check petersen petersen --test 1wl --draw link.png',
    'dataset gs.g6 --plot /dev/full',
    'brec report run --figures /dev/null',
    'brec report run --html run/config.json --no-theory',
    'brec report run --html fifo.png --no-theory',
    'claims verify --out link-to-fifo.md wl-hierarchy',
    'check fifo.md petersen',
    'dataset fifo.md',
    'check petersen petersen --test 1wl --draw tu/BASE/BASE_A.txt',
    'check tu/BASE/BASE_A.txt petersen --test 1wl',
]


def judge(case):
    import shlex

    before = digest()
    args = shlex.split(case.replace("{gin}", f"{TREE / 'examples' / 'gin.py'}:gin"))
    env = {**os.environ, "PYTHONPATH": str(TREE), "WLTOOLS_CACHE": str(WS / "cache")}
    try:
        p = subprocess.run([sys.executable, "-m", "cli", *args], capture_output=True, env=env, timeout=180)
    except subprocess.TimeoutExpired:
        return False, "timeout", ""
    out, err = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    problems = []
    if "Traceback" in out + err:
        problems.append("traceback")
    if p.returncode not in (0, 1, 2):
        problems.append(f"exit {p.returncode}")
    errs = [ln for ln in err.splitlines() if ln.lower().startswith("error")]
    if p.returncode == 2 and len(errs) != 1:
        problems.append(f"{len(errs)} error lines")
    if len(out) + len(err) > 1_000_000:
        problems.append(f"{len(out) + len(err)} bytes of output")
    if digest() != before:
        problems.append("an input changed")
    for f in ("fifo.png", "fifo.md"):
        if Path(f).is_file():
            problems.append(f"{f} replaced by a regular file")
    if not os.path.exists("/dev/null") or os.path.isfile("/dev/null") or os.path.isfile("/dev/full"):
        problems.append("a device replaced")
    if not Path("link.md").is_symlink():
        problems.append("link.md replaced")
    last = (errs[-1] if errs else (err.strip().splitlines() or [""])[-1])[:160]
    return not problems, ", ".join(problems), f"exit {p.returncode}: {last}"


results = []
for case in CASES:
    ok, why, last = judge(case)
    results.append({"case": case, "clean": ok, "problems": why, "last": last})
    print(("CLEAN " if ok else "FAULT ") + case + "  ->  " + (why + " | " if why else "") + last, flush=True)
clean = sum(r["clean"] for r in results)
print(f"\n{clean} of {len(results)} clean")
json.dump(results, open(WS / "trial.json", "w"), indent=1)
