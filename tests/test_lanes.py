"""``lanes.hpp``, the four-at-a-time arithmetic of the native runner's hand-written log
density: its exponential against the C library's and long double, its sum of logs against a
long double sum, compiled alone with the runner's compiler and CPU flags."""

from __future__ import annotations

import subprocess
from importlib import resources

import numpy as np
import pytest

from cvcompare.hierarchical.native import (
    _NATIVE_FLAGS,
    _compiler,
    _host_cpu_flags,
    native_available,
)

pytestmark = pytest.mark.skipif(not native_available(), reason="no C++ compiler on PATH")

CHECK = r"""
#include "lanes.hpp"

#include <cstdio>
#include <random>

using cvcompare::lanes;

// exp_lanes(x) of each x, four at a time, with std::exp(x) and the distance of exp_lanes(x)
// from the exact value (long double) in units of the last place of std::exp(x).
static void exp_rows(const std::vector<double>& xs) {
  for (std::size_t i = 0; i < xs.size(); i += 4) {
    lanes x;
    for (int l = 0; l < 4; ++l) x[l] = xs[std::min(i + l, xs.size() - 1)];
    const lanes y = cvcompare::exp_lanes(x);
    for (int l = 0; l < 4 && i + l < xs.size(); ++l) {
      const double libc = std::exp(x[l]);
      const long double ulp = std::nextafter(libc, HUGE_VAL) - libc;
      const long double exact = std::exp(static_cast<long double>(x[l]));
      std::printf("exp %.17g %.17g %.17g %.6Lg\n", x[l], y[l], libc,
                  std::fabs(static_cast<long double>(y[l]) - exact) / ulp);
    }
  }
}

// log_sum over the numbers, four at a time, with a long double sum of their logs.
static void log_sum_row(const std::vector<double>& xs) {
  cvcompare::log_sum total;
  long double exact = 0;
  for (std::size_t i = 0; i < xs.size(); i += 4) {
    lanes x;
    for (int l = 0; l < 4; ++l) x[l] = i + l < xs.size() ? xs[i + l] : 1;
    total.add(x);
  }
  for (double x : xs) exact += std::log(static_cast<long double>(x));
  std::printf("logsum %zu %.17g %.21Lg\n", xs.size(), total.value(), exact);
}

int main() {
  std::mt19937_64 gen(20261126);
  std::uniform_real_distribution<double> wide(-745, 710), narrow(-5, 5), power(-300, 300);
  std::vector<double> xs;
  for (int i = 0; i < 200000; ++i) xs.push_back(wide(gen));
  for (int i = 0; i < 200000; ++i) xs.push_back(narrow(gen));
  for (double x : {0.0, -0.0, 1e-300, -1e-300, -708.0, -708.0000001, -708.5, -744.0, -745.2,
                   -746.0, 709.0, 709.0000001, 709.78, 709.79, 800.0, HUGE_VAL, -HUGE_VAL,
                   std::nan("")}) {
    xs.push_back(x);
  }
  exp_rows(xs);
  for (int n : {1, 3, 4, 5, 2047, 2048, 2049, 10000}) {
    std::vector<double> ys;
    for (int i = 0; i < n; ++i) ys.push_back(std::pow(10.0, power(gen)));
    log_sum_row(ys);
  }
  log_sum_row({2.0, 1e-310, 3.0, 4.0, 5.0});  // a subnormal
  log_sum_row({2.0, 0.0, 3.0});               // a zero: -inf
  log_sum_row({2.0, HUGE_VAL, 3.0});          // +inf
  log_sum_row({2.0, -1.0, 3.0});              // a negative number: NaN
}
"""


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    build = tmp_path_factory.mktemp("lanes")
    header = resources.files("cvcompare.hierarchical").joinpath("lanes.hpp").read_text()
    (build / "lanes.hpp").write_text(header)
    (build / "check.cpp").write_text(CHECK)
    compiler = _compiler()
    cpu_flags, _ = _host_cpu_flags(compiler)
    command = [compiler, *_NATIVE_FLAGS, *cpu_flags, str(build / "check.cpp")]
    built = subprocess.run([*command, "-o", str(build / "check")], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    out = subprocess.run([str(build / "check")], check=True, capture_output=True, text=True)
    return [line.split() for line in out.stdout.splitlines()]


def test_exp_lanes_is_within_one_ulp_and_the_c_library_outside_the_normal_range(rows):
    exp = np.array([[float(v) for v in row[1:]] for row in rows if row[0] == "exp"])
    x, y, libc, ulps = exp.T
    assert len(x) == 400_018
    normal = (x >= -708) & (x <= 709)
    # Inside [-708, 709] the result is a normal number, at most 1 ulp from the exact value:
    # the series is truncated below 4e-18 relative, and the rounding of the reduction and of
    # the series' steps came to 0.88 ulp at most over 16 million arguments.
    assert ulps[normal].max() <= 1.0, ulps[normal].max()
    # outside (subnormal results, 0, overflow, infinities) and for NaN: the C library's value
    outside = ~normal
    # (about 200,000 x 38 / 1455 = 5,223 of the uniform draws, sd 71, and the special values)
    assert np.sum(outside & ~np.isnan(x)) > 4_500
    np.testing.assert_array_equal(y[outside], libc[outside])


def test_log_sum_equals_the_sum_of_logs(rows):
    sums = [row for row in rows if row[0] == "logsum"]
    for count, value, exact in ((int(a), float(b), float(c)) for _, a, b, c in sums):
        if not np.isfinite(exact):
            # zero: -inf, +inf: +inf, a negative number: NaN, as the sum of std::log
            np.testing.assert_equal(value, exact)
            continue
        # Rounding: about 1.1e-16 per number multiplied into a product (absolute, on the
        # log) and 1.1e-16 relative for the exponents' sum times log 2: within
        # 2.2e-16 (count + |sum|) with room to spare.
        assert abs(value - exact) <= 2.2e-16 * (count + abs(exact)), (count, value, exact)
    assert len(sums) == 12
