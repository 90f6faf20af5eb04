#!/usr/bin/env python3
"""Run the /*TEST ... TEST*/ blocks of aijtuned's examples and tests.

The blocks are written in PETSc's test language and parsed by PETSc's own testparse.py (from the PETSc
source tree, a PETSc install, or Debian's libpetsc*-dev-examples).  Each test runs its program with its
args (every combination of {{a b}} loops, nsize included), pipes stdout and stderr through its filter
and compares the result with its output file.  The run ends with the line "N passed, N failed".

    python3 tests/run.py [--build build] [--mpiexec "mpiexec --oversubscribe"] [-j 2] [PATTERN ...]
"""
import argparse
import concurrent.futures
import difflib
import glob
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE_DIRS = ["tests/planner", "tests/kernels", "tests/mat", "tests/petsc", "examples/tutorials"]
NO_MPI_DIRS = {"tests/planner", "tests/kernels"}  # plain C programs, run without mpiexec


def petsc_examples(petsc_dir):
    """The folder holding PETSc's example sources (src/...): a source tree, an install, or Debian's package."""
    for c in [os.path.join(petsc_dir, "share", "petsc", "examples"), petsc_dir] + sorted(glob.glob("/usr/share/petsc/*/share/petsc/examples"), reverse=True):
        if os.path.isfile(os.path.join(c, "src", "ksp", "ksp", "tutorials", "ex2.c")):
            return c
    return ""


def find_testparse(petsc_dir):
    candidates = [os.path.join(petsc_dir, "config"), os.path.join(petsc_dir, "share", "petsc", "examples", "config")]
    candidates += sorted(glob.glob("/usr/share/petsc/*/share/petsc/examples/config"), reverse=True)
    for c in candidates:
        if os.path.isfile(os.path.join(c, "testparse.py")):
            sys.path.insert(0, c)
            import testparse  # noqa: E402  (PETSc's parser)
            return testparse
    sys.exit("run.py: PETSc's testparse.py not found (install libpetsc3.18-dev-examples or set PETSC_DIR)")


def petsc_config(petsc_dir, petsc_arch):
    """Macros defined in petscconf.h, for 'requires:'."""
    for path in (os.path.join(petsc_dir, petsc_arch, "include", "petscconf.h"), os.path.join(petsc_dir, "include", "petscconf.h")):
        if os.path.isfile(path):
            with open(path) as f:
                return {m.group(1) for m in re.finditer(r"^#define\s+(\w+)", f.read(), re.M)}
    sys.exit("run.py: petscconf.h not found under PETSC_DIR=%s PETSC_ARCH=%s" % (petsc_dir, petsc_arch))


def requirement_met(token, conf):
    negate = token.startswith("!")
    token = token.lstrip("!")
    m = re.match(r"defined\((\w+)\)", token)
    if m:
        have = m.group(1) in conf
    elif token in ("single", "double", "__float128"):
        have = "PETSC_USE_REAL_" + token.upper().strip("_") in conf
    elif token == "complex":
        have = "PETSC_USE_COMPLEX" in conf
    elif token == "64bitindices":
        have = "PETSC_USE_64BIT_INDICES" in conf
    else:
        have = "PETSC_HAVE_" + token.upper() in conf
    return have != negate


# A test that names none of these requires real double scalars: elsewhere aijtuned refuses its matrices
SCALAR_TOKENS = ("complex", "double", "single", "__float128")

LOOP = re.compile(r"\{\{(.*?)\}\}")


def expand(text):
    """All expansions of a string with {{a b c}} loops."""
    parts = LOOP.split(text)
    literals, choices = parts[0::2], [p.split() for p in parts[1::2]]
    for combo in itertools.product(*choices):
        out = literals[0]
        for value, lit in zip(combo, literals[1:]):
            out += value + lit
        yield out


def collect(testparse, conf, patterns):
    tests = []
    for srcdir in SOURCE_DIRS:
        for src in sorted(glob.glob(os.path.join(ROOT, srcdir, "*.c")) + glob.glob(os.path.join(ROOT, srcdir, "*.test"))):
            exname = os.path.splitext(os.path.basename(src))[0]
            parsed = testparse.parseTestFile(src, 0).get(os.path.basename(src), {})
            build_requires = parsed.get("requires", "")
            for name, t in sorted(parsed.items()):
                if not isinstance(t, dict) or not name.startswith("run"):
                    continue
                suffix = t.get("suffix", "")
                label_root = exname + ("_" + suffix if suffix else "")
                default_out = "output/%s_%s.out" % (exname, suffix if suffix else "1")
                requires = (build_requires + " " + t.get("requires", "")).split()
                if not any(r.lstrip("!") in SCALAR_TOKENS for r in requires):
                    requires += ["double", "!complex"]  # aijtuned computes in real double alone (tests/mat/scalar.c)
                unmet = [r for r in requires if not requirement_met(r, conf)]
                for nsize in expand(str(t.get("nsize", "1"))):
                    for args in expand(t.get("args", "")):
                        label = "%s %s-n%s %s" % (srcdir, label_root, nsize, args)
                        if patterns and not any(p in label for p in patterns):
                            continue
                        tests.append(dict(srcdir=srcdir, exname=exname, label=label, nsize=int(nsize), args=args, unmet=unmet,
                                          output=os.path.join(ROOT, srcdir, os.path.expandvars(t.get("output_file", default_out))),
                                          filter=t.get("filter"), filter_output=t.get("filter_output"),
                                          timeout=300 * float(t.get("timeoutfactor", 1))))
    return tests


def run_one(t, build, mpiexec):
    exe = os.path.join(ROOT, build, t["srcdir"], t["exname"])
    if not os.path.isfile(exe):
        return False, "missing executable %s (run make first)" % exe
    cmd = "%s %s" % (exe, t["args"])
    if t["srcdir"] not in NO_MPI_DIRS:
        cmd = "%s -n %d %s" % (mpiexec, t["nsize"], cmd)
    if t["filter"]:
        cmd = "(%s) 2>&1 | %s" % (cmd, t["filter"])
    # Each run gets Open MPI session directories of its own: runs in parallel that share /tmp/ompi.<host>.<uid>
    # race, one removing it while another makes its pid directory there ("A call to mkdir was unable to
    # create the desired directory", open-mpi/ompi#8510); a test failed so once in CI.
    session = tempfile.mkdtemp(prefix="aijt-mpi-")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1",
               OMPI_MCA_orte_tmpdir_base=session, PRTE_MCA_prte_tmpdir_base=session)
    try:
        p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=os.path.join(ROOT, t["srcdir"]), env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=t["timeout"])
    except subprocess.TimeoutExpired:
        return False, "timed out after %g s: %s" % (t["timeout"], cmd)
    finally:
        shutil.rmtree(session, ignore_errors=True)
    out = p.stdout.decode(errors="replace")
    if p.returncode:
        return False, "exit code %d: %s\n%s" % (p.returncode, cmd, out[-4000:])
    if not os.path.isfile(t["output"]):
        return False, "missing output file %s; the run printed:\n%s" % (t["output"], out)
    if t["filter_output"]:
        expected = subprocess.run(["bash", "-c", "cat %s | %s" % (t["output"], t["filter_output"])], stdout=subprocess.PIPE).stdout.decode()
    else:
        with open(t["output"]) as f:
            expected = f.read()
    if out.split() == expected.split():  # as PETSc's harness, blanks do not count
        return True, ""
    diff = difflib.unified_diff(expected.splitlines(), out.splitlines(), "expected " + os.path.relpath(t["output"], ROOT), "got", lineterm="", n=1)
    return False, "%s\n%s" % (cmd, "\n".join(list(diff)[:60]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--mpiexec", default="mpiexec --oversubscribe")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("patterns", nargs="*", help="run only tests whose label contains one of these")
    opts = ap.parse_args()
    petsc_dir = os.environ.get("PETSC_DIR", "/usr/lib/petsc")
    petsc_arch = os.environ.get("PETSC_ARCH", "")
    testparse = find_testparse(petsc_dir)
    os.environ["PETSC_EXAMPLES"] = petsc_examples(petsc_dir)  # for output files of PETSc's own examples
    os.environ["AIJTUNED_LIB"] = os.path.join(ROOT, opts.build, "lib", "libaijtuned.so")  # for -dll_append
    os.environ["AIJTUNED_INSTALLED_LIB"] = os.path.join(ROOT, opts.build, "install", "lib", "libaijtuned.so")  # make install's copy
    conf = petsc_config(petsc_dir, petsc_arch)
    if "PETSC_HAVE_CUDA" in conf and "use_gpu_aware_mpi" not in os.environ.get("PETSC_OPTIONS", ""):
        # PETSc with CUDA refuses an MPI that is not CUDA-aware (Debian's and Ubuntu's OpenMPI) unless told
        os.environ["PETSC_OPTIONS"] = (os.environ.get("PETSC_OPTIONS", "") + " -use_gpu_aware_mpi 0").strip()
    tests = collect(testparse, conf, opts.patterns)
    passed = failed = skipped = 0
    runnable = [t for t in tests if not t["unmet"]]
    for t in tests:
        if t["unmet"]:
            skipped += 1
            print("skip %s (requires %s)" % (t["label"], " ".join(t["unmet"])))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        futures = [pool.submit(run_one, t, opts.build, opts.mpiexec) for t in runnable]
        for t, fut in zip(runnable, futures):
            ok, why = fut.result()
            if ok:
                passed += 1
                print("ok %s" % t["label"], flush=True)
            else:
                failed += 1
                print("not ok %s\n  %s" % (t["label"], why.replace("\n", "\n  ")), flush=True)
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
