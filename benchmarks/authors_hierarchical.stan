// The hierarchical model of Corani, Benavoli, Demsar, Mangili & Zaffalon (2017), Sec. 3,
// Eqs. (2)-(4), programmed the way the authors describe their Stan implementation
// (BayesianTestsML / tutorial): centred delta_i ~ t(nu, delta0, sigma0), and each data set's
// multivariate normal likelihood written as a quadratic form with the inverse of the fold
// correlation matrix M = (1 - rho) I + rho 1 1', whose determinant and inverse are known in
// closed form:
//   det M    = (1 + (n - 1) rho) (1 - rho)^(n - 1),
//   M^{-1}   = adj(M) / det M, adj(M)_jj = (1 + (n - 2) rho) (1 - rho)^(n - 2),
//                              adj(M)_jk = -rho (1 - rho)^(n - 2)  (j != k),
//   log MVN(x_i | 1 delta_i, sigma_i^2 M)
//            = -(2 n log sigma_i + log det M + n log(2 pi)) / 2
//              - (x_i - 1 delta_i)' M^{-1} (x_i - 1 delta_i) / (2 sigma_i^2),
// the quadratic forms of all q data sets taken at once as the diagonal of
// D M^{-1} D' (D: the q x n matrix of x_i - delta_i). Priors as in the paper: delta0, sigma0
// and the sigma_i uniform on their bounds, nu - 1 ~ Gamma(alpha, beta), alpha and beta
// uniform. The benchmark (benchmarks/bench_hierarchical.py) times it against the package's
// program on the same data; tests/reference_hierarchical.stan (full multi_normal) is the
// correctness reference.
data {
  int<lower=1> q;
  int<lower=2> n;
  matrix[q, n] x;
  real<lower=0, upper=1> rho;
  real delta0_lo;
  real<lower=delta0_lo> delta0_hi;
  real<lower=0> sigma_hi;
  real<lower=0> sigma0_hi;
  real<lower=0> alpha_lo;
  real<lower=alpha_lo> alpha_hi;
  real<lower=0> beta_lo;
  real<lower=beta_lo> beta_hi;
}
transformed data {
  real det_m = (1 + (n - 1) * rho) * (1 - rho) ^ (n - 1);
  matrix[n, n] inv_m;
  for (j in 1:n) {
    for (k in 1:n) {
      inv_m[j, k] = (j == k ? 1 + (n - 2) * rho : -rho) * (1 - rho) ^ (n - 2) / det_m;
    }
  }
}
parameters {
  real<lower=delta0_lo, upper=delta0_hi> delta0;
  real<lower=0, upper=sigma0_hi> sigma0;
  vector[q] delta;
  vector<lower=0, upper=sigma_hi>[q] sigma;
  real<lower=0> nu_minus_one;
  real<lower=alpha_lo, upper=alpha_hi> gamma_alpha;
  real<lower=beta_lo, upper=beta_hi> gamma_beta;
}
model {
  matrix[q, n] d = x - rep_matrix(delta, n);
  vector[q] quad = diagonal(quad_form(inv_m, d'));
  vector[q] log_lik = -0.5 * (2 * n * log(sigma) + log(det_m) + n * log(2 * pi()))
                      - 0.5 * quad ./ square(sigma);
  nu_minus_one ~ gamma(gamma_alpha, gamma_beta);
  delta ~ student_t(nu_minus_one + 1, delta0, sigma0);
  target += sum(log_lik);
}
