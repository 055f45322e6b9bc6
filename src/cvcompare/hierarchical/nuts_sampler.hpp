// Stan's NUTS with diagonal-metric adaptation, one transition at a time without allocating
// memory: cvcompare's copy of stan::mcmc::base_nuts::transition and build_tree and of
// stan::mcmc::adapt_diag_e_nuts::transition, as in Stan 2.35 (Hoffman & Gelman 2014,
// Betancourt 2017, Stan Reference Manual "MCMC sampling"). The adaptive transition is
// copied too because Stan's calls base_nuts::transition by qualified name, not virtually.
//
// Stan's code allocates and frees vectors of the parameters' size all along a trajectory:
// seven vectors and a state of three more at every call of build_tree above depth 0, four
// temporaries at every leapfrog step, over twenty at every transition, which also
// recomputes the log density and gradient at its starting point. For a cheap log density (the
// package's hierarchical model: about 1 µs) that was a third of a fit. This copy computes
// the same numbers in the same order from the same random numbers, so its draws are Stan's,
// bit for bit (the package's tests run the driver with it and with Stan's own code and
// compare the output files byte for byte), and differs from Stan's code only in this:
//   * its work vectors are members, allocated once per chain (one set per tree depth);
//   * a state chosen by the multinomial sampling is handed over by swapping vectors (a
//     pointer exchange) instead of copying them (each leapfrog step's state is still copied
//     once, into its subtree's proposal, as in Stan);
//   * the log density and gradient of the previous draw, kept from the leapfrog step that
//     computed them, are reused when the next transition starts from that draw (every
//     transition but the first), where Stan recomputes them. That gives the same bits
//     because the native driver's log density is a deterministic function of the position
//     (the hand-written density, or Stan's autodiff with the driver's aligned arena: see
//     stan_driver.cpp), and a program's messages (print) at that point are not repeated;
//   * the U-turn criterion's three checks stop at the first that fails (Stan evaluates all
//     three; they have no side effect);
//   * the diagonal metric's leapfrog step, kinetic energy gradient and U-turn criterion are
//     written out here instead of called through Stan's virtual functions, so this class is
//     for the diagonal metric and the explicit leapfrog only.
// The adaptation (dual averaging of the step size, windowed estimation of the metric) and
// the step-size initialisation are Stan's own, inherited. Another Stan version may build its
// trajectories differently; the tests would then find the draws differ.
#ifndef CVCOMPARE_NUTS_SAMPLER_HPP
#define CVCOMPARE_NUTS_SAMPLER_HPP

#include <stan/callbacks/logger.hpp>
#include <stan/math/prim.hpp>
#include <stan/mcmc/hmc/nuts/adapt_diag_e_nuts.hpp>
#include <stan/mcmc/sample.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

namespace cvcompare {

template <class Model, class BaseRNG>
class nuts_sampler : public stan::mcmc::adapt_diag_e_nuts<Model, BaseRNG> {
  using vector = Eigen::VectorXd;
  using point = stan::mcmc::ps_point;

  // The vectors that Stan's build_tree allocates at each call, for one tree depth.
  struct subtree {
    vector p_init_end, p_sharp_init_end, rho_init;
    point z_propose_final;
    vector p_final_beg, p_sharp_final_beg, rho_final, rho_subtree;
    explicit subtree(int n)
        : p_init_end(n), p_sharp_init_end(n), rho_init(n), z_propose_final(n),
          p_final_beg(n), p_sharp_final_beg(n), rho_final(n), rho_subtree(n) {}
  };

 public:
  nuts_sampler(const Model& model, BaseRNG& rng)
      : stan::mcmc::adapt_diag_e_nuts<Model, BaseRNG>(model, rng),
        n_(model.num_params_r()),
        z_fwd_(n_), z_bck_(n_), z_sample_(n_), z_propose_(n_), last_draw_(n_),
        p_fwd_fwd_(n_), p_sharp_fwd_fwd_(n_), p_fwd_bck_(n_), p_sharp_fwd_bck_(n_),
        p_bck_fwd_(n_), p_sharp_bck_fwd_(n_), p_bck_bck_(n_), p_sharp_bck_bck_(n_),
        rho_(n_), rho_fwd_(n_), rho_bck_(n_), rho_extended_(n_), velocity_(n_) {}

  // stan::mcmc::adapt_diag_e_nuts::transition, around the transition below.
  stan::mcmc::sample transition(stan::mcmc::sample& init_sample,
                                stan::callbacks::logger& logger) override {
    stan::mcmc::sample s = nuts_transition(init_sample, logger);
    if (this->adapt_flag_) {
      this->stepsize_adaptation_.learn_stepsize(this->nom_epsilon_, s.accept_stat());
      if (this->var_adaptation_.learn_variance(this->z_.inv_e_metric_, this->z_.q)) {
        this->init_stepsize(logger);
        this->stepsize_adaptation_.set_mu(std::log(10 * this->nom_epsilon_));
        this->stepsize_adaptation_.restart();
      }
    }
    return s;
  }

 private:
  // stan::mcmc::base_nuts::transition.
  stan::mcmc::sample nuts_transition(stan::mcmc::sample& init_sample,
                                     stan::callbacks::logger& logger) {
    auto& z = this->z_;
    this->sample_stepsize();
    this->seed(init_sample.cont_params());
    this->hamiltonian_.sample_p(z, this->rand_int_);
    // the log density and gradient: kept from the previous transition if it ended here
    if (have_last_draw_
        && std::memcmp(z.q.data(), last_draw_.q.data(), n_ * sizeof(double)) == 0) {
      z.V = last_draw_.V;
      z.g = last_draw_.g;
    } else {
      this->hamiltonian_.init(z, logger);
    }
    while (static_cast<int>(subtrees_.size()) < this->max_depth_ - 1) {
      subtrees_.emplace_back(n_);
    }

    z_fwd_ = z;
    z_bck_ = z;
    z_sample_ = z;
    p_fwd_fwd_ = z.p;
    p_sharp_fwd_fwd_ = z.inv_e_metric_.cwiseProduct(z.p);
    p_fwd_bck_ = z.p;
    p_sharp_fwd_bck_ = p_sharp_fwd_fwd_;
    p_bck_fwd_ = z.p;
    p_sharp_bck_fwd_ = p_sharp_fwd_fwd_;
    p_bck_bck_ = z.p;
    p_sharp_bck_bck_ = p_sharp_fwd_fwd_;
    rho_ = z.p;

    double log_sum_weight = 0;  // log(exp(H0 - H0))
    const double H0 = this->hamiltonian_.H(z);
    int n_leapfrog = 0;
    double sum_metro_prob = 0;
    this->depth_ = 0;
    this->divergent_ = false;

    while (this->depth_ < this->max_depth_) {
      rho_fwd_.setZero();
      rho_bck_.setZero();
      bool valid_subtree;
      double log_sum_weight_subtree = -std::numeric_limits<double>::infinity();
      if (this->rand_uniform_() > 0.5) {  // extend the trajectory forward
        z.point::operator=(z_fwd_);
        rho_bck_ = rho_;
        p_bck_fwd_ = p_fwd_fwd_;
        p_sharp_bck_fwd_ = p_sharp_fwd_fwd_;
        valid_subtree = build_subtree(this->depth_, z_propose_, p_sharp_fwd_bck_,
                                      p_sharp_fwd_fwd_, rho_fwd_, p_fwd_bck_, p_fwd_fwd_, H0, 1,
                                      n_leapfrog, log_sum_weight_subtree, sum_metro_prob, logger);
        z_fwd_ = z;
      } else {  // backward
        z.point::operator=(z_bck_);
        rho_fwd_ = rho_;
        p_fwd_bck_ = p_bck_bck_;
        p_sharp_fwd_bck_ = p_sharp_bck_bck_;
        valid_subtree = build_subtree(this->depth_, z_propose_, p_sharp_bck_fwd_,
                                      p_sharp_bck_bck_, rho_bck_, p_bck_fwd_, p_bck_bck_, H0, -1,
                                      n_leapfrog, log_sum_weight_subtree, sum_metro_prob, logger);
        z_bck_ = z;
      }
      if (!valid_subtree) {
        break;
      }
      ++(this->depth_);
      if (log_sum_weight_subtree > log_sum_weight
          || this->rand_uniform_() < std::exp(log_sum_weight_subtree - log_sum_weight)) {
        swap(z_sample_, z_propose_);
      }
      log_sum_weight = stan::math::log_sum_exp(log_sum_weight, log_sum_weight_subtree);
      rho_ = rho_bck_ + rho_fwd_;
      // the U-turn criterion around the merged subtrees, then between them
      if (!u_turn_free(p_sharp_bck_bck_, p_sharp_fwd_fwd_, rho_)) {
        break;
      }
      rho_extended_ = rho_bck_ + p_fwd_bck_;
      if (!u_turn_free(p_sharp_bck_bck_, p_sharp_fwd_bck_, rho_extended_)) {
        break;
      }
      rho_extended_ = rho_fwd_ + p_bck_fwd_;
      if (!u_turn_free(p_sharp_bck_fwd_, p_sharp_fwd_fwd_, rho_extended_)) {
        break;
      }
    }

    this->n_leapfrog_ = n_leapfrog;
    // the average acceptance probability over the whole trajectory
    const double accept_prob = sum_metro_prob / static_cast<double>(n_leapfrog);
    z.point::operator=(z_sample_);
    last_draw_.q = z.q;
    last_draw_.V = z.V;
    last_draw_.g = z.g;
    have_last_draw_ = true;
    this->energy_ = this->hamiltonian_.H(z);
    return stan::mcmc::sample(z.q, -z.V, accept_prob);
  }

  // stan::mcmc::base_nuts::build_tree: a subtree of 2^depth leapfrog steps from z_ in the
  // direction sign, or false as soon as it diverges or turns back on itself.
  bool build_subtree(int depth, point& z_propose, vector& p_sharp_beg, vector& p_sharp_end,
                     vector& rho, vector& p_beg, vector& p_end, double H0, double sign,
                     int& n_leapfrog, double& log_sum_weight, double& sum_metro_prob,
                     stan::callbacks::logger& logger) {
    auto& z = this->z_;
    if (depth == 0) {
      leapfrog(sign * this->epsilon_, logger);
      ++n_leapfrog;
      double h = this->hamiltonian_.H(z);
      if (std::isnan(h)) {
        h = std::numeric_limits<double>::infinity();
      }
      if ((h - H0) > this->max_deltaH_) {
        this->divergent_ = true;
      }
      log_sum_weight = stan::math::log_sum_exp(log_sum_weight, H0 - h);
      sum_metro_prob += H0 - h > 0 ? 1 : std::exp(H0 - h);
      z_propose = z;
      p_sharp_beg = z.inv_e_metric_.cwiseProduct(z.p);
      p_sharp_end = p_sharp_beg;
      rho += z.p;
      p_beg = z.p;
      p_end = p_beg;
      return !this->divergent_;
    }
    subtree& t = subtrees_[depth - 1];

    double log_sum_weight_init = -std::numeric_limits<double>::infinity();
    t.rho_init.setZero();
    if (!build_subtree(depth - 1, z_propose, p_sharp_beg, t.p_sharp_init_end, t.rho_init,
                       p_beg, t.p_init_end, H0, sign, n_leapfrog, log_sum_weight_init,
                       sum_metro_prob, logger)) {
      return false;
    }
    double log_sum_weight_final = -std::numeric_limits<double>::infinity();
    t.rho_final.setZero();
    if (!build_subtree(depth - 1, t.z_propose_final, t.p_sharp_final_beg, p_sharp_end,
                       t.rho_final, t.p_final_beg, p_end, H0, sign, n_leapfrog,
                       log_sum_weight_final, sum_metro_prob, logger)) {
      return false;
    }

    // multinomial sampling from the final subtree
    const double log_sum_weight_subtree
        = stan::math::log_sum_exp(log_sum_weight_init, log_sum_weight_final);
    log_sum_weight = stan::math::log_sum_exp(log_sum_weight, log_sum_weight_subtree);
    if (log_sum_weight_final > log_sum_weight_subtree
        || this->rand_uniform_() < std::exp(log_sum_weight_final - log_sum_weight_subtree)) {
      swap(z_propose, t.z_propose_final);
    }

    t.rho_subtree = t.rho_init + t.rho_final;
    rho += t.rho_subtree;
    // the U-turn criterion around the merged subtrees, then between them
    if (!u_turn_free(p_sharp_beg, p_sharp_end, t.rho_subtree)) {
      return false;
    }
    t.rho_subtree = t.rho_init + t.p_final_beg;
    if (!u_turn_free(p_sharp_beg, t.p_sharp_final_beg, t.rho_subtree)) {
      return false;
    }
    t.rho_subtree = t.rho_final + t.p_init_end;
    return u_turn_free(t.p_sharp_init_end, p_sharp_end, t.rho_subtree);
  }

  // stan::mcmc::expl_leapfrog::evolve with the diagonal metric: half a momentum step, a
  // position step along the velocity M^-1 p, the new log density and gradient, half a
  // momentum step.
  void leapfrog(double epsilon, stan::callbacks::logger& logger) {
    auto& z = this->z_;
    const double half = 0.5 * epsilon;
    z.p -= half * z.g;
    velocity_ = z.inv_e_metric_.cwiseProduct(z.p);
    z.q += epsilon * velocity_;
    this->hamiltonian_.update_potential_gradient(z, logger);
    z.p -= half * z.g;
  }

  // stan::mcmc::base_nuts::compute_criterion: no U-turn between the two ends.
  static bool u_turn_free(const vector& p_sharp_minus, const vector& p_sharp_plus,
                          const vector& rho) {
    return p_sharp_plus.dot(rho) > 0 && p_sharp_minus.dot(rho) > 0;
  }

  static void swap(point& a, point& b) {
    a.q.swap(b.q);
    a.p.swap(b.p);
    a.g.swap(b.g);
    std::swap(a.V, b.V);
  }

  int n_;
  point z_fwd_, z_bck_, z_sample_, z_propose_;
  point last_draw_;  // the previous draw, its log density and gradient (p unused)
  bool have_last_draw_ = false;
  vector p_fwd_fwd_, p_sharp_fwd_fwd_, p_fwd_bck_, p_sharp_fwd_bck_;
  vector p_bck_fwd_, p_sharp_bck_fwd_, p_bck_bck_, p_sharp_bck_bck_;
  vector rho_, rho_fwd_, rho_bck_, rho_extended_, velocity_;
  std::vector<subtree> subtrees_;
};

}  // namespace cvcompare
#endif
