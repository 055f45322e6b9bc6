"""Run a Stan program through CmdStan (cmdstanpy), a native build, or PyStan 3, safely in parallel.

The runners take the same Stan program and the same data and return the draws as
``(chains, draws, ...)`` arrays with the sampler's divergences, tree depths and energies.
All three run Stan's NUTS with diagonal-metric adaptation
(``stan::services::sample::hmc_nuts_diag_e_adapt``) with the same defaults; the native
runner builds each trajectory with the package's copy of Stan's code, which gives Stan's
draws bit for bit without allocating memory at every leapfrog step.

CmdStan and the native runner translate the program with the Stan compiler's level-1
optimisations (``stanc --O1``: vectors of parameters held as one autodiff node, which
makes the gradient about 1.5x cheaper); httpstan offers no way to pass them, so PyStan runs
the unoptimised translation. The density is the same, but floating-point rounding differs,
so the same seed gives different (equally valid) draws on PyStan than on the other two.

* :class:`CmdStanPyRunner` compiles the program once per machine into the user cache
  directory (``$XDG_CACHE_HOME/cvcompare`` or ``~/.cache/cvcompare``, or
  ``$CVCOMPARE_CACHE_DIR``), under an exclusive file lock so that processes starting at the
  same time never compile concurrently; every fit writes its CSV files to its own temporary
  directory, removed afterwards.
* :class:`NativeRunner` needs no CmdStan: it compiles the program, once per machine and under
  the same kind of lock, into a small executable (``stan_driver.cpp``, shipped with the
  package) with the Stan compiler, Stan headers and TBB library that PyStan's ``httpstan``
  package installs, and the local C++ compiler, for the host's CPU (:mod:`.native` says how).
  One process runs all chains in parallel threads and hands back only the kept draws, in
  binary; each fit uses its own temporary directory, removed afterwards. For the package's
  program the sampler's log density and gradient are not Stan's autodiff but the
  hand-written C++ of ``hierarchical_gradient.hpp``, the same density differentiated by hand
  (checked against autodiff and central differences by the tests, through
  :meth:`NativeRunner.check_gradient`), with its loops over data sets vectorised (four data
  sets per SIMD instruction, with an exponential of its own), which makes fits about 2.5-3x
  faster than autodiff; its draws for a seed differ from autodiff's (other rounding), not its
  posterior. The trajectories are built by ``nuts_sampler.hpp``, Stan's NUTS transition with
  its work vectors allocated once per chain, states swapped instead of copied and the
  gradient of the previous draw reused: Stan's draws, bit for bit (the tests compare the
  output with that of Stan's own code, ``NativeRunner(stan_transition=True)``, byte for
  byte), for a fit about 1.2x cheaper in CPU time.
* :class:`PyStanRunner` compiles through httpstan, which caches the extension module in its
  own user cache directory (never in the working directory). The first compilation is made
  under a file lock in that directory. httpstan also caches every seeded fit on disk under
  a name derived from the model, data and arguments; the runner deletes the fit files once
  read, and holds a lock on the fit's name meanwhile, so two processes running the same fit
  at the same time cannot read or delete each other's files.

A fit is a function of the data, the settings and the seed alone. With the native runner
the draws are the same bits whatever the number of threads, the CPUs the process may use
(``taskset``, a 1-CPU container or SLURM allocation), the order in which threads take up
chains, the process and the machine's load: the executable aligns the memory of Stan's
autodiff arena so that Eigen's vectorised sums round the same way on every thread (see the
top of ``stan_driver.cpp``). Built without that, for a CPU with AVX (32- or 64-byte SIMD
registers, ``-march=native``), the same seed gave different draws from one run to the next.
PyStan's and a default CmdStan build compile for SSE2, whose 16-byte registers every
``malloc`` already aligns for, and run each chain in its own single-threaded process (PyStan)
or in threads of one (CmdStan), so their draws for a given seed are reproducible on one
installation; the three runners' draws differ from each other (other compiler options),
not their posterior. Every result records the runner and its versions
(:meth:`StanRunner.version`).

PyStan 3 runs an :mod:`asyncio` event loop of its own and therefore cannot be called from
inside a running event loop (e.g. a Jupyter cell); there, apply ``nest_asyncio`` first
(``import nest_asyncio; nest_asyncio.apply()``) or use CmdStan. It works in joblib's loky
worker processes and in separate Snakemake jobs.

References
----------
Carpenter, B. et al. (2017). Stan: a probabilistic programming language. Journal of
Statistical Software 76(1).
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import functools
import importlib
import io
import json
import logging
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cvcompare._validation import check_bool, check_choice

from . import native
from .cache import (
    STANC_OPTIMISATION,
    announce_build,
    cache_directory,
    digest,
    file_lock,
    json_data,
    program_code,
    waiting_message,
)
from .native import native_available

__all__ = [
    "CmdStanPyRunner",
    "GradientCheck",
    "NativeRunner",
    "PyStanRunner",
    "SamplerOutput",
    "StanRunner",
    "build_pystan",
    "cmdstan_available",
    "get_runner",
    "native_available",
]

RUNNERS = ("auto", "native", "pystan", "cmdstanpy")
#: The error raised when no runner can be used because Stan's Python packages are missing
#: (they are the optional ``stan`` extra of the package).
STAN_MISSING = (
    "the hierarchical model needs Stan, which is not installed: pip install '.[stan]' in "
    "cvcompare's repository (PyStan and cmdstanpy)"
)

#: Logger of the runners' warnings (Stan's messages during a fit).
_log = logging.getLogger("cvcompare.hierarchical")

_FIT_LOCK_STRIPES = 256
_BUILD_ATTEMPTS = 4
_SAMPLER_COLUMNS = ("divergent__", "treedepth__", "energy__")
#: Half-width of the uniform draw of each chain's initial values on the unconstrained scale
#: (Stan's "init radius"; its default is 2), the same for every runner. Stan draws them from
#: the chain's own random stream, so they follow from the seed. The program's raw parameters
#: are centred and scaled from the data, so that 0.5 spreads the chains over about one
#: posterior standard deviation around a data-based guess; from Stan's default of 2, the
#: first trial step of the step-size search (step size 1) could throw nu - 1 far into the
#: tails of its map, where it under- or overflows, and every fit logged an error there.
INIT_RADIUS = 0.5


@dataclass(frozen=True)
class SamplerOutput:
    """Post-warm-up draws of one NUTS run.

    Attributes
    ----------
    runner : str
        ``"native"``, ``"pystan"`` or ``"cmdstanpy"``.
    runner_version : str
        The versions of the Stan interface that ran the program (:meth:`StanRunner.version`).
    draws : dict of str to numpy.ndarray
        Each parameter / generated quantity, shape ``(chains, draws, *dims)``.
    divergent, treedepth, energy : numpy.ndarray, shape (chains, draws)
        Sampler diagnostics of every post-warm-up iteration.
    max_treedepth : int
        The tree-depth limit used.
    """

    runner: str
    runner_version: str
    draws: dict[str, np.ndarray]
    divergent: np.ndarray
    treedepth: np.ndarray
    energy: np.ndarray
    max_treedepth: int


@dataclass(frozen=True)
class GradientCheck:
    """Log densities and gradients of the same points from Stan's autodiff and the
    hand-written C++, and central differences (step 1e-4) of the hand-written log density
    (:meth:`NativeRunner.check_gradient`); one row per point.

    Attributes
    ----------
    log_density_stan, log_density : numpy.ndarray, shape (points,)
        The log density from Stan's autodiff and from the hand-written C++.
    gradient_stan, gradient : numpy.ndarray, shape (points, parameters)
        Its gradient on the unconstrained scale, from autodiff and from the hand-written
        C++.
    gradient_differences : numpy.ndarray, shape (points, parameters)
        Central differences of the hand-written log density.
    """

    log_density_stan: np.ndarray
    log_density: np.ndarray
    gradient_stan: np.ndarray
    gradient: np.ndarray
    gradient_differences: np.ndarray


class StanRunner(abc.ABC):
    """Runs one Stan program with NUTS (diagonal metric, adapted during warm-up).

    Parameters
    ----------
    code : str, optional
        A Stan program; by default the package's ``hierarchical.stan``.
    """

    name: str

    def __init__(self, code: str | None = None) -> None:
        self.code = program_code() if code is None else code

    def sample(
        self,
        data: dict[str, object],
        *,
        chains: int,
        warmup: int,
        draws: int,
        seed: int,
        adapt_delta: float = 0.8,
        max_treedepth: int = 10,
    ) -> SamplerOutput:
        """Draw ``chains x draws`` post-warm-up draws; the same inputs give the same draws.

        Parameters
        ----------
        data : dict of str to object
            The program's data, by name (numbers and arrays; e.g.
            :func:`cvcompare.hierarchical.priors.stan_data` for the package's program).
        chains : int
            Number of chains, run in parallel.
        warmup : int
            Warm-up (adaptation) iterations of each chain, discarded.
        draws : int
            Post-warm-up draws kept from each chain (no thinning).
        seed : int
            Stan's random seed; chain ``i`` (from 1) draws from the stream ``(seed, i)``,
            its initial values included (uniform on ``[-r, r]`` on the unconstrained scale,
            ``r`` = :data:`INIT_RADIUS`).
        adapt_delta : float, default 0.8
            Target acceptance rate of the step-size adaptation, in (0, 1).
        max_treedepth : int, default 10
            Largest depth of NUTS's trajectory tree.

        Returns
        -------
        SamplerOutput
            The draws of every parameter and generated quantity, shape
            ``(chains, draws, ...)``, with the sampler's divergences, tree depths and
            energies.
        """
        nuts = _Nuts(chains, warmup, draws, seed, adapt_delta, max_treedepth)
        out, sampler = self._run(data, nuts)
        return SamplerOutput(
            runner=self.name,
            runner_version=self.version(),
            draws=out,
            divergent=sampler["divergent__"].astype(bool),
            treedepth=sampler["treedepth__"].astype(int),
            energy=sampler["energy__"],
            max_treedepth=int(max_treedepth),
        )

    @abc.abstractmethod
    def version(self) -> str:
        """The versions of Stan and of the interface that run the program.

        Returns
        -------
        str
            E.g. ``"Stan 2.35.0, httpstan 4.13.0"``; recorded with every fit.
        """

    @abc.abstractmethod
    def _run(
        self, data: dict[str, object], nuts: _Nuts
    ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        """Return the draws and the sampler diagnostics by name, as (chains, draws, ...)."""


@dataclass(frozen=True)
class _Nuts:
    """Arguments of one NUTS run (see :meth:`StanRunner.sample`)."""

    chains: int
    warmup: int
    draws: int
    seed: int
    adapt_delta: float
    max_treedepth: int


def _split_columns(
    columns: list[str], values: np.ndarray, dims: dict[str, tuple[int, ...]]
) -> dict[str, np.ndarray]:
    """Split ``values`` (chains, draws, columns) into named arrays (chains, draws, *dims).

    ``columns`` hold flat names (``name``, CmdStan's ``name[i]`` or Stan's ``name.i``);
    variables are scalars or vectors, as in the package's programs.
    """
    positions: dict[str, list[int]] = {}
    for i, c in enumerate(columns):
        positions.setdefault(_base_name(c), []).append(i)
    out = {}
    for name, shape in dims.items():
        size = int(np.prod(shape)) if shape else 1
        flat = positions.get(name, [])
        if len(flat) != size:
            raise RuntimeError(f"expected {size} column(s) for {name}, found {len(flat)}")
        block = values[:, :, flat]
        out[name] = block.reshape(values.shape[:2] + tuple(shape)) if shape else block[..., 0]
    return out


def _base_name(column: str) -> str:
    return re.split(r"[.\[]", column, maxsplit=1)[0]


def _column_dims(columns: list[str]) -> dict[str, tuple[int, ...]]:
    """Shapes of the variables behind flat column names (scalars and vectors only)."""
    counts: dict[str, int] = {}
    for c in columns:
        counts[_base_name(c)] = counts.get(_base_name(c), 0) + 1
    return {name: () if name in columns else (k,) for name, k in counts.items()}


def build_pystan(code: str, data: dict[str, object], seed: int | None = None):
    """Compile (once per machine) or load a program with PyStan and bind it to ``data``.

    The build runs under an exclusive lock in httpstan's cache directory, so concurrent
    processes never compile the same program at once; PyStan's console output is silenced.
    PyStan's HTTP client gives up after five minutes, which a first compilation on a busy
    machine can exceed; the compilation goes on and the build is then retried.

    Parameters
    ----------
    code : str
        The Stan program.
    data : dict of str to object
        The program's data, by name.
    seed : int, optional
        PyStan's ``random_seed`` of the model; none by default.

    Returns
    -------
    stan.model.Model
        The compiled model bound to ``data``.

    Raises
    ------
    TimeoutError
        If PyStan's client still times out on the last of the build attempts.
    """
    import httpstan.cache
    import stan

    lock = httpstan.cache.cache_directory() / "cvcompare-build.lock"
    attempt = 1
    with file_lock(lock, waiting_message("PyStan")), _quiet():
        while True:
            try:
                return stan.build(code, data=data, random_seed=seed)
            except TimeoutError:
                if attempt >= _BUILD_ATTEMPTS:
                    raise
                attempt += 1


class PyStanRunner(StanRunner):
    """Run the program through PyStan 3 (httpstan); needs only a C++ compiler.

    Parameters
    ----------
    code : str, optional
        A Stan program; by default the package's ``hierarchical.stan``.
    """

    name = "pystan"

    def version(self) -> str:
        """The versions of Stan, httpstan and PyStan.

        Returns
        -------
        str
            E.g. ``"Stan 2.35.0, httpstan 4.13.0, pystan 3.10.0"``.
        """
        import stan

        return f"{_httpstan_version()}, pystan {stan.__version__}"

    def _run(
        self, data: dict[str, object], nuts: _Nuts
    ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        import httpstan.cache
        import stan.fit

        chains = nuts.chains
        model = build_pystan(self.code, data, nuts.seed)
        args = {
            "function": "stan::services::sample::hmc_nuts_diag_e_adapt",
            "data": model.data,
            "random_seed": int(nuts.seed),
            "num_warmup": int(nuts.warmup),
            "num_samples": int(nuts.draws),
            "num_thin": 1,
            "delta": float(nuts.adapt_delta),
            "max_depth": int(nuts.max_treedepth),
            "init_radius": INIT_RADIUS,
            "refresh": max(1, int(nuts.warmup + nuts.draws)),
        }
        key = digest(model.model_name, json_data(args), str(chains))
        stripe = int(key[:8], 16) % _FIT_LOCK_STRIPES
        lock = httpstan.cache.cache_directory() / "cvcompare-fit-locks" / f"{stripe:03d}.lock"
        with file_lock(lock, "running a PyStan fit whose cached files share this lock"):
            try:
                outputs = asyncio.run(_pystan_fits(model.model_name, args, chains))
            finally:
                _release_chain_processes()
        fit = stan.fit.Fit(
            outputs,
            chains,
            model.param_names,
            model.constrained_param_names,
            model.dims,
            int(nuts.warmup),
            int(nuts.draws),
            1,
            False,
        )
        kept = len(fit["lp__"][0]) // chains

        def by_chain(name: str) -> np.ndarray:
            # PyStan interleaves chains along the last axis: index = draw * chains + chain
            arr = np.asarray(fit[name])
            arr = arr.reshape(arr.shape[:-1] + (kept, chains))
            return np.moveaxis(arr, (-1, -2), (0, 1))

        out = {}
        for name, shape in zip(model.param_names, model.dims, strict=True):
            arr = by_chain(name)
            out[name] = arr.reshape(chains, kept, *shape) if shape else arr.reshape(chains, kept)
        sampler = {name: by_chain(name).reshape(chains, kept) for name in _SAMPLER_COLUMNS}
        return out, sampler


def _release_chain_processes() -> None:
    """Shut down httpstan's pool of chain processes and leave a fresh, idle pool.

    httpstan runs chains in a module-level ``ProcessPoolExecutor`` whose forked workers
    outlive the fit. A process that ends without running the ``threading`` exit hooks
    that would stop them (a multiprocessing or joblib/loky worker) then waits for them
    forever. Releasing them after every fit lets any host process exit; the next fit
    forks new workers, which costs milliseconds.
    """
    import concurrent.futures
    import multiprocessing

    import httpstan.services_stub as stub

    stub.executor.shutdown(wait=True)
    stub.executor = concurrent.futures.ProcessPoolExecutor(
        mp_context=multiprocessing.get_context("fork"), initializer=stub.init_worker
    )


async def _pystan_fits(model_name: str, args: dict[str, object], chains: int) -> tuple[bytes, ...]:
    """Run ``chains`` chains through httpstan, read their outputs and delete the fit files."""
    import stan.common

    async with stan.common.HttpstanClient() as client:
        operations = []
        for chain in range(1, chains + 1):
            resp = await client.post(f"/{model_name}/fits", json={**args, "chain": chain})
            if resp.status != 201:
                raise RuntimeError(f"Stan refused the fit: {resp.json()}")
            operations.append(resp.json())
        while not all(op["done"] for op in operations):
            await asyncio.sleep(0.01)
            for op in operations:
                if not op["done"]:
                    resp = await client.get(f"/{op['name']}")
                    op.update(resp.json())
        outputs = []
        for op in operations:
            fit_name = op["result"].get("name")
            if fit_name is None:
                raise RuntimeError(f"Stan sampling failed: {op['result'].get('message')}")
            resp = await client.get(f"/{fit_name}")
            if resp.status != 200:
                raise RuntimeError(f"could not read the Stan fit {fit_name}: {resp.json()}")
            outputs.append(resp.content)
        for op in operations:
            await client.delete(f"/{op['result']['name']}")
    return tuple(outputs)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Silence PyStan's console messages (build progress, stanc warnings)."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        yield


@functools.cache
def _httpstan_version() -> str:
    """Stan's version (from the headers httpstan installs) and httpstan's."""
    import httpstan

    header = (Path(httpstan.__file__).parent / "include" / "stan" / "version.hpp").read_text()
    parts = [re.search(rf"#define STAN_{p} (\d+)", header) for p in ("MAJOR", "MINOR", "PATCH")]
    stan_version = ".".join(m.group(1) for m in parts) if all(parts) else "unknown"
    return f"Stan {stan_version}, httpstan {httpstan.__version__}"


class NativeRunner(StanRunner):
    """Run the program as a native executable built with PyStan's Stan and a C++ compiler.

    Parameters
    ----------
    code : str, optional
        A Stan program; by default the package's ``hierarchical.stan``.
    hand_written_gradient : bool, optional
        Compute the log density and its gradient with the hand-written C++ of
        ``hierarchical_gradient.hpp`` instead of Stan's autodiff (fits about 2.5-3x
        faster; the same density, rounded differently, so other draws for a seed). By
        default, exactly when ``code`` is the package's ``hierarchical.stan``, the only
        program it is written for.
    stan_transition : bool, default False
        Run the chains with Stan's own code throughout
        (``stan::services::sample::hmc_nuts_diag_e_adapt``, as CmdStan and PyStan run them)
        instead of the driver's loop over chains with the package's copy of Stan's NUTS
        transition (``nuts_sampler.hpp``), which keeps its work vectors from one leapfrog
        step to the next instead of allocating and copying them (fits about 1.2x cheaper in
        CPU time with the hand-written gradient). The draws are the same, bit for bit; the
        option is there to show it (tests) and to time Stan's own sampler (benchmarks).

    Raises
    ------
    ValueError
        If ``hand_written_gradient`` is true for a program other than the package's.
    """

    name = "native"

    def __init__(
        self,
        code: str | None = None,
        *,
        hand_written_gradient: bool | None = None,
        stan_transition: bool = False,
    ):
        super().__init__(code)
        package = self.code == program_code()
        if hand_written_gradient is None:
            hand_written_gradient = package
        hand_written_gradient = check_bool(hand_written_gradient, "hand_written_gradient")
        if hand_written_gradient and not package:
            raise ValueError(
                "hand_written_gradient: the hand-written gradient is that of the package's "
                "hierarchical.stan; another program needs Stan's autodiff"
            )
        self.hand_written_gradient = hand_written_gradient
        self.stan_transition = check_bool(stan_transition, "stan_transition")

    def version(self) -> str:
        """The versions of Stan (its headers installed by httpstan) and of httpstan.

        Returns
        -------
        str
            E.g. ``"Stan 2.35.0, httpstan 4.13.0"``.
        """
        return _httpstan_version()

    def executable(self) -> Path:
        """Path of the compiled program; built on first use, then reused.

        Returns
        -------
        pathlib.Path
            The executable (:func:`.native.build_executable`, whose errors it raises).
        """
        return native.build_executable(self.code)

    def check_gradient(
        self, data: dict[str, object], *, points: int, seed: int, radius: float = 2.0
    ) -> GradientCheck:
        """Stan's autodiff and the hand-written log density and gradient at random points.

        The points are drawn uniformly from ``[-radius, radius]`` on the unconstrained scale
        (seeded by ``seed``). Only for the package's program (the driver says so otherwise).

        Parameters
        ----------
        data : dict of str to object
            The program's data, by name (:func:`cvcompare.hierarchical.priors.stan_data`).
        points : int
            Number of random points.
        seed : int
            Seed of the driver's draw of the points.
        radius : float, default 2.0
            Half-width of the box the points are drawn from, on the unconstrained scale.

        Returns
        -------
        GradientCheck
            One row per point.

        Raises
        ------
        RuntimeError
            If the executable cannot be built, or the driver fails (e.g. for a program
            other than the package's).
        """
        exe = self.executable()
        with native.driver_files(data) as (data_path, out_path):
            args = ("--check-gradient", data_path, out_path, seed, points, repr(radius))
            native.run_checked([str(exe), *map(str, args)], "the gradient check")
            rows = np.loadtxt(out_path, ndmin=2)
        size = (rows.shape[1] - 2) // 3
        return GradientCheck(
            log_density_stan=rows[:, 0],
            log_density=rows[:, 1],
            gradient_stan=rows[:, 2 : 2 + size],
            gradient=rows[:, 2 + size : 2 + 2 * size],
            gradient_differences=rows[:, 2 + 2 * size :],
        )

    def _command(self, data_path: Path, out_path: Path, nuts: _Nuts) -> list[str]:
        """The driver's command line for one fit (see the top of ``stan_driver.cpp``): as
        many threads as chains, at most :func:`.native.usable_cpus`."""
        threads = max(1, min(nuts.chains, native.usable_cpus()))
        args = (nuts.seed, nuts.chains, nuts.warmup, nuts.draws, nuts.adapt_delta)
        args += (nuts.max_treedepth, threads, INIT_RADIUS)
        args += ("hierarchical" if self.hand_written_gradient else "autodiff",)
        args += ("stan" if self.stan_transition else "package",)
        return [str(self.executable()), str(data_path), str(out_path), *map(str, args)]

    def _run(
        self, data: dict[str, object], nuts: _Nuts
    ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        with native.driver_files(data) as (data_path, out_path):
            command = self._command(data_path, out_path, nuts)
            messages = native.run_checked(command, "Stan", env=native.driver_environment())
            if messages.strip():
                _log.warning("Stan's messages during the fit:\n%s", messages.strip())
            with open(out_path, "rb") as handle:
                columns = handle.readline().decode().rstrip("\n").split(",")
                flat = np.frombuffer(handle.read(), dtype="<f8")
        values = flat.reshape(nuts.chains, nuts.draws, len(columns))
        sampler = _split_columns(columns, values, dict.fromkeys(_SAMPLER_COLUMNS, ()))
        dims = {k: v for k, v in _column_dims(columns).items() if not k.endswith("__")}
        return _split_columns(columns, values, dims), sampler


def cmdstan_available() -> bool:
    """True when cmdstanpy finds a CmdStan installation.

    Returns
    -------
    bool
        False also when cmdstanpy is not installed.
    """
    try:
        import cmdstanpy

        cmdstanpy.cmdstan_path()
    except Exception:  # cmdstanpy raises ValueError (or others) when CmdStan is missing
        return False
    return True


class CmdStanPyRunner(StanRunner):
    """Run the program through CmdStan with cmdstanpy.

    Parameters
    ----------
    code : str, optional
        A Stan program; by default the package's ``hierarchical.stan``.
    """

    name = "cmdstanpy"

    def version(self) -> str:
        """The versions of CmdStan and cmdstanpy.

        Returns
        -------
        str
            E.g. ``"CmdStan 2.36.0, cmdstanpy 1.2.5"``.
        """
        import cmdstanpy

        cmdstan = ".".join(map(str, cmdstanpy.cmdstan_version() or ()))
        return f"CmdStan {cmdstan}, cmdstanpy {cmdstanpy.__version__}"

    def _model(self):  # -> cmdstanpy.CmdStanModel
        import cmdstanpy

        version = ".".join(map(str, cmdstanpy.cmdstan_version() or ()))
        key = digest(self.code, version, STANC_OPTIMISATION)
        build = cache_directory() / "cmdstan" / key[:16]
        with file_lock(build.with_suffix(".lock"), waiting_message("cmdstanpy")):
            build.mkdir(parents=True, exist_ok=True)
            stan_file = build / "hierarchical.stan"
            if not (build / "hierarchical").exists():
                announce_build("cmdstanpy", build)
            if not stan_file.exists() or stan_file.read_text() != self.code:
                stan_file.write_text(self.code)
            return cmdstanpy.CmdStanModel(
                stan_file=str(stan_file), stanc_options={STANC_OPTIMISATION: True}
            )

    def _run(
        self, data: dict[str, object], nuts: _Nuts
    ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        model = self._model()
        with tempfile.TemporaryDirectory(prefix="cvcompare-cmdstan-") as out_dir:
            fit = model.sample(
                data=json.loads(json_data(data)),
                chains=nuts.chains,
                parallel_chains=nuts.chains,
                iter_warmup=nuts.warmup,
                iter_sampling=nuts.draws,
                thin=1,
                seed=int(nuts.seed),
                adapt_delta=nuts.adapt_delta,
                max_treedepth=nuts.max_treedepth,
                inits=INIT_RADIUS,
                output_dir=out_dir,
                show_progress=False,
                show_console=False,
            )
            values = np.moveaxis(np.asarray(fit.draws()), 1, 0)  # (chains, draws, columns)
            columns = list(fit.column_names)
            dims = {name: tuple(var.dimensions) for name, var in fit.metadata.stan_vars.items()}
        sampler = _split_columns(columns, values, dict.fromkeys(_SAMPLER_COLUMNS, ()))
        return _split_columns(columns, values, dims), sampler


def _require_stan(module: str) -> None:
    """Import ``module`` (``stan``, ``httpstan`` or ``cmdstanpy``) or raise :data:`STAN_MISSING`."""
    try:
        importlib.import_module(module)
    except ImportError:
        raise ImportError(STAN_MISSING) from None


def get_runner(runner: str = "auto", code: str | None = None) -> StanRunner:
    """Choose a runner: ``"cmdstanpy"``, ``"native"``, ``"pystan"`` or ``"auto"``.

    ``"auto"`` takes the fastest runner available: the native runner when httpstan and a
    C++ compiler are found (about 2.2x faster than cmdstanpy on the same program: one
    process runs all chains as threads, for the host's CPU, and hands back only the kept
    draws, in binary, where CmdStan starts a process per chain and writes every draw as
    CSV text), otherwise cmdstanpy when CmdStan is installed, otherwise PyStan.

    Parameters
    ----------
    runner : {"auto", "native", "pystan", "cmdstanpy"}, default "auto"
        The runner wanted.
    code : str, optional
        A Stan program; by default the package's ``hierarchical.stan``.

    Returns
    -------
    StanRunner
        A :class:`NativeRunner`, :class:`CmdStanPyRunner` or :class:`PyStanRunner` of
        ``code``.

    Raises
    ------
    ImportError
        If the Python packages of the runner (PyStan with httpstan, or cmdstanpy) are not
        installed, with :data:`STAN_MISSING` as the message.
    ValueError
        If ``runner`` is not one of the choices, or the requested runner cannot run here
        (``"cmdstanpy"`` without CmdStan, ``"native"`` without a C++ compiler).
    """
    runner = check_choice(runner, "runner", RUNNERS)
    if runner == "auto":
        if native_available():
            runner = "native"
        else:
            runner = "cmdstanpy" if cmdstan_available() else "pystan"
    _require_stan({"native": "httpstan", "pystan": "stan", "cmdstanpy": "cmdstanpy"}[runner])
    if runner == "native":
        if not native_available():
            raise ValueError(
                "runner: 'native' needs httpstan (installed with PyStan) and a C++ compiler "
                "($CXX or g++ on PATH); use runner='pystan' or install CmdStan"
            )
        return NativeRunner(code)
    if runner == "cmdstanpy":
        if not cmdstan_available():
            raise ValueError(
                "runner: 'cmdstanpy' needs a CmdStan installation (cmdstanpy.cmdstan_path() "
                "failed); install CmdStan or use runner='pystan'"
            )
        return CmdStanPyRunner(code)
    return PyStanRunner(code)
