#!/usr/bin/env python3
"""Run PETSc's own tutorials, unchanged, with aij and with aijtuned, test by test from their /*TEST*/ blocks.

Each test runs twice with the same options plus -mat_type T -dm_mat_type T (T = the reference type, aij unless
--ref names another such as aijcusparse, then aijtuned, loaded with -dll_append); aijtuned's output is read with
its plans left out and its type names as aij's (views print them), and so is the reference's.  Per test:

    OK          aijtuned's output equals the output file PETSc recorded
    AS-AIJ      it equals aij's run, which itself differs from the recording (another PETSc build)
    REGRESSION  aij's run equals the recording and aijtuned's does not: aijtuned's fault
    BOTH-FAIL   both differ from the recording and from each other (aij fails too: PETSc's limit, or a
                display, timing or random output)

It ends with the counts and exits 1 if there is a REGRESSION.  Tests needing packages, GPUs or files this
PETSc lacks are left out, as are those without a recorded output.  Slow (every test twice); not part of
`make test`.

    make lib && python3 tests/sweep_tutorials.py [--build build] [--per-test 2] [--ref aijcusparse] ts/tutorials/ex13 ...

On a GPU, --ref aijcusparse compares aijtuned with the type it is built on; the verdicts' "aij" is then that type.
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the suite's runner: PETSc's locations, its test language's parser and loops)

PLAN_LINE = re.compile(r"aijtuned plan|^ *row lengths:|^ *[a-z]+ *: [0-9]+ strips,|^ *strip [0-9]+:|^ *ghost exchange:")


# Lines of the sweep's own making: the warning for the type options a program never reads (-dm_mat_type where it
# has no DM), and the date and host in an error's header
SWEEP_LINE = re.compile(r"^WARNING! There are options you set that were not used!$|^WARNING! could be spelling mistake, etc!$|"
                        r"^There is one unused database option\. It is:$|^Option left: name:-(dm_)?mat_type value: |PETSC ERROR: .* on \S+ by ")


def as_aij(text, typ="aijtuned"):
    keep = (l for l in text.splitlines() if not PLAN_LINE.search(l) and not SWEEP_LINE.search(l))
    return re.sub(typ, "aij", "\n".join(keep))


def normal(text, ref):
    """Both runs' output read alike: aijtuned's plans left out, its type names (and the library's in option tables)
    and the reference type's (aijtuned's products are of its base type) read as aij's."""
    return as_aij(as_aij(text), ref)


def run_once(exe, cwd, nsize, args, typ, lib, mpiexec, filt, env):
    cmd = "%s -n %d %s %s -dll_append %s -mat_type %s -dm_mat_type %s" % (mpiexec, nsize, exe, args, lib, typ, typ)
    if filt:
        cmd = "(%s) 2>&1 | %s" % (cmd, filt)
    try:
        p = subprocess.run(["bash", "-c", cmd + " 2>&1"], cwd=cwd, env=env, capture_output=True, timeout=120)
        return p.returncode, p.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return -1, "timed out"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--mpiexec", default="mpiexec --oversubscribe")
    ap.add_argument("--ref", default="aij", help="the reference matrix type (default aij)")
    ap.add_argument("--keep", help="a folder where each test not OK or AS-AIJ leaves both outputs (N.ref, N.tuned)")
    ap.add_argument("--per-test", type=int, default=2, help="argument combinations of a test's {{...}} loops run (default 2)")
    ap.add_argument("examples", nargs="+", help="PETSc examples by path under src/, without .c: ts/tutorials/ex13")
    opts = ap.parse_args()
    petsc_dir = os.environ.get("PETSC_DIR", "/usr/lib/petsc")
    conf = run.petsc_config(petsc_dir, os.environ.get("PETSC_ARCH", ""))
    testparse = run.find_testparse(petsc_dir)
    src_root = run.petsc_examples(petsc_dir)
    lib = os.path.join(run.ROOT, opts.build, "lib", "libaijtuned.so")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")
    counts = {}
    for ex in opts.examples:
        exe = os.path.join(run.ROOT, opts.build, "tutorials", ex)
        if subprocess.run(["make", "-s", "BUILD=" + opts.build, os.path.relpath(exe, run.ROOT)], cwd=run.ROOT).returncode:
            print("BUILD-FAIL  %s" % ex)
            continue
        src = os.path.join(src_root, "src", ex + ".c")
        parsed = testparse.parseTestFile(src, 0).get(os.path.basename(src), {})
        for name, t in sorted(parsed.items()):
            if not isinstance(t, dict) or not name.startswith("run"):
                continue
            requires = (parsed.get("requires", "") + " " + t.get("requires", "")).split()
            if not all(run.requirement_met(r, conf) for r in requires):
                continue
            suffix = t.get("suffix", "")
            output = os.path.join(os.path.dirname(src), t.get("output_file", "output/%s_%s.out" % (os.path.basename(ex), suffix or "1")))
            if not os.path.isfile(output):
                continue
            expected = open(output).read()
            if t.get("filter_output"):
                expected = subprocess.run(["bash", "-c", "cat %s | %s" % (output, t["filter_output"])], capture_output=True).stdout.decode()
            expected = as_aij(expected)
            cwd = os.path.dirname(src) if os.access(os.path.dirname(src), os.W_OK) else "/tmp"
            for nsize in run.expand(str(t.get("nsize", "1"))):
                for args in list(run.expand(t.get("args", "")))[: opts.per_test]:
                    rc_a, out_a = run_once(exe, cwd, int(nsize), args, opts.ref, lib, opts.mpiexec, t.get("filter"), env)
                    out_a = normal(out_a, opts.ref)
                    rc_t, out_t = run_once(exe, cwd, int(nsize), args, "aijtuned", lib, opts.mpiexec, t.get("filter"), env)
                    out_t = normal(out_t, opts.ref)
                    aij_ok = rc_a == 0 and out_a.split() == expected.split()
                    if rc_t == 0 and out_t.split() == expected.split():
                        verdict = "OK"
                    elif rc_t == 0 and rc_a == 0 and out_t.split() == out_a.split():
                        verdict = "AS-AIJ"
                    elif aij_ok:
                        verdict = "REGRESSION"
                    else:
                        verdict = "BOTH-FAIL"
                    counts[verdict] = counts.get(verdict, 0) + 1
                    if opts.keep and verdict not in ("OK", "AS-AIJ"):
                        os.makedirs(opts.keep, exist_ok=True)
                        stem = os.path.join(opts.keep, "%s_%s_n%s_%d" % (ex.replace("/", "_"), suffix, nsize, sum(counts.values())))
                        for ext, text in (("ref", out_a), ("tuned", out_t)):
                            with open("%s.%s" % (stem, ext), "w") as f:
                                f.write("%s -n %s %s\n%s" % (ex, nsize, args, text))
                    print("%-11s %s %s -n %s %s" % (verdict, ex, suffix, nsize, args), flush=True)
                    if verdict == "REGRESSION":
                        print("  " + out_t[-1500:].replace("\n", "\n  "))
    print(", ".join("%d %s" % (n, v) for v, n in sorted(counts.items())))
    return 1 if counts.get("REGRESSION") else 0


if __name__ == "__main__":
    sys.exit(main())
