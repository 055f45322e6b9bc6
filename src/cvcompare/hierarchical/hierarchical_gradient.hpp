// The log density of hierarchical.stan and its gradient, written by hand (the native
// runner's fast path).
//
// Stan's reverse-mode autodiff computes the gradient of the model block by recording every
// operation and sweeping back over the record. Here the same density, on the unconstrained
// scale the sampler works on (Stan's transforms of the parameters and their log Jacobians
// included), is differentiated by hand: one pass over the data sets, with the derivatives of
// the special functions in closed form. It computes the density of the program as written
// (the same terms, constants included, so lp__ is Stan's up to rounding), with three
// differences of accuracy, not of model:
//   * sqrt(trigamma(k)) uses Boost's trigamma (accurate to a few ulp), where Stan's
//     trigamma is an approximation good to about 1e-8; the gradient then uses the exact
//     derivative of the function whose value it computes (tetragamma below), where autodiff
//     differentiates Stan's approximation;
//   * sums are taken in another order, so they round differently (about 1e-15, relative);
//   * the exponentials over data sets are exp_lanes's (lanes.hpp), within 1 ulp of the exact
//     value like the C library's, but not always rounded the same way.
// The driver's "--check-gradient" mode compares the two at random points; the package's
// tests run it.
//
// The loops over data sets handle four data sets at a time (the type `lanes` of lanes.hpp:
// one SIMD instruction for four numbers where the CPU has them, as AVX2 does), with an
// exponential of their own (exp_lanes) in place of the C library's, which takes one number
// per call: the
// density and gradient cost about half as much as with one data set at a time. The results
// are the same bits whatever the thread or the process: no step depends on memory addresses
// or on timing, and the lanes are summed in a fixed order. Lanes beyond the last data set
// hold zeros and are masked out of every sum (by bits, so that a NaN there cannot leak in).
//
// The notation follows the notes at the top of hierarchical.stan: slots hold the data sets,
// the n_w non-centred ones first, then the n_c centred ones; with e_i = exp(-sigma_raw_i),
// v_i = v_hi / (1 + e_i)^2; the Student-t weights are lambda_i = exp(m + s w_i) (non-centred)
// or exp(log_lambda_i) (centred), k = nu / 2, m = digamma(k) - log(k), s = sqrt(trigamma(k)),
// and xbar_i ~ N(delta0, t_i + v_i) with t_i = sigma0^2 / lambda_i (sigma0^2 with a Gaussian
// top level).
#ifndef CVCOMPARE_HIERARCHICAL_GRADIENT_HPP
#define CVCOMPARE_HIERARCHICAL_GRADIENT_HPP

#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/trigamma.hpp>
#include <stan/io/var_context.hpp>
#include <stan/math/prim.hpp>

#include "lanes.hpp"

#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

namespace cvcompare {

// psi''(x), x > 0: the recurrence psi''(x) = psi''(x + 1) - 2 / x^3 up to x >= 10, then the
// asymptotic series psi''(x) = -1/x^2 - 1/x^3 - 1/(2x^4) + 1/(6x^6) - 1/(6x^8) + 3/(10x^10)
// - 5/(6x^12) + 691/(210x^14) - ..., whose first omitted term is below 2e-13 of the sum at
// x = 10 (Abramowitz & Stegun 6.4.12). Boost's polygamma(2, x) costs about 20 times more.
inline double tetragamma(double x) {
  double shift = 0;
  while (x < 10) {
    shift -= 2 / (x * x * x);
    x += 1;
  }
  const double r = 1 / x;
  const double r2 = r * r;
  const double series
      = 1
        + r2 * (-1.0 / 3 + r2 * (1.0 / 3 + r2 * (-3.0 / 5 + r2 * (5.0 / 3 - r2 * 691.0 / 105))));
  return shift - r2 * (1 + r + 0.5 * r2 * series);  // the series above, factored
}

// The logistic map p = inv_logit(x) of a parameter bounded on both sides and the log of its
// Jacobian, log(p (1 - p)) = log_inv_logit(x) + log1m_inv_logit(x) (Stan's lub_constrain adds
// this, with the constant log of the width), from one exponential: with e = exp(-|x|),
// p = 1 / (1 + e) or e / (1 + e), and log(p (1 - p)) = -|x| - 2 log1p(e). Its derivative in
// x is 1 - 2 p.
struct logistic {
  double p;
  double log_jacobian;
  explicit logistic(double x) {
    const double e = std::exp(-std::fabs(x));
    p = (x >= 0 ? 1 : e) / (1 + e);
    log_jacobian = -std::fabs(x) - 2 * std::log1p(e);
  }
};

// Log density and gradient of hierarchical.stan's parameters on the unconstrained scale, in
// Stan's order: delta0_raw, sigma0_raw, nu_raw (Student), gamma_alpha, gamma_beta (Student
// with nu_hyper), sigma_raw (q, slots), w (n_w), log_lambda_c (n_c).
class hierarchical_density {
 public:
  // Boost's special functions as Stan calls them: in double precision, and returning
  // infinities instead of throwing on overflow (the sampler then rejects the proposal, as it
  // does for any non-finite density; an exception other than std::domain_error would stop
  // it).
  using policy = stan::math::boost_policy_t<>;

  // Reads the program's data (its data block, layout included) and derives what its
  // transformed data block derives.
  explicit hierarchical_density(const stan::io::var_context& data)
      : q_(integer(data, "q")),
        n_(integer(data, "n")),
        student_(integer(data, "student") != 0),
        nu_hyper_(student_ && integer(data, "nu_hyper") != 0),
        n_c_(integer(data, "n_c")),
        n_w_(student_ ? q_ - n_c_ : 0) {
    const double rho = real(data, "rho");
    const double sigma_hi = real(data, "sigma_hi");
    v_hi_ = (1 + (n_ - 1) * rho) / n_ * sigma_hi * sigma_hi;
    delta0_lo_ = real(data, "delta0_lo");
    delta0_width_ = real(data, "delta0_hi") - delta0_lo_;
    sigma0_hi_ = real(data, "sigma0_hi");
    alpha_lo_ = real(data, "alpha_lo");
    alpha_width_ = real(data, "alpha_hi") - alpha_lo_;
    beta_lo_ = real(data, "beta_lo");
    beta_width_ = real(data, "beta_hi") - beta_lo_;
    nu_alpha_ = real(data, "nu_alpha");
    nu_beta_ = real(data, "nu_beta");
    delta0_offset_ = real(data, "delta0_offset");
    delta0_multiplier_ = real(data, "delta0_multiplier");
    sigma0_offset_ = real(data, "sigma0_offset");
    sigma0_multiplier_ = real(data, "sigma0_multiplier");
    log_lambda_multiplier_ = real(data, "log_lambda_multiplier");
    sigma_offset_ = data.vals_r("sigma_offset");
    sigma_multiplier_ = data.vals_r("sigma_multiplier");
    log_lambda_offset_ = data.vals_r("log_lambda_offset");
    const std::vector<double> xbar = data.vals_r("xbar");
    const std::vector<double> ss = data.vals_r("ss");
    const std::vector<int> slot_of = data.vals_i("slot_of");
    xbar_.resize(q_);
    ss_term_.resize(q_);
    for (int i = 0; i < q_; ++i) {
      xbar_[slot_of[i] - 1] = xbar[i];
      ss_term_[slot_of[i] - 1] = ss[i] * (0.5 / ((1 - rho) * sigma_hi * sigma_hi));
    }
    // log Jacobians of the offset-multiplier maps: constants
    log_jacobian_ = std::log(delta0_multiplier_) + std::log(sigma0_multiplier_)
                    + n_c_ * std::log(log_lambda_multiplier_);
    for (double m : sigma_multiplier_) {
      log_jacobian_ += std::log(m);
    }
    if (nu_hyper_) {
      log_jacobian_ += std::log(alpha_width_) + std::log(beta_width_);
    }
  }

  // Number of unconstrained parameters.
  std::size_t size() const {
    return 2 + student_ + 2 * nu_hyper_ + q_ + n_w_ + n_c_;
  }

  // Returns the log density at the unconstrained point u and writes its gradient to grad.
  double operator()(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const {
    grad.resize(u.size());
    // by slot, with room for `width` more: v_i, d v_i / d sigma_raw_i, d lp / d sigma_raw_i, and
    // d lp / d w_i (then d lp / d log_lambda_c, counted from the first centred slot)
    thread_local std::vector<double> v, dv, g_sigma, g_w;
    for (std::vector<double>* buffer : {&v, &dv, &g_sigma, &g_w}) {
      buffer->resize(q_ + width);
    }
    double lp = log_jacobian_;

    // delta0 and sigma0 through their logistic maps (note 5)
    const double d_raw = delta0_offset_ + delta0_multiplier_ * u[0];
    const double s_raw = sigma0_offset_ + sigma0_multiplier_ * u[1];
    const logistic d_map(d_raw);
    const logistic s_map(s_raw);
    const double p_d = d_map.p;
    const double p_s = s_map.p;
    const double delta0 = delta0_lo_ + delta0_width_ * p_d;
    const double sigma0 = sigma0_hi_ * p_s;
    const double sigma0_sq = sigma0 * sigma0;
    lp += d_map.log_jacobian + s_map.log_jacobian;
    normal_sums normal(delta0);
    lanes g_sigma0_sq{};  // d lp / d sigma0^2, by lane

    // sigma_i terms of note 1 with their Jacobian (note 5); v_i per slot
    const std::size_t sigma_at = 2 + student_ + 2 * nu_hyper_;
    const double n3 = n_ - 3;
    log_sum log_one_plus_e;  // of 1 + e_i
    lanes sigma_terms{};
    for (int j = 0; j < q_; j += width) {
      const lane_ints mask = below(j, q_);
      const lanes r = load(sigma_offset_.data(), j, q_)
                      + load(sigma_multiplier_.data(), j, q_) * load(u.data() + sigma_at, j, q_);
      const lanes e = exp_lanes(-r);
      const lanes one_plus_e = 1.0 + e;
      const lanes inverse = 1.0 / one_plus_e;  // sigma_i / sigma_hi
      const lanes e_ratio = e * inverse;
      const lanes ss_term = load(ss_term_.data(), j, q_);
      log_one_plus_e.add(select(mask, one_plus_e, lanes{} + 1.0));
      sigma_terms -= keep(mask, r + ss_term * (one_plus_e * one_plus_e));
      store(g_sigma, j, -n3 * e_ratio - 1.0 + 2.0 * ss_term * e * one_plus_e);
      const lanes v_j = v_hi_ * inverse * inverse;
      store(v, j, v_j);
      store(dv, j, 2.0 * v_j * e_ratio);
    }
    lp += sum(sigma_terms) + n3 * log_one_plus_e.value();

    if (!student_) {
      for (int j = 0; j < q_; j += width) {
        const lanes c
            = normal.add(load(xbar_.data(), j, q_), below(j, q_), sigma0_sq + lanes_at(v, j));
        g_sigma0_sq += c;
        add_at(g_sigma, j, c * lanes_at(dv, j));
      }
    } else {
      // nu - 1 = exp(z), z = nu_raw - g^2 / 2, g = log(1 + exp(-nu_raw)) (note 7)
      const double x = u[2];
      const double g = stan::math::log1p_exp(-x);
      const double il = stan::math::inv_logit(-x);
      const double z = x - 0.5 * g * g;
      const double dz = 1 + g * il;
      const double nu_minus_one = std::exp(z);
      double a = nu_alpha_;
      double b = nu_beta_;
      double p_a = 0;
      double p_b = 0;
      if (nu_hyper_) {
        const logistic a_map(u[3]);
        const logistic b_map(u[4]);
        p_a = a_map.p;
        p_b = b_map.p;
        a = alpha_lo_ + alpha_width_ * p_a;
        b = beta_lo_ + beta_width_ * p_b;
        lp += a_map.log_jacobian + b_map.log_jacobian;
      }
      // nu - 1 ~ Gamma(a, b) and the Jacobian of note 7
      const double log_b = std::log(b);
      const double h = g * il;
      lp += a * (z + log_b) - std::lgamma(a) - b * nu_minus_one + std::log1p(h);
      double g_z = a - b * nu_minus_one;  // d lp / d z
      double g_x = -il * (il + g * (1 - il)) / (1 + h);  // d log1p(h) / d nu_raw

      const double k = 0.5 * (nu_minus_one + 1);
      const double log_k = std::log(k);
      const double digamma_k = boost::math::digamma(k, policy());
      const double trigamma_k = boost::math::trigamma(k, policy());
      const double m = digamma_k - log_k;
      const double s = std::sqrt(trigamma_k);
      const double exp_m = std::exp(m);
      const double lgamma_k = std::lgamma(k);
      double g_k = 0;  // d lp / d k at fixed m and s

      // the w_i (note 4) and their slots' likelihood
      const std::size_t w_at = sigma_at + q_;
      lanes sum_w{}, sum_e{}, sum_ew{}, g_m{}, g_s{};
      for (int j = 0; j < n_w_; j += width) {
        const lane_ints mask = below(j, n_w_);
        const lanes w = load(u.data() + w_at, j, n_w_);
        const lanes e = exp_lanes(s * w);
        sum_w += w;  // 0 in the lanes beyond n_w
        sum_e += keep(mask, e);
        sum_ew += e * w;
        const lanes tau = 1.0 / (exp_m * e);  // 1 / lambda_i
        const lanes t = sigma0_sq * tau;
        const lanes c = normal.add(load(xbar_.data(), j, n_w_), mask, t + lanes_at(v, j));
        g_sigma0_sq += c * tau;
        g_m -= c * t;
        g_s -= c * t * w;
        store(g_w, j, k * s * (1.0 - exp_m * e) - c * t * s);
        add_at(g_sigma, j, c * lanes_at(dv, j));
      }
      for (int j = 0; j < n_w_; ++j) {
        grad[w_at + j] = g_w[j];
      }
      lp += n_w_ * (k * (log_k + m) - lgamma_k + std::log(s)) + k * s * sum(sum_w)
            - k * exp_m * sum(sum_e);
      g_k += n_w_ * (log_k + 1 + m - digamma_k) + s * sum(sum_w) - exp_m * sum(sum_e);
      double g_m_total = sum(g_m) + n_w_ * k - k * exp_m * sum(sum_e);
      double g_s_total = sum(g_s) + n_w_ / s + k * sum(sum_w) - k * exp_m * sum(sum_ew);

      // the centred log lambda_i (note 6) and their slots' likelihood, in slots n_w on
      const std::size_t c_at = w_at + n_w_;
      lanes sum_l{}, sum_lambda{};
      for (int c_i = 0; c_i < n_c_; c_i += width) {
        const int j = n_w_ + c_i;
        const lane_ints mask = below(c_i, n_c_);
        const lanes l = load(log_lambda_offset_.data(), c_i, n_c_)
                        + log_lambda_multiplier_ * load(u.data() + c_at, c_i, n_c_);
        const lanes lambda = exp_lanes(l);
        sum_l += l;  // 0 in the lanes beyond n_c
        sum_lambda += keep(mask, lambda);
        const lanes tau = 1.0 / lambda;
        const lanes t = sigma0_sq * tau;
        const lanes c = normal.add(load(xbar_.data(), j, q_), mask, t + lanes_at(v, j));
        g_sigma0_sq += c * tau;
        store(g_w, c_i, log_lambda_multiplier_ * (k * (1.0 - lambda) - c * t));
        add_at(g_sigma, j, c * lanes_at(dv, j));
      }
      if (n_c_ > 0) {
        for (int c_i = 0; c_i < n_c_; ++c_i) {
          grad[c_at + c_i] = g_w[c_i];
        }
        lp += n_c_ * (k * log_k - lgamma_k) + k * sum(sum_l) - k * sum(sum_lambda);
        g_k += n_c_ * (log_k + 1 - digamma_k) + sum(sum_l) - sum(sum_lambda);
      }

      // k, m and s are functions of nu - 1 = exp(z)
      const double dm_dk = trigamma_k - 1 / k;
      const double ds_dk = tetragamma(k) / (2 * s);
      g_k += g_m_total * dm_dk + g_s_total * ds_dk;
      g_z += g_k * 0.5 * nu_minus_one;
      grad[2] = g_z * dz + g_x;
      if (nu_hyper_) {
        const double g_a = z + log_b - boost::math::digamma(a, policy());
        const double g_b = a / b - nu_minus_one;
        grad[3] = g_a * alpha_width_ * p_a * (1 - p_a) + 1 - 2 * p_a;
        grad[4] = g_b * beta_width_ * p_b * (1 - p_b) + 1 - 2 * p_b;
      }
    }

    lp += normal.log_density();
    for (int j = 0; j < q_; ++j) {
      grad[sigma_at + j] = g_sigma[j] * sigma_multiplier_[j];
    }
    const double g_sigma0 = 2 * sigma0 * sum(g_sigma0_sq);
    grad[0] = delta0_multiplier_
              * (sum(normal.g_delta0) * delta0_width_ * p_d * (1 - p_d) + 1 - 2 * p_d);
    grad[1] = sigma0_multiplier_ * (g_sigma0 * sigma0_hi_ * p_s * (1 - p_s) + 1 - 2 * p_s);
    return lp;
  }

 private:
  // The slots' terms log N(xbar_i | delta0, sqrt(variance_i)), without the constant
  // -log(2 pi) / 2 (Stan's "~" drops it), summed by lane, with their derivatives in delta0.
  class normal_sums {
   public:
    explicit normal_sums(double delta0) : delta0_(delta0) {}
    lanes g_delta0{};

    // Adds the terms of four slots, those of the lanes set in `mask`, with means `xbar`;
    // returns their derivatives in the variances (0 in the other lanes).
    lanes add(lanes xbar, lane_ints mask, lanes variance) {
      const lanes precision = 1.0 / variance;
      const lanes r = xbar - delta0_;
      const lanes z = r * precision;
      lp_ -= keep(mask, 0.5 * r * z);
      log_variance_.add(select(mask, variance, lanes{} + 1.0));
      g_delta0 += keep(mask, z);
      return keep(mask, 0.5 * (z * r - 1.0) * precision);
    }

    double log_density() const { return sum(lp_) - 0.5 * log_variance_.value(); }

   private:
    double delta0_;
    lanes lp_{};
    log_sum log_variance_;
  };

  static int integer(const stan::io::var_context& data, const std::string& name) {
    return data.vals_i(name).at(0);
  }
  static double real(const stan::io::var_context& data, const std::string& name) {
    return data.vals_r(name).at(0);
  }

  int q_, n_;
  bool student_, nu_hyper_;
  int n_c_, n_w_;
  double v_hi_, delta0_lo_, delta0_width_, sigma0_hi_;
  double alpha_lo_, alpha_width_, beta_lo_, beta_width_, nu_alpha_, nu_beta_;
  double delta0_offset_, delta0_multiplier_, sigma0_offset_, sigma0_multiplier_;
  double log_lambda_multiplier_, log_jacobian_;
  std::vector<double> sigma_offset_, sigma_multiplier_, log_lambda_offset_, xbar_, ss_term_;
};

}  // namespace cvcompare

#endif
