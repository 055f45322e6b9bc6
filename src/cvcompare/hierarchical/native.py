"""How the native runner builds and runs its executable (:class:`~.runners.NativeRunner`).

The program is compiled, once per machine and under a file lock (:mod:`.cache`), into a
small executable (``stan_driver.cpp``, shipped with the package) with the Stan compiler,
Stan headers and TBB library that PyStan's ``httpstan`` package installs, and the local C++
compiler (``$CXX`` or ``g++``), for the host's CPU (``-march=native`` where the compiler
accepts it: 1.2 to 1.3x faster fits here; the compiler's expansion of it, which names the
CPU and its instruction sets, is part of the build's cache key, so a cache directory shared
between different machines never hands one of them an executable built for another), and
with more inlining than GCC's default (``--param=inline-unit-growth=150``: 5% faster fits,
the same draws). The link wraps ``malloc`` so that the blocks of Stan's autodiff arena are
64-byte aligned, which makes the draws independent of threads and scheduling (see the top
of ``stan_driver.cpp``).

One process runs all chains in parallel threads, as many as chains and at most the CPUs the
process may use (:func:`usable_cpus`), and hands back only the kept draws, in binary; each
fit uses its own temporary directory (:func:`driver_files`), removed afterwards. The driver
runs with a larger per-thread cache of freed memory in glibc's malloc
(:data:`_MALLOC_TUNABLES`).
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

from .cache import (
    STANC_OPTIMISATION,
    announce_build,
    cache_directory,
    digest,
    file_lock,
    json_data,
    waiting_message,
)

__all__ = [
    "build_executable",
    "driver_environment",
    "driver_files",
    "native_available",
    "run_checked",
    "usable_cpus",
]

_NATIVE_MACROS = (
    "-DSTAN_THREADS",
    "-D_REENTRANT",
    "-DBOOST_DISABLE_ASSERTS",
    "-D_GLIBCXX_USE_CXX11_ABI=0",  # as httpstan: its TBB library is built with the old ABI
)
_NATIVE_FLAGS = ("-std=c++17", "-O3", "-w")
#: Every malloc of the native program returns 64-byte aligned memory, which makes its draws
#: independent of threads and scheduling (see the top of ``stan_driver.cpp``).
_NATIVE_LINK_FLAGS = ("-Wl,--wrap=malloc",)
#: GCC's limit on how much inlining may grow a translation unit, raised from its default of
#: 40%: more of Stan's autodiff and sampler code is inlined, which makes fits about 5% faster
#: with the same draws, and the build about 100 s instead of 75 s (see the module docstring).
_INLINING_FLAGS = ("--param=inline-unit-growth=150",)
#: glibc's malloc keeps up to 7 freed blocks of each size per thread for quick reuse (its
#: "tcache"); Stan's own NUTS code allocates and frees vectors of the parameters' size more
#: often than that within one trajectory, and the surplus went through malloc's slower shared
#: lists (about 10% of a fit's time). The native driver runs with room for 256 blocks of a
#: size: fits with Stan's transition (``stan_transition=True``) about 10% faster, with the
#: package's, which allocates little, a few percent; the same draws either way (no result
#: depends on where memory lies; see the top of ``stan_driver.cpp``). glibc reads the setting
#: at start-up from the environment; other C libraries ignore it.
_MALLOC_TUNABLES = "glibc.malloc.tcache_count=256"
#: The C++ headers that the native driver includes: arithmetic on four numbers at a time,
#: the hand-written log density and gradient of ``hierarchical.stan`` built on it, and
#: Stan's NUTS transition without allocations.
_DRIVER_HEADERS = ("lanes.hpp", "hierarchical_gradient.hpp", "nuts_sampler.hpp")


def _compiler() -> str | None:
    return shutil.which(os.environ.get("CXX", "g++"))


@functools.cache
def _host_cpu_flags(compiler: str) -> tuple[tuple[str, ...], str]:
    """``-march=native`` and what the compiler makes of it, or nothing if it refuses the flag.

    Returns the flags to add and the compiler's dry-run description of them (``-###``: for
    GCC and Clang, the target CPU and every instruction set enabled), which identifies the
    machine in the build's cache key. Asked once per process and compiler.
    """
    flags = ("-march=native",)
    probe = [compiler, *flags, "-###", "-E", "-x", "c++", os.devnull]
    done = subprocess.run(probe, capture_output=True, text=True)
    if done.returncode != 0:
        return (), ""
    return flags, done.stderr


@functools.cache
def _inlining_flags(compiler: str) -> tuple[str, ...]:
    """:data:`_INLINING_FLAGS` if the compiler accepts them (GCC), else nothing.

    Checked by compiling an empty file, which is where GCC validates ``--param`` names.
    """
    probe = [compiler, *_INLINING_FLAGS, "-fsyntax-only", "-x", "c++", os.devnull]
    done = subprocess.run(probe, capture_output=True, text=True)
    return _INLINING_FLAGS if done.returncode == 0 else ()


def native_available() -> bool:
    """True when the native runner can build programs: httpstan and a C++ compiler.

    Returns
    -------
    bool
        Whether httpstan imports and ``$CXX`` (or ``g++``) is found on ``PATH``.
    """
    try:
        import httpstan  # noqa: F401
    except ImportError:
        return False
    return _compiler() is not None


def build_executable(code: str) -> Path:
    """Path of the native executable of the Stan program ``code``; built on first use
    (:data:`~.cache.BUILD_DURATION`), then reused.

    The build's directory is named after a digest of the program, the driver's sources,
    httpstan's version, the compiler, the CPU and every flag, under the package's cache
    directory; the build runs under a lock on it, so concurrent processes build it once.

    Parameters
    ----------
    code : str
        The Stan program, e.g. :func:`~.cache.program_code`.

    Returns
    -------
    pathlib.Path
        The executable, ``<cache>/native/<digest>/program``.

    Raises
    ------
    ImportError
        If httpstan is not installed.
    RuntimeError
        If no C++ compiler is found, or the Stan compiler or the C++ compiler fails (the
        message ends with its error output).
    """
    import httpstan

    stan_root = Path(httpstan.__file__).parent
    compiler = _compiler()
    if compiler is None:
        raise RuntimeError("runner 'native' needs a C++ compiler ($CXX or g++) on PATH")
    package = resources.files("cvcompare.hierarchical")
    driver = package.joinpath("stan_driver.cpp").read_text()
    headers = {name: package.joinpath(name).read_text() for name in _DRIVER_HEADERS}
    cpu_flags, cpu = _host_cpu_flags(compiler)
    flags = (*_NATIVE_FLAGS, *cpu_flags, *_inlining_flags(compiler), *_NATIVE_MACROS)
    stanc = [str(stan_root / "stanc"), f"--{STANC_OPTIMISATION}"]
    key = digest(
        code, driver, *headers.values(), httpstan.__version__, compiler, cpu,
        *stanc[1:], *flags, *_NATIVE_LINK_FLAGS,
    )  # fmt: skip
    build = cache_directory() / "native" / key[:16]
    exe = build / "program"
    with file_lock(build.with_suffix(".lock"), waiting_message("native")):
        if exe.exists():
            return exe
        announce_build("native", build)
        build.mkdir(parents=True, exist_ok=True)
        (build / "program.stan").write_text(code)
        (build / "driver.cpp").write_text(driver)
        for name, text in headers.items():
            (build / name).write_text(text)
        run_checked(
            [*stanc, "--o", str(build / "program.hpp"), str(build / "program.stan")],
            "stanc",
        )
        lib = stan_root / "lib"
        partial = build / "program.partial"
        run_checked(
            [compiler, *flags, f"-I{stan_root / 'include'}",
             "-include", str(build / "program.hpp"), str(build / "driver.cpp"),
             "-o", str(partial), *_NATIVE_LINK_FLAGS, f"-L{lib}", "-ltbb",
             f"-Wl,-rpath,{lib}"],
            "the C++ compiler",
        )  # fmt: skip
        partial.replace(exe)
    return exe


@contextlib.contextmanager
def driver_files(data: dict[str, object]) -> Iterator[tuple[Path, Path]]:
    """A temporary directory (removed afterwards) holding the native driver's data file,
    written from ``data``, and the path of its output file."""
    with tempfile.TemporaryDirectory(prefix="cvcompare-native-") as tmp:
        data_path = Path(tmp) / "data.json"
        data_path.write_text(json_data(data))
        yield data_path, Path(tmp) / "output"


def usable_cpus() -> int:
    """CPUs this process may use: those it may run on (``taskset``, a container's or a
    SLURM job's CPU set), at most ``$CVCOMPARE_THREADS`` where that is set (the workflow
    sets it to the threads a job asked for, so a job never runs more threads than it
    reserved). The draws do not depend on it."""
    if hasattr(os, "sched_getaffinity"):
        count = len(os.sched_getaffinity(0))
    else:
        count = os.cpu_count() or 1
    cap = os.environ.get("CVCOMPARE_THREADS")
    if cap is None:
        return count
    if not cap.isdigit() or int(cap) < 1:
        raise ValueError(f"CVCOMPARE_THREADS: expected a whole number >= 1, got {cap!r}")
    return min(count, int(cap))


def driver_environment() -> dict[str, str]:
    """This process's environment, with :data:`_MALLOC_TUNABLES` put before any glibc
    tunables the user set (glibc applies them in order, so the user's prevail)."""
    env = dict(os.environ)
    tunables = env.get("GLIBC_TUNABLES")
    env["GLIBC_TUNABLES"] = f"{_MALLOC_TUNABLES}:{tunables}" if tunables else _MALLOC_TUNABLES
    return env


def run_checked(command: list[str], what: str, env: dict[str, str] | None = None) -> str:
    """Run ``command`` (in the environment ``env``, by default this process's) and return
    its error output; on failure raise RuntimeError with the end of that output."""
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        message = (done.stderr or done.stdout).strip()[-4000:]
        raise RuntimeError(f"{what} failed (exit status {done.returncode}):\n{message}")
    return done.stderr
