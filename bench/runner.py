#!/usr/bin/env python3
"""lipq benchmark runner: lipq against Lisp/Scheme/Lua peers.

Started by bench/run (see bench/README.md).  Only the standard library.
"""
import argparse
import glob
import json
import os
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
BUILD = os.path.join(BENCH, "build")
PEERS_DIR = os.path.join(BENCH, "peers")

STARTUP_LAUNCHES = 20   # the startup benchmark times this many launches

# name -> expected last output line, which implementations take part
# (None: all), and a one-line description for the listing.
BENCHMARKS = [
    ("startup", "3", None, f"evaluate (+ 1 2) and exit, {STARTUP_LAUNCHES} launches"),
    ("tak", "17500", None, "(tak 18 12 6) x 2500"),
    ("fib", "63245986", None, "naive (fib 39)"),
    ("takl", "3150", None, "Gabriel's TAKL on lists 18 12 6, x 450"),
    ("queens", "32160", None, "list-based nqueen1 backtracking, n = 11, x 12"),
    ("flatqueens", "11040", None, "functional flat-map N-queens, n = 8, x 120"),
    ("cons", "6500006500000", None, "build/map/reverse/sum a 10^6 list, x 13"),
    ("bignum", "338490", None, "5000! and its digit sum by division by 10, x 5"),
    ("print", "245682180", ["lipq", "sbcl", "guile"],
     "print-circle a shared/cyclic structure and read it back, x 54"),
    ("tait", "480", None, "Tait's problem: the paper's DFS with the D' bound, n = 9 (32 solutions), x 15"),
]

# Implementations: name -> dict(src dir, ext, apt package, probe command).
IMPLS = {
    "lipq":     dict(dir=os.path.join(BENCH, "lipq"), ext=".lisp"),
    "sbcl":     dict(dir=os.path.join(PEERS_DIR, "cl"), ext=".lisp", apt="sbcl", probe="sbcl"),
    "chez":     dict(dir=os.path.join(PEERS_DIR, "chez"), ext=".ss", apt="chezscheme", probe="chezscheme"),
    "guile":    dict(dir=os.path.join(PEERS_DIR, "guile"), ext=".scm", apt="guile-3.0", probe="guile"),
    "ecl":      dict(dir=os.path.join(PEERS_DIR, "cl"), ext=".lisp", apt="ecl", probe="ecl"),
    "clisp":    dict(dir=os.path.join(PEERS_DIR, "cl"), ext=".lisp", apt="clisp", probe="clisp"),
    "lua":      dict(dir=os.path.join(PEERS_DIR, "lua"), ext=".lua", apt="lua5.4", probe="lua5.4"),
    "picolisp": dict(dir=os.path.join(PEERS_DIR, "picolisp"), ext=".l", apt="picolisp", probe="picolisp"),
}
PEERS = [k for k in IMPLS if k != "lipq"]
# ECL compiles (compile-file) through gcc to native code.
BUILD_DEPS = {"ecl": ["gcc"]}


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- install

def have(cmd):
    return shutil.which(cmd) is not None


def apt_install(pkgs):
    if not pkgs:
        return True
    if not have("apt-get"):
        log(f"! no apt-get; cannot install {' '.join(pkgs)}")
        return False
    sudo = [] if os.geteuid() == 0 else (["sudo", "-n"] if have("sudo") else None)
    if sudo is None:
        log(f"! not root and no sudo; cannot install {' '.join(pkgs)}")
        return False
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    log(f"+ apt-get install {' '.join(pkgs)}")
    opts = ["-o", "DPkg::Lock::Timeout=600"]
    subprocess.run(sudo + ["apt-get"] + opts + ["update", "-qq"], env=env,
                   stdout=subprocess.DEVNULL)
    r = subprocess.run(sudo + ["apt-get"] + opts + ["install", "-y", "-qq"] + pkgs,
                       env=env, stdout=subprocess.DEVNULL)
    return r.returncode == 0


def ensure_tools(peers, install):
    """Install missing peers, /usr/bin/time and gcc.  Returns available peers."""
    missing = []
    if not os.path.exists("/usr/bin/time"):
        missing.append("time")
    if not have("gcc"):
        missing.append("gcc")
    for p in peers:
        if not have(IMPLS[p]["probe"]):
            missing.append(IMPLS[p]["apt"])
        for d in BUILD_DEPS.get(p, []):
            if not have(d) and d not in missing:
                missing.append(d)
    if missing and install:
        if not apt_install(missing):
            # retry one by one so that one broken package does not hide the rest
            for m in missing:
                apt_install([m])
    avail = []
    for p in peers:
        if have(IMPLS[p]["probe"]) and all(have(d) for d in BUILD_DEPS.get(p, [])):
            avail.append(p)
        else:
            log(f"! peer {p} not available (package {IMPLS[p]['apt']})")
    return avail


# ---------------------------------------------------------------- build

def newer(target, *sources):
    if not os.path.exists(target):
        return False
    t = os.path.getmtime(target)
    return all(os.path.getmtime(s) <= t for s in sources)


def sh(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, **kw)


def chez_bin():
    # Debian's chezscheme installs both names; "scheme" may be another Scheme
    return "chezscheme" if have("chezscheme") else "scheme"


def source_of(impl, bench):
    """The program file, or None when there is none."""
    d = IMPLS[impl]
    f = os.path.join(d["dir"], bench + d["ext"])
    return f if os.path.exists(f) else None


def build(impl, bench, src, lipq_cmd):
    """Compile ahead of time where the peer has a compiler; the build is not
    timed.  Returns (argv, None) or (None, error text)."""
    out = os.path.join(BUILD, impl)
    os.makedirs(out, exist_ok=True)
    if impl == "lipq":
        return lipq_cmd + [src], None
    if impl == "lua":
        return ["lua5.4", src], None
    if impl == "picolisp":
        return ["picolisp", src], None
    if impl == "guile":
        obj = os.path.join(out, bench + ".go")
        if not newer(obj, src):
            r = sh(["guile", "--no-auto-compile", "-c",
                    "(use-modules (system base compile))"
                    f"(compile-file {json.dumps(src)} #:output-file {json.dumps(obj)}"
                    " #:optimization-level 2)"])
            if r.returncode:
                return None, r.stdout
        return ["guile", "--no-auto-compile", "-c", f"(load-compiled {json.dumps(obj)})"], None
    if impl == "chez":
        obj = os.path.join(out, bench + ".so")
        if not newer(obj, src):
            r = sh([chez_bin(), "-q"], input=f"(compile-program {json.dumps(src)} {json.dumps(obj)})")
            if r.returncode or not os.path.exists(obj):
                return None, r.stdout
        return [chez_bin(), "--program", obj], None
    if impl == "sbcl":
        obj = os.path.join(out, bench + ".fasl")
        if not newer(obj, src):
            r = sh(["sbcl", "--noinform", "--non-interactive", "--no-sysinit", "--no-userinit",
                    "--eval", f"(compile-file {json.dumps(src)} :output-file {json.dumps(obj)})"])
            if r.returncode or not os.path.exists(obj):
                return None, r.stdout
        return ["sbcl", "--script", obj], None
    if impl == "clisp":
        obj = os.path.join(out, bench + ".fas")
        if not newer(obj, src):
            r = sh(["clisp", "-q", "-norc", "-c", src, "-o", obj])
            if r.returncode or not os.path.exists(obj):
                return None, r.stdout
        return ["clisp", "-q", "-q", "-norc", obj], None
    if impl == "ecl":
        obj = os.path.join(out, bench + ".fas")
        if not newer(obj, src):
            r = sh(["ecl", "-norc", "-eval",
                    f"(compile-file {json.dumps(src)} :output-file {json.dumps(obj)})",
                    "-eval", "(ext:quit 0)"], cwd=out)
            if r.returncode or not os.path.exists(obj):
                return None, r.stdout
        return ["ecl", "-norc", "-shell", obj], None
    return None, f"unknown implementation {impl}"


def build_somers():
    src = os.path.join(BENCH, "nqueens_somers.c")
    exe = os.path.join(BUILD, "nqueens_somers")
    os.makedirs(BUILD, exist_ok=True)
    if not newer(exe, src):
        r = sh(["gcc", "-O2", "-o", exe, src])
        if r.returncode:
            log("! nqueens_somers.c does not build:\n" + r.stdout)
            return None
    want = {8: "92", 9: "352", 10: "724", 11: "2680", 12: "14200"}
    for n, c in want.items():
        r = sh([exe, str(n)])
        if r.stdout.strip() != c:
            log(f"! nqueens_somers {n} printed {r.stdout.strip()!r}, expected {c}")
            return None
    return exe


# ---------------------------------------------------------------- run

def run_once(argv, timeout, launches=1):
    """One timed run.  Returns dict(ok, wall, cpu, rss_kb, out, err, why)."""
    tf = tempfile.NamedTemporaryFile(prefix="lipq-bench-time-", delete=False)
    tf.close()
    if launches > 1:
        inner = " ".join(shlex.quote(a) for a in argv)
        argv = ["sh", "-c", f"i=0; while [ $i -lt {launches} ]; do {inner} || exit 1; i=$((i+1)); done"]
    cmd = ["/usr/bin/time", "-v", "-o", tf.name] + argv
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL, text=True, start_new_session=True,
                         cwd=BENCH)
    why = None
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        why = f"timeout {timeout}s"
    wall = time.perf_counter() - t0
    rss = cpu_u = cpu_s = None
    try:
        with open(tf.name) as f:
            for line in f:
                line = line.strip()
                if line.startswith("Maximum resident set size"):
                    rss = int(line.rsplit(":", 1)[1])
                elif line.startswith("User time"):
                    cpu_u = float(line.rsplit(":", 1)[1])
                elif line.startswith("System time"):
                    cpu_s = float(line.rsplit(":", 1)[1])
    except (OSError, ValueError):
        pass
    os.unlink(tf.name)
    if why is None and p.returncode != 0:
        why = f"exit {p.returncode}"
    cpu = (cpu_u or 0.0) + (cpu_s or 0.0)
    return dict(ok=why is None, wall=wall, cpu=cpu, rss_kb=rss, out=out, err=err, why=why)


def last_line(text):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else ""


# ---------------------------------------------------------------- table

def fmt_t(t):
    return f"{t:.2f}s" if t < 100 else f"{t:.0f}s"


def fmt_m(kb):
    return "?" if kb is None else f"{kb / 1024:.0f}M"


# A median whose runs spread by more than this fraction of it (max - min) is
# marked "~" in the table: on a shared or noisy machine one program's runs can
# fall into two modes, and such a cell needs more runs before it means much.
SPREAD_MARK = 0.20


def unsteady(res, metric):
    lo, hi, t = res.get(metric + "_min"), res.get(metric + "_max"), res[metric]
    return lo is not None and hi is not None and t > 0 and (hi - lo) / t > SPREAD_MARK


def fmt_time(res, metric):
    return fmt_t(res[metric]) + ("~" if unsteady(res, metric) else "")


def cell(res, base, metric):
    """res: per-impl result dict for a bench; base: lipq's median or None."""
    if res is None:
        return "-"
    if res.get("error"):
        return res["error"]
    t = res[metric]
    if base:
        return f"{t / base:.2f}x {fmt_time(res, metric)} {fmt_m(res['rss_kb'])}"
    return f"{fmt_time(res, metric)} {fmt_m(res['rss_kb'])}"


def print_table(results, impls, metric, markdown):
    rows = []
    head = ["bench", "lipq"] + [p for p in impls if p != "lipq"]
    for bench, per in results:
        lip = per.get("lipq")
        base = lip[metric] if lip and not lip.get("error") else None
        if lip is None:
            lcell = "n/a"
        elif lip.get("error"):
            lcell = "n/a (" + lip["error"] + ")"
        else:
            lcell = f"{fmt_time(lip, metric)} {fmt_m(lip['rss_kb'])}"
        row = [bench, lcell]
        for p in head[2:]:
            row.append(cell(per.get(p), base, metric))
        rows.append(row)
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|")
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        w = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
        line = lambda r: "  ".join(r[i].ljust(w[i]) if i == 0 else r[i].rjust(w[i])
                                   for i in range(len(r)))
        print(line(head))
        print("  ".join("-" * x for x in w))
        for r in rows:
            print(line(r))
    if any(x and not x.get("error") and unsteady(x, metric)
           for _, per in results for x in per.values()):
        print(f"~: that program's runs spread by more than {SPREAD_MARK:.0%} of the median "
              f"(max - min); run it again with more runs (-n) before reading its ratio")


# ---------------------------------------------------------------- main

def main():
    names = [b[0] for b in BENCHMARKS]
    ap = argparse.ArgumentParser(
        prog="bench/run",
        description="Run the lipq benchmark suite against its peers.",
        epilog="benchmarks: " + ", ".join(names) + ".  lipq binary: $LIPQ (default build/lipq).")
    ap.add_argument("bench", nargs="*", help="benchmarks to run (default: all)")
    ap.add_argument("-n", "--runs", type=int, default=5,
                    help="timed runs per program (default 5)")
    ap.add_argument("--budget", type=float, default=8.0,
                    help="stop repeating a program once its runs of one benchmark "
                         "have taken this many seconds (default 8; 0 = always N runs)")
    ap.add_argument("--timeout", type=float, default=300.0,
                    help="kill a single run after this many seconds (default 300)")
    ap.add_argument("--peers", default=",".join(PEERS),
                    help="comma-separated peers (default: " + ",".join(PEERS) + "; '' for none)")
    ap.add_argument("--no-lipq", action="store_true", help="run the peers only")
    ap.add_argument("--no-install", action="store_true", help="do not apt-get missing peers")
    ap.add_argument("--metric", choices=["wall", "cpu"], default="wall",
                    help="time shown and compared: wall-clock (default) or user+system CPU")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--json", metavar="FILE", help="also write all measurements to FILE")
    ap.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    ap.add_argument("--from-json", metavar="FILE",
                    help="do not run: print the table of a run saved with --json")
    args = ap.parse_args()

    if args.from_json:
        with open(args.from_json) as f:
            saved = json.load(f)
        res = [(b, per) for b, per in saved["results"].items()
               if not args.bench or b in args.bench]
        cols = ["lipq"] + [p for p in PEERS if any(p in per for _, per in res)]
        print(f"median {args.metric} time; {saved['runs']} runs, budget {saved['budget']:g}s")
        print_table(res, cols, args.metric, args.markdown)
        return 0

    if args.list:
        for n, exp, only, desc in BENCHMARKS:
            print(f"{n:11} {desc}" + (f"  [{', '.join(only)} only]" if only else ""))
        return 0
    for b in args.bench:
        if b not in names:
            ap.error(f"unknown benchmark {b!r}; known: {', '.join(names)}")
    benches = [b for b in BENCHMARKS if (not args.bench or b[0] in args.bench)]

    peers = [p.strip() for p in args.peers.split(",") if p.strip()]
    for p in peers:
        if p not in PEERS:
            ap.error(f"unknown peer {p!r}; known: {', '.join(PEERS)}")
    peers = ensure_tools(peers, not args.no_install)
    if not os.path.exists("/usr/bin/time"):
        log("! /usr/bin/time is missing (apt-get install time)")
        return 2

    lipq_cmd = None
    if not args.no_lipq:
        lipq = os.environ.get("LIPQ", "build/lipq")
        lipq_cmd = shlex.split(lipq)
        exe = lipq_cmd[0] if os.path.isabs(lipq_cmd[0]) else os.path.join(ROOT, lipq_cmd[0])
        if os.path.isfile(exe) and os.access(exe, os.X_OK):
            lipq_cmd[0] = exe
        elif shutil.which(lipq_cmd[0]) and os.sep not in lipq_cmd[0]:
            lipq_cmd[0] = shutil.which(lipq_cmd[0])
        else:
            log(f"! lipq binary {lipq!r} not found: lipq marked n/a")
            lipq_cmd = None
    impls = (["lipq"] if lipq_cmd else []) + peers

    somers = build_somers() if have("gcc") else None
    load0 = os.getloadavg()
    log(f"# {os.cpu_count()} cpus, load average {load0[0]:.2f} at start; "
        f"{args.runs} runs (budget {args.budget:g}s), metric {args.metric}")

    results = []   # [(bench, {impl: summary})]
    raw = {}
    t_start = time.time()
    for name, expected, only, desc in benches:
        launches = STARTUP_LAUNCHES if name == "startup" else 1
        taking = [i for i in impls if only is None or i in only]
        cmds, per = {}, {}
        if not args.no_lipq and lipq_cmd is None and (only is None or "lipq" in only):
            per["lipq"] = None
        for impl in taking:
            src = source_of(impl, name)
            if src is None:
                continue
            argv, err = build(impl, name, src, lipq_cmd)
            if argv is None:
                log(f"! {name}/{impl}: build failed:\n{err[-2000:]}")
                per[impl] = dict(error="BUILD")
                continue
            cmds[impl] = argv
        runs = {i: [] for i in cmds}
        failed = {}
        for r in range(args.runs):
            for impl, argv in cmds.items():   # lipq first, then each peer, each round
                if impl in failed:
                    continue
                done = runs[impl]
                if done and (len(done) >= args.runs or
                             (args.budget > 0 and sum(x["wall"] for x in done) >= args.budget)):
                    continue
                res = run_once(argv, args.timeout, launches)
                got = last_line(res["out"])
                if res["ok"] and expected is not None and got != expected:
                    res["ok"], res["why"] = False, f"printed {got!r}, expected {expected!r}"
                log(f"  {name:10} {impl:9} run {r + 1}: "
                    + (f"{res['wall']:.3f}s wall {res['cpu']:.3f}s cpu {fmt_m(res['rss_kb'])}"
                       if res["ok"] else f"FAILED ({res['why']})"))
                if not res["ok"]:
                    tail = (res["err"] or res["out"] or "").strip()[-600:]
                    if tail:
                        log("    " + tail.replace("\n", "\n    "))
                    failed[impl] = ("WRONG" if res["why"].startswith("printed") else
                                    "TIMEOUT" if res["why"].startswith("timeout") else "FAIL")
                    continue
                done.append(res)
        for impl in cmds:
            if impl in failed:
                per[impl] = dict(error=failed[impl])
            elif runs[impl]:
                rs = runs[impl]
                per[impl] = dict(
                    wall=statistics.median(x["wall"] for x in rs),
                    cpu=statistics.median(x["cpu"] for x in rs),
                    wall_min=min(x["wall"] for x in rs), wall_max=max(x["wall"] for x in rs),
                    cpu_min=min(x["cpu"] for x in rs), cpu_max=max(x["cpu"] for x in rs),
                    rss_kb=max((x["rss_kb"] or 0) for x in rs) or None,
                    runs=len(rs))
        raw[name] = per
        results.append((name, per))

    load1 = os.getloadavg()
    print()
    print(f"lipq benchmarks: median {args.metric} time of each program; lipq column: "
          f"its time and peak RSS; peer columns: peer/lipq ratio (>1: lipq faster), "
          f"peer time, peak RSS.  startup = {STARTUP_LAUNCHES} launches.")
    print_table(results, impls if lipq_cmd else ["lipq"] + peers, args.metric, args.markdown)
    if somers:
        t0 = time.perf_counter()
        r = sh([somers, "14"])
        print(f"C reference: nqueens_somers 14 = {r.stdout.strip()} in "
              f"{time.perf_counter() - t0:.2f}s wall")
    print(f"load average {load0[0]:.2f} at start, {load1[0]:.2f} at end; "
          f"total {time.time() - t_start:.0f}s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(metric=args.metric, runs=args.runs, budget=args.budget,
                           load=[load0, load1], results=raw), f, indent=1)
    bad = [b for b, per in results for i, x in per.items()
           if x and x.get("error") and i != "lipq"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
