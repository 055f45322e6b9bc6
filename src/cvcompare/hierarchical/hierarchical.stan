// Bayesian hierarchical model for comparing two cross-validated classifiers on q data sets
// (Corani, Benavoli, Demsar, Mangili & Zaffalon 2017, Sec. 3, Eqs. (2)-(4)):
//
//   delta_i ~ t(nu, delta0, sigma0)         (or N(delta0, sigma0^2): top level "gaussian")
//   sigma_i ~ U(0, sigma_hi)
//   x_i     ~ MVN(1 delta_i, Sigma_i),      Sigma_i = sigma_i^2 ((1 - rho) I + rho 1 1')
//   delta0  ~ U(delta0_lo, delta0_hi),      sigma0 ~ U(0, sigma0_hi)
//   nu - 1  ~ Gamma(alpha, beta),           alpha ~ U(alpha_lo, alpha_hi),
//                                           beta ~ U(beta_lo, beta_hi)
//                                           (or fixed alpha, beta: nu_hyper = 0)
//
// 1. Likelihood on sufficient statistics. With M = (1 - rho) I + rho 1 1' (n x n),
//      M^{-1} = (I - rho / (1 + (n - 1) rho) 1 1') / (1 - rho),
//      det M  = (1 - rho)^(n - 1) (1 + (n - 1) rho).
//    Writing x_i - 1 delta_i = (x_i - 1 xbar_i) + 1 (xbar_i - delta_i), whose first part is
//    orthogonal to 1, the quadratic form is
//      (x_i - 1 delta_i)' Sigma_i^{-1} (x_i - 1 delta_i)
//        = ss_i / (sigma_i^2 (1 - rho)) + n (xbar_i - delta_i)^2 / (sigma_i^2 (1 + (n - 1) rho)),
//    with xbar_i the mean and ss_i the sum of squared deviations of the n fold differences:
//      log MVN(x_i | 1 delta_i, Sigma_i)
//        = log N(xbar_i | delta_i, v_i) - (n - 1) log sigma_i - ss_i / (2 sigma_i^2 (1 - rho))
//          + const(n, rho),                 v_i = sigma_i^2 (1 + (n - 1) rho) / n.
//
// 2. Student t as a scale mixture: delta_i | lambda_i ~ N(delta0, sigma0^2 / lambda_i),
//    lambda_i ~ Gamma(nu / 2, rate nu / 2) gives delta_i ~ t(nu, delta0, sigma0) exactly.
//
// 3. delta_i integrated out: given lambda_i, xbar_i ~ N(delta0, sigma0^2 / lambda_i + v_i),
//    and delta_i is drawn afterwards from its exact conditional posterior
//      delta_i | rest ~ N((delta0 / t_i + xbar_i / v_i) / (1 / t_i + 1 / v_i), 1 / (1 / t_i + 1 / v_i)),
//    t_i = sigma0^2 / lambda_i. The joint posterior of (delta0, sigma0, nu, delta, sigma) is the
//    same as that of the centred model, without the funnel between sigma0 and the delta_i that
//    makes the centred model diverge on heavy-tailed delta_i.
//
// 4. log lambda_i = m(nu) + s(nu) w_i, with m = digamma(nu / 2) - log(nu / 2) and
//    s = sqrt(trigamma(nu / 2)) the mean and sd of log Gamma(nu / 2, nu / 2): w_i has roughly unit
//    scale whatever nu, which removes the funnel between nu and lambda. The density of w_i is
//    Gamma(lambda_i | nu / 2, nu / 2) * lambda_i * s (change of variables), so the model is exact.
//    With k = nu / 2 and e_i = exp(s w_i), lambda_i = exp(m) e_i and the log density of w_i is
//      k log k - lgamma(k) + k log lambda_i - k lambda_i + log s
//        = k (log k + m) - lgamma(k) + log s + k s w_i - k exp(m) e_i,
//    which needs one exponential per data set (e_i), shared with t_i = sigma0^2 exp(-m) / e_i.
//
// 5. Unit-scale parameters. The sampler works on unconstrained raw parameters whose posterior
//    scale is about one, which keeps the early warm-up (unit metric) short:
//      delta0  = delta0_lo + (delta0_hi - delta0_lo) inv_logit(delta0_raw),
//      sigma0  = sigma0_hi inv_logit(sigma0_raw),
//      sigma_i = sigma_hi inv_logit(sigma_raw_i),
//    each raw parameter with an offset and multiplier set from the data (a guess of the
//    posterior location and scale on the logit scale; sigma_i is pinned by ss_i to a relative
//    sd of about 1 / sqrt(2 (n - 1))). The maps are one-to-one onto the prior supports and the
//    model block adds their log Jacobians, so the posterior of (delta0, sigma0, sigma) is
//    unchanged; the guesses affect only the sampler's efficiency. The sigma_i themselves are
//    computed in generated quantities only: the model needs just e_i below.
//    With e_i = exp(-sigma_raw_i) and l_i = log(1 + e_i): sigma_i = sigma_hi / (1 + e_i),
//    log sigma_i = log sigma_hi - l_i, and log |d sigma_i / d sigma_raw_i| =
//    log sigma_hi - 2 l_i - sigma_raw_i, so note 1's sigma_i terms plus the Jacobian are
//      (n - 3) l_i - sigma_raw_i - ss_i (1 + e_i)^2 / (2 (1 - rho) sigma_hi^2) + const.
//    l_i is computed as log(1 + e_i), not log1p(e_i): the vectorised log is cheaper, and the
//    two differ by at most the rounding of 1 + e_i (about 1e-16, absolute).
//
// 6. Outlying data sets are centred. Where one data set's mean lies far from the others,
//    the posterior puts nu near 1, and that data set's lambda_i is fixed by its likelihood
//    rather than by its prior: its non-centred w_i of note 4 is then tied to nu along a
//    curved ridge, w_i = (log lambda_i - m(nu)) / s(nu), on which the sampler needs about
//    twice as many leapfrog steps and, rarely, diverges. Data sets i with
//      |xbar_i - median(xbar)| > 10 max(spread, sqrt(v_factor) sigma_mode_i)
//    (spread: the scaled MAD of the means; sqrt(v_factor) sigma_mode_i: a guess of sqrt(v_i))
//    take log lambda_i itself as their parameter, with the log density of log lambda_i,
//    lambda_i ~ Gamma(nu / 2, nu / 2):
//      k log k - lgamma(k) + k log lambda_i - k lambda_i.
//    Only the parameterisation depends on the data, not the posterior. Centring pays where the
//    likelihood dominates lambda_i; at 6 to 7 spreads it did not, and caused divergences, so
//    the threshold is 10. The model block holds the data sets in slots, non-centred ones
//    first, so that no vector of parameters is indexed (indexing would stop stanc --O1 from
//    holding it as one autodiff node); sigma_raw follows the slots, and generated quantities
//    put sigma and delta back in data-set order.
//
//    The offsets, multipliers and slots of notes 5 and 6 are data: cvcompare chooses them
//    from xbar and ss (cvcompare.hierarchical.layout) and passes them in, so that the native
//    runner's hand-written gradient of this model block (hierarchical_gradient.hpp) reads the
//    same layout as this program.
//
// 7. nu - 1 = exp(z), z = nu_raw - g^2 / 2, g = log(1 + exp(-nu_raw)). Near nu = 1 the data no
//    longer tell values of nu apart, so z = log(nu - 1) would inherit the prior's long left
//    tail (density proportional to exp(alpha z)); the metric's scale for z would then be set
//    by that tail, several times the posterior's scale in its bulk, where the w_i tie nu down,
//    and the step size would have to shrink (with posterior nu near 1.5, one chain in four
//    could end warm-up with a step size that needs 31 leapfrog steps per iteration instead
//    of 15). The map keeps z close to nu_raw for nu_raw > 1 (nu > 3.6) and bends it to
//    z ~ -nu_raw^2 / 2 below nu_raw = 0 (nu < 1.8), which turns the exponential tail into a
//    Gaussian one of variance 1 / alpha, whose curvature stays bounded (a harder squeeze,
//    z = nu_raw - exp(-nu_raw), made the far tail stiff enough for rare divergences). The
//    model block adds the map's log Jacobian,
//      log |d (nu - 1) / d nu_raw| = z + log(1 + g inv_logit(-nu_raw)).
//
// All inputs are on the scale of the data divided by the mean per-data-set standard deviation.
functions {
  // t_i = sigma0^2 / lambda_i = sigma0^2 exp(-m) / e_i, the conditional prior variance of
  // delta_i (notes 3, 4 and 6 above), in data-set order (slot_of: the slot of each data set);
  // the plain sigma0^2 with a Gaussian top level
  vector delta_variance(real sigma0, array[] real nu_minus_one, vector w, vector log_lambda_c,
                        array[] int slot_of, int q) {
    if (size(nu_minus_one) == 0) {
      return rep_vector(square(sigma0), q);
    }
    real k = 0.5 * (nu_minus_one[1] + 1);
    vector[q] t = append_row(exp(log(k) - digamma(k)) * exp(-sqrt(trigamma(k)) * w),
                             exp(-log_lambda_c));
    return square(sigma0) * t[slot_of];
  }

  // z = log(nu - 1) as a function of the parameter nu_raw (note 7)
  real log_nu_minus_one(real nu_raw) {
    return nu_raw - 0.5 * square(log1p_exp(-nu_raw));
  }
}
data {
  int<lower=1> q;                       // number of data sets
  int<lower=2> n;                       // folds per data set (runs x folds)
  vector[q] xbar;                       // mean fold difference of each data set
  vector<lower=0>[q] ss;                // sum of squared deviations from xbar
  real<lower=0, upper=1> rho;           // correlation between folds (< 1)
  real delta0_lo;
  real<lower=delta0_lo> delta0_hi;
  real<lower=0> sigma_hi;               // upper bound of sigma_i
  real<lower=0> sigma0_hi;              // upper bound of sigma0
  int<lower=0, upper=1> student;        // 1: Student-t top level, 0: Gaussian
  int<lower=0, upper=1> nu_hyper;       // 1: uniform priors on alpha and beta, 0: fixed
  real<lower=0> alpha_lo;
  real<lower=alpha_lo> alpha_hi;
  real<lower=0> beta_lo;
  real<lower=beta_lo> beta_hi;
  real<lower=0> nu_alpha;               // fixed Gamma shape of nu - 1 (nu_hyper = 0)
  real<lower=0> nu_beta;                // fixed Gamma rate of nu - 1 (nu_hyper = 0)
  // the sampler's layout (notes 5 and 6), chosen from the data by cvcompare.hierarchical.layout
  int<lower=0, upper=student * q> n_c;  // centred data sets, in the last slots
  array[q] int<lower=1, upper=q> slot_of;  // the slot of each data set (a permutation)
  real delta0_offset;
  real<lower=0> delta0_multiplier;
  real sigma0_offset;
  real<lower=0> sigma0_multiplier;
  vector[q] sigma_offset;                // in slot order
  vector<lower=0>[q] sigma_multiplier;
  vector[n_c] log_lambda_offset;         // in slot order (the last n_c slots)
  real<lower=0> log_lambda_multiplier;
}
transformed data {
  real v_factor = (1 + (n - 1) * rho) / n;  // v_i / sigma_i^2
  real delta0_width = delta0_hi - delta0_lo;
  real v_hi = v_factor * square(sigma_hi);  // v_i (1 + e_i)^2
  int n_nu = student;
  int n_hyper = student * nu_hyper;
  int n_w = student ? q - n_c : 0;
  array[q] int slot_set;  // the data set in each slot (note 6)
  for (i in 1:q) {
    slot_set[slot_of[i]] = i;
  }
  for (j in 1:q) {
    if (slot_set[j] < 1) {
      reject("slot_of: expected a permutation of 1, ..., q; slot ", j, " is empty");
    }
  }
  vector[q] xbar_slot = xbar[slot_set];
  vector[q] ss_term = ss[slot_set] * (0.5 / ((1 - rho) * square(sigma_hi)));  // note 5
}
parameters {
  real<offset=delta0_offset, multiplier=delta0_multiplier> delta0_raw;
  real<offset=sigma0_offset, multiplier=sigma0_multiplier> sigma0_raw;
  array[n_nu] real nu_raw;  // nu - 1 = exp(log_nu_minus_one(nu_raw)) (note 7)
  array[n_hyper] real<lower=alpha_lo, upper=alpha_hi> gamma_alpha;
  array[n_hyper] real<lower=beta_lo, upper=beta_hi> gamma_beta;
  vector<offset=sigma_offset, multiplier=sigma_multiplier>[q] sigma_raw;
  vector[n_w] w;
  vector<offset=log_lambda_offset, multiplier=log_lambda_multiplier>[n_c] log_lambda_c;
}
transformed parameters {
  real delta0 = delta0_lo + delta0_width * inv_logit(delta0_raw);
  real sigma0 = sigma0_hi * inv_logit(sigma0_raw);
  array[n_nu] real nu_minus_one;  // note 7
  for (j in 1:n_nu) {
    nu_minus_one[j] = exp(log_nu_minus_one(nu_raw[j]));
  }
}
model {
  vector[q] e_sigma = exp(-sigma_raw);
  vector[q] one_plus_e = 1 + e_sigma;
  vector[q] one_plus_e2 = square(one_plus_e);  // (sigma_hi / sigma_i)^2
  vector[q] v = v_hi ./ one_plus_e2;  // v_i (note 1), in slot order
  // log Jacobians of delta0 and sigma0 (note 5)
  target += log_inv_logit(delta0_raw) + log1m_inv_logit(delta0_raw)
            + log_inv_logit(sigma0_raw) + log1m_inv_logit(sigma0_raw);
  // sigma_i terms of note 1 and the log Jacobian of sigma_i (note 5)
  target += (n - 3) * sum(log(one_plus_e)) - sum(sigma_raw) - dot_product(ss_term, one_plus_e2);
  // xbar_i ~ N(delta0, t_i + v_i) (note 3), t_i = sigma0^2 / lambda_i (notes 4 and 6)
  if (student) {
    // nu - 1 ~ Gamma(a, b) and the log Jacobian of nu - 1 (note 7), with log(nu - 1) = z
    // itself rather than the log of exp(z): far in the left tail, where nu - 1 underflows
    // to 0, the density stays finite and no error is raised
    real z = log_nu_minus_one(nu_raw[1]);
    real a = nu_alpha;
    real b = nu_beta;
    if (nu_hyper) {
      a = gamma_alpha[1];
      b = gamma_beta[1];
    }
    target += a * (z + log(b)) - lgamma(a) - b * nu_minus_one[1]
              + log1p(log1p_exp(-nu_raw[1]) * inv_logit(-nu_raw[1]));
    real k = 0.5 * (nu_minus_one[1] + 1);
    real m = digamma(k) - log(k);
    real s = sqrt(trigamma(k));
    vector[n_w] e = exp(s * w);
    // log density of the w_i (note 4) and of the centred log lambda_i (note 6)
    target += n_w * (k * (log(k) + m) - lgamma(k) + log(s)) + k * s * sum(w)
              - k * exp(m) * sum(e);
    head(xbar_slot, n_w) ~ normal(delta0, sqrt((square(sigma0) * exp(-m)) ./ e + head(v, n_w)));
    if (n_c) {
      target += n_c * (k * log(k) - lgamma(k)) + k * sum(log_lambda_c)
                - k * sum(exp(log_lambda_c));
      tail(xbar_slot, n_c) ~ normal(delta0, sqrt(square(sigma0) * exp(-log_lambda_c)
                                                 + tail(v, n_c)));
    }
  } else {
    xbar_slot ~ normal(delta0, sqrt(square(sigma0) + v));
  }
}
generated quantities {
  vector[q] sigma = sigma_hi * inv_logit(sigma_raw[slot_of]);
  vector[q] delta;
  {
    vector[q] v = v_factor * square(sigma);
    vector[q] t = delta_variance(sigma0, nu_minus_one, w, log_lambda_c, slot_of, q);
    vector[q] precision = inv(t) + inv(v);
    delta = to_vector(normal_rng((delta0 ./ t + xbar ./ v) ./ precision, inv_sqrt(precision)));
  }
}
