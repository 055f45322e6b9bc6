// Four doubles at a time: the type `lanes` (GCC's and Clang's vector extension), the few
// operations on it that cvcompare's hand-written log density (hierarchical_gradient.hpp)
// needs, an exponential of four numbers and a sum of logs, four at a time.
//
// Arithmetic on `lanes` acts on each of the four numbers and compiles to one SIMD
// instruction where the CPU has them (AVX2: four doubles), to two with SSE2, or to scalar
// code elsewhere. Each lane is computed on its own and lanes are summed in a fixed order, so
// a build's results depend neither on memory addresses nor on the thread that computes them.
// The package's tests compile this header alone and check exp_lanes and log_sum against the
// C library (tests/test_lanes.py).
#ifndef CVCOMPARE_LANES_HPP
#define CVCOMPARE_LANES_HPP

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace cvcompare {

constexpr int width = 4;
using lanes = double __attribute__((vector_size(width * sizeof(double))));
using lane_ints = std::int64_t __attribute__((vector_size(width * sizeof(double))));

inline lane_ints bits_of(lanes x) {
  lane_ints bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

inline lanes from_bits(lane_ints bits) {
  lanes x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

inline bool any(lane_ints mask) { return ((mask[0] | mask[1]) | (mask[2] | mask[3])) != 0; }

inline double sum(lanes x) { return (x[0] + x[1]) + (x[2] + x[3]); }

// values[at], ..., values[at + 3], with 0 for the indices from `count` on.
inline lanes load(const double* values, int at, int count) {
  lanes x;
  if (at + width <= count) {
    std::memcpy(&x, values + at, sizeof x);
    return x;
  }
  for (int l = 0; l < width; ++l) {
    x[l] = at + l < count ? values[at + l] : 0;
  }
  return x;
}

// All bits set in the lanes of the indices at, ..., at + 3 below `count`, none in the others.
inline lane_ints below(int at, int count) {
  lane_ints mask = lane_ints{} - 1;
  if (at + width <= count) {
    return mask;
  }
  for (int l = 0; l < width; ++l) {
    mask[l] = at + l < count ? -1 : 0;
  }
  return mask;
}

// x where `mask` is set, otherwise y (bit by bit: infinities and NaN pass unchanged).
inline lanes select(lane_ints mask, lanes x, lanes y) {
  return from_bits((bits_of(x) & mask) | (bits_of(y) & ~mask));
}

// x where `mask` is set, otherwise 0.
inline lanes keep(lane_ints mask, lanes x) { return from_bits(bits_of(x) & mask); }

// from[at], ..., from[at + 3] as lanes; lanes written to, or added to, to[at], ...,
// to[at + 3] (the vectors hold at least at + 4 numbers).
inline lanes lanes_at(const std::vector<double>& from, int at) {
  lanes x;
  std::memcpy(&x, from.data() + at, sizeof x);
  return x;
}
inline void store(std::vector<double>& to, int at, lanes x) {
  std::memcpy(to.data() + at, &x, sizeof x);
}
inline void add_at(std::vector<double>& to, int at, lanes x) {
  store(to, at, lanes_at(to, at) + x);
}

// exp(x) of four numbers, within 1 ulp of the exact value (0.88 ulp at most over 16 million
// random arguments): x = n log 2 + r with n an integer and |r| <= log(2) / 2 (log 2 in
// Cody & Waite's two parts, fdlibm's, so that n log 2 is exact in the first part for
// |n| < 2^20), exp(r) by its Taylor series to r^13 / 13! (truncation below 4e-18), and 2^n
// added to the exponent bits. n is rounded by adding 1.5 2^52, which also leaves n in the
// low bits. The series is 1 + r (1 + r (1/2 + r tail(r))), its tail (1/3! to 1/13!) taken in
// Estrin's scheme (pairs of terms combined by powers of r), which shortens the chain of
// dependent operations from 13 to 7. Lanes whose result would not be a normal number (x
// outside [-708, 709]) or that are NaN take std::exp.
inline lanes exp_lanes(lanes x) {
  const lanes shifter = lanes{} + 0x1.8p52;
  const lanes t = x * 1.4426950408889634 + shifter;  // 1 / log 2
  const lanes n = t - shifter;
  const lanes r = (x - n * 6.93147180369123816490e-01) - n * 1.90821492927058770002e-10;
  const lanes r2 = r * r;
  const lanes r4 = r2 * r2;
  const auto pair = [&r](double a, double b) { return a + b * r; };
  const lanes tail
      = (pair(1.0 / 6, 1.0 / 24) + r2 * pair(1.0 / 120, 1.0 / 720))
        + r4 * ((pair(1.0 / 5040, 1.0 / 40320) + r2 * pair(1.0 / 362880, 1.0 / 3628800))
                + r4 * (pair(1.0 / 39916800, 1.0 / 479001600) + r2 * (1.0 / 6227020800)));
  const lanes p = 1.0 + r * (1.0 + r * (0.5 + r * tail));
  lanes y = from_bits(bits_of(p) + ((bits_of(t) - bits_of(shifter)) << 52));
  const lane_ints outside = (x < -708.0) | (x > 709.0) | (x != x);
  if (any(outside)) {
    for (int l = 0; l < width; ++l) {
      if (outside[l]) {
        y[l] = std::exp(x[l]);
      }
    }
  }
  return y;
}

// Sum of the logs of positive numbers, four at a time, taken as logs of their products: each
// number is split into its binary exponent (summed as an integer) and its significand in
// [1, 2) (multiplied, and split again every 512 additions, before a product could
// overflow), so a sum of q logs costs one log. Rounding: about 1e-16 per number, relative
// to the product, i.e. absolute on the sum. Zero, subnormal, infinite, negative and NaN
// numbers take std::log.
class log_sum {
 public:
  void add(lanes x) {
    const lane_ints bits = bits_of(x);
    const lane_ints biased = bits >> 52;  // exponent; negative for a negative x
    const lane_ints special = (biased < 1) | (biased >= 0x7ff);
    if (any(special)) {
      for (int l = 0; l < width; ++l) {
        if (special[l]) {
          direct_ += std::log(x[l]);
          x[l] = 1;
        }
      }
      add(x);
      return;
    }
    exponent_ += biased - 1023;
    product_ *= significand(bits);
    if (++count_ == 512) {
      count_ = 0;
      const lanes p = product_;
      product_ = lanes{} + 1;
      add(p);
    }
  }
  double value() const {
    const lane_ints bits = bits_of(product_);  // positive normal numbers
    const lanes significands = significand(bits);  // below 2^4 together
    const lane_ints exponents = exponent_ + (bits >> 52) - 1023;
    return std::log((significands[0] * significands[1]) * (significands[2] * significands[3]))
           + ((exponents[0] + exponents[1]) + (exponents[2] + exponents[3]))
                 * 0.69314718055994530942
           + direct_;
  }

 private:
  // The significands, in [1, 2), of positive normal numbers given by their bits.
  static lanes significand(lane_ints bits) {
    return from_bits((bits & ((std::int64_t{1} << 52) - 1)) | (std::int64_t{1023} << 52));
  }

  lanes product_ = lanes{} + 1;
  lane_ints exponent_ = lane_ints{};
  double direct_ = 0;
  int count_ = 0;
};

}  // namespace cvcompare

#endif
