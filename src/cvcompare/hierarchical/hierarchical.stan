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
// All inputs are on the scale of the data divided by the mean per-data-set standard deviation.
functions {
  // t_i = sigma0^2 / lambda_i = sigma0^2 exp(-m) / e_i, the conditional prior variance of
  // delta_i (notes 3 and 4 above); the plain sigma0^2 with a Gaussian top level
  vector delta_variance(real sigma0, array[] real nu_minus_one, vector w, int q) {
    if (size(nu_minus_one) == 0) {
      return rep_vector(square(sigma0), q);
    }
    real k = 0.5 * (nu_minus_one[1] + 1);
    return square(sigma0) * exp(log(k) - digamma(k)) * exp(-sqrt(trigamma(k)) * w);
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
}
transformed data {
  real v_factor = (1 + (n - 1) * rho) / n;  // v_i / sigma_i^2
  real half_inv_one_minus_rho = 0.5 / (1 - rho);
  int n_w = student ? q : 0;
  int n_nu = student;
  int n_hyper = student * nu_hyper;
}
parameters {
  real<lower=delta0_lo, upper=delta0_hi> delta0;
  real<lower=0, upper=sigma0_hi> sigma0;
  array[n_nu] real<lower=0> nu_minus_one;
  array[n_hyper] real<lower=alpha_lo, upper=alpha_hi> gamma_alpha;
  array[n_hyper] real<lower=beta_lo, upper=beta_hi> gamma_beta;
  vector<lower=0, upper=sigma_hi>[q] sigma;
  vector[n_w] w;
}
model {
  vector[q] sigma2 = square(sigma);
  vector[q] t;
  if (student) {
    real k = 0.5 * (nu_minus_one[1] + 1);
    real m = digamma(k) - log(k);
    real s = sqrt(trigamma(k));
    vector[q] e = exp(s * w);
    // log density of the w_i (note 4 above)
    target += q * (k * (log(k) + m) - lgamma(k) + log(s)) + k * s * sum(w)
              - k * exp(m) * sum(e);
    t = (square(sigma0) * exp(-m)) ./ e;
    if (nu_hyper) {
      nu_minus_one[1] ~ gamma(gamma_alpha[1], gamma_beta[1]);
    } else {
      nu_minus_one[1] ~ gamma(nu_alpha, nu_beta);
    }
  } else {
    t = rep_vector(square(sigma0), q);
  }
  xbar ~ normal(delta0, sqrt(t + v_factor * sigma2));
  target += -(n - 1) * sum(log(sigma)) - half_inv_one_minus_rho * dot_product(ss, inv(sigma2));
}
generated quantities {
  vector[q] delta;
  {
    vector[q] v = v_factor * square(sigma);
    vector[q] t = delta_variance(sigma0, nu_minus_one, w, q);
    vector[q] precision = inv(t) + inv(v);
    delta = to_vector(normal_rng((delta0 ./ t + xbar ./ v) ./ precision, inv_sqrt(precision)));
  }
}
