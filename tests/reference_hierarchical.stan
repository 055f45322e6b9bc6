// Reference implementation of the hierarchical model of Corani et al. (2017), Eqs. (2)-(4),
// written directly from the paper: centred delta_i ~ t(nu, delta0, sigma0) and the full
// multivariate normal likelihood of each data set's n fold differences with covariance
// sigma_i^2 ((1 - rho) I + rho 1 1'). Used only to check the fast program
// (src/cvcompare/hierarchical/hierarchical.stan): log density and posterior summaries.
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
  matrix[n, n] corr = (1 - rho) * identity_matrix(n) + rho * rep_matrix(1, n, n);
}
parameters {
  real<lower=delta0_lo, upper=delta0_hi> delta0;
  real<lower=0, upper=sigma0_hi> sigma0;
  real<lower=0> nu_minus_one;
  real<lower=alpha_lo, upper=alpha_hi> gamma_alpha;
  real<lower=beta_lo, upper=beta_hi> gamma_beta;
  vector<lower=0, upper=sigma_hi>[q] sigma;
  vector[q] delta;
}
model {
  nu_minus_one ~ gamma(gamma_alpha, gamma_beta);
  delta ~ student_t(nu_minus_one + 1, delta0, sigma0);
  for (i in 1:q) {
    x[i]' ~ multi_normal(rep_vector(delta[i], n), square(sigma[i]) * corr);
  }
}
