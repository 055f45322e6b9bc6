// Standalone NUTS driver for one Stan program (cvcompare's "native" runner).
//
// Compiled together with the C++ that stanc generates from a Stan program, against the
// Stan, Stan Math and TBB headers that PyStan's httpstan package installs. It runs all
// chains in one process, in parallel threads (TBB), with Stan's NUTS and diagonal-metric
// adaptation and Stan's defaults, as CmdStan's "sample" method and PyStan run it
// (stan::services::sample::hmc_nuts_diag_e_adapt): the same initialisation, adaptation and
// per-chain random number streams (seed, chain id).
//
// Usage:
//   driver DATA_JSON OUTPUT SEED CHAINS WARMUP DRAWS ADAPT_DELTA MAX_DEPTH THREADS INIT_RADIUS
//          GRADIENT TRANSITION
//   driver --check-gradient DATA_JSON OUTPUT SEED POINTS RADIUS
//
// GRADIENT is "autodiff" (Stan's reverse mode, for any program) or "hierarchical": the
// hand-written log density and gradient of the package's hierarchical.stan
// (hierarchical_gradient.hpp), which makes fits several times faster; the program must then
// be that one.
// TRANSITION is "package" (the chains run here with nuts_sampler.hpp, Stan's NUTS transition
// without allocating memory at every leapfrog step, faster for a cheap density) or "stan"
// (Stan's own code throughout, stan::services::sample::hmc_nuts_diag_e_adapt); the two
// give the same output, bit for bit.
// --check-gradient evaluates both gradients at POINTS points drawn uniformly from
// [-RADIUS, RADIUS] on the unconstrained scale (seeded by SEED) and writes to OUTPUT, for
// each, one line: the two log densities, then the autodiff gradient, the hand-written one,
// and central differences of the hand-written density (17 significant digits; NaN for
// Stan's where it rejects the point).
//
// The draws are a function of the data and the arguments only: the same bits whatever
// THREADS, the CPUs the process may use, the order in which the threads pick up chains, and
// the machine's load. Each chain has its own random number stream (seed, chain id) and its
// own autodiff state; what remained was memory alignment. Eigen sums vectors with SIMD
// instructions, starting with single elements until the address is a multiple of the SIMD
// register width (up to 64 bytes), so the rounding of a sum depends on the address of its
// first element. Stan's autodiff arena hands out memory in 8-byte steps from blocks that it
// obtains with malloc, whose addresses are only 16-byte aligned and depend on which thread
// asks first and what that thread allocated before; the same chain run on another thread
// then rounded its sums differently and, within a few hundred iterations, gave other draws.
// Here every block of the arena is 64-byte aligned (the link wraps malloc,
// -Wl,--wrap=malloc, and the wrapper aligns every request of an arena block's size or more),
// and each gradient starts at the beginning of the arena, so every vector of every gradient
// has the same alignment, hence the same rounding, on any thread. (Aligning every malloc, the
// small temporaries too, made fits 25% slower; the arena's blocks are allocated once per
// thread.)
//
// OUTPUT receives one text line with the comma-separated column names (sampler
// diagnostics, then the program's parameters, transformed parameters and generated
// quantities, in Stan's flat "name.index" form) followed by the post-warm-up draws as
// little-endian float64, chain after chain, draw after draw. Nothing is written unless
// every chain finishes; errors go to stderr with a non-zero exit status.
#include <cstdlib>

#include <stan/math/memory/stack_alloc.hpp>

// malloc, for every call compiled into this program (the linker routes them here): requests
// of at least the size of the autodiff arena's first block, which include all its blocks,
// get memory aligned to 64 bytes, the widest SIMD alignment Eigen uses (see the top of the
// file); smaller ones are passed on unchanged. free() releases both as usual.
extern "C" void* __real_malloc(std::size_t size);
extern "C" void* __wrap_malloc(std::size_t size) {
  if (size < stan::math::internal::DEFAULT_INITIAL_NBYTES) {
    return __real_malloc(size);
  }
  void* memory = nullptr;
  return posix_memalign(&memory, 64, size) == 0 ? memory : nullptr;
}

#include <stan/callbacks/interrupt.hpp>
#include <stan/callbacks/logger.hpp>
#include <stan/callbacks/structured_writer.hpp>
#include <stan/callbacks/writer.hpp>
#include <stan/io/empty_var_context.hpp>
#include <stan/io/json/json_data.hpp>
#include <stan/model/gradient.hpp>
#include <stan/model/model_base.hpp>

#include "hierarchical_gradient.hpp"

namespace cvcompare {
// The hand-written density that replaces autodiff ("hierarchical" GRADIENT), or none.
const hierarchical_density* hand_written = nullptr;
}  // namespace cvcompare

namespace stan {
namespace model {

// The sampler's gradient (base_hamiltonian calls stan::model::gradient by qualified name, and
// this non-template overload, declared before the sampler's headers, is the exact match it
// picks over the template in stan/model/gradient.hpp). It computes the same gradient and
// logs the same messages; it only keeps one message stream per thread instead of building
// a new std::stringstream at every leapfrog step, which cost about 5% of a fit. With the
// "hierarchical" GRADIENT it computes the hand-written density and gradient instead.
void gradient(const model_base& model, const Eigen::VectorXd& x, double& f,
              Eigen::VectorXd& grad_f, callbacks::logger& logger) {
  if (cvcompare::hand_written != nullptr) {
    f = (*cvcompare::hand_written)(x, grad_f);
    return;
  }
  thread_local std::stringstream messages;
  auto flush = [&] {
    if (messages.tellp() > 0) {
      logger.info(messages);
      messages.str("");
      messages.clear();
    }
  };
  // Start from the beginning of the thread's (64-byte aligned) arena whatever was run on
  // this thread before, so that the gradient's vectors are aligned the same way on every
  // thread (see the top of the file). The sampler keeps no autodiff variables between
  // gradients, so nothing in use is discarded.
  if (stan::math::empty_nested()) {
    stan::math::recover_memory();
  }
  try {
    stan::math::gradient(model_functional<model_base>(model, &messages), x, f, grad_f);
  } catch (const std::exception&) {
    flush();
    throw;
  }
  flush();
}

}  // namespace model
}  // namespace stan

#include <stan/io/array_var_context.hpp>
#include <stan/services/error_codes.hpp>
#include <stan/services/sample/hmc_nuts_diag_e_adapt.hpp>
#include <stan/services/util/create_rng.hpp>
#include <stan/services/util/create_unit_e_diag_inv_metric.hpp>
#include <stan/services/util/initialize.hpp>
#include <stan/services/util/run_adaptive_sampler.hpp>
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include "nuts_sampler.hpp"

#include <exception>
#include <fstream>
#include <iostream>
#include <iomanip>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

stan::model::model_base& new_model(stan::io::var_context& data_context, unsigned int seed,
                                   std::ostream* msg_stream);

namespace {

// Keeps the column names and every kept draw of one chain in memory.
class draws_writer : public stan::callbacks::writer {
 public:
  std::vector<std::string> names;
  std::vector<double> values;
  void operator()(const std::vector<std::string>& n) override { names = n; }
  void operator()(const std::vector<double>& state) override {
    values.insert(values.end(), state.begin(), state.end());
  }
};

// Passes Stan's warnings and errors to stderr; progress and timing are dropped.
class stderr_logger : public stan::callbacks::logger {
 public:
  void warn(const std::string& m) override { std::cerr << m << '\n'; }
  void warn(const std::stringstream& m) override { std::cerr << m.str() << '\n'; }
  void error(const std::string& m) override { std::cerr << m << '\n'; }
  void error(const std::stringstream& m) override { std::cerr << m.str() << '\n'; }
  void fatal(const std::string& m) override { std::cerr << m << '\n'; }
  void fatal(const std::stringstream& m) override { std::cerr << m.str() << '\n'; }
};

// The program's data, read from a JSON file.
std::unique_ptr<stan::json::json_data> read_data(const char* path) {
  std::ifstream data_file(path);
  if (!data_file) {
    throw std::runtime_error(std::string("cannot read the data file ") + path);
  }
  return std::make_unique<stan::json::json_data>(data_file);
}

// Stan's defaults (CmdStan's "sample" method) for what the runner does not set: random
// initial values within init_radius, unit metric, no warm-up draws kept, and these.
struct stan_defaults {
  static constexpr double stepsize = 1;
  static constexpr double stepsize_jitter = 0;
  static constexpr double gamma = 0.05;
  static constexpr double kappa = 0.75;
  static constexpr double t0 = 10;
  static constexpr unsigned int init_buffer = 75;
  static constexpr unsigned int term_buffer = 50;
  static constexpr unsigned int window = 25;
};

// The chains as Stan's stan::services::sample::hmc_nuts_diag_e_adapt runs them, with the
// package's nuts_sampler in place of Stan's stan::mcmc::adapt_diag_e_nuts. Chain i (from 0)
// draws from Stan's random number stream (seed, i + 1), as in Stan; the chains run in
// parallel, as many at a time as tbb::global_control allows. Returns Stan's error code (0
// when every chain finished).
int run_chains(stan::model::model_base& model, unsigned int seed, double init_radius,
               int warmup, int draws, double adapt_delta, int max_depth,
               std::vector<draws_writer>& writers) {
  const std::size_t chains = writers.size();
  stan::callbacks::interrupt interrupt;
  stderr_logger logger;
  stan::callbacks::writer no_writer;
  stan::callbacks::structured_writer no_metric_writer;
  stan::io::empty_var_context no_inits;
  std::vector<stan::rng_t> rngs;
  std::vector<std::vector<double>> initial_values;
  using sampler_t = cvcompare::nuts_sampler<stan::model::model_base, stan::rng_t>;
  std::vector<sampler_t> samplers;
  rngs.reserve(chains);
  initial_values.reserve(chains);
  samplers.reserve(chains);
  try {
    for (std::size_t i = 0; i < chains; ++i) {
      rngs.emplace_back(stan::services::util::create_rng(seed, i + 1));
      initial_values.emplace_back(stan::services::util::initialize(
          model, no_inits, rngs[i], init_radius, true, logger, no_writer));
      sampler_t& sampler = samplers.emplace_back(model, rngs[i]);
      sampler.set_metric(Eigen::VectorXd::Ones(model.num_params_r()).eval());
      sampler.set_nominal_stepsize(stan_defaults::stepsize);
      sampler.set_stepsize_jitter(stan_defaults::stepsize_jitter);
      sampler.set_max_depth(max_depth);
      sampler.get_stepsize_adaptation().set_mu(std::log(10 * stan_defaults::stepsize));
      sampler.get_stepsize_adaptation().set_delta(adapt_delta);
      sampler.get_stepsize_adaptation().set_gamma(stan_defaults::gamma);
      sampler.get_stepsize_adaptation().set_kappa(stan_defaults::kappa);
      sampler.get_stepsize_adaptation().set_t0(stan_defaults::t0);
      sampler.set_window_params(warmup, stan_defaults::init_buffer, stan_defaults::term_buffer,
                                stan_defaults::window, logger);
    }
  } catch (const std::exception& e) {
    logger.error(e.what());
    return stan::services::error_codes::CONFIG;
  }
  try {
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, chains, 1),
        [&](const tbb::blocked_range<std::size_t>& range) {
          for (std::size_t i = range.begin(); i != range.end(); ++i) {
            stan::services::util::run_adaptive_sampler(
                samplers[i], model, initial_values[i], warmup, draws, 1, 0, false, rngs[i],
                interrupt, logger, writers[i], no_writer, no_metric_writer, i + 1, chains);
          }
        },
        tbb::simple_partitioner());
  } catch (const std::exception& e) {
    logger.error(e.what());
    return stan::services::error_codes::SOFTWARE;
  }
  return stan::services::error_codes::OK;
}

// The same with Stan's own code throughout: stan::services::sample::hmc_nuts_diag_e_adapt
// with the same settings (TRANSITION "stan").
int run_stan_service(stan::model::model_base& model, unsigned int seed, double init_radius,
                     int warmup, int draws, double adapt_delta, int max_depth,
                     std::vector<draws_writer>& writers) {
  const std::size_t chains = writers.size();
  auto no_inits = std::make_shared<stan::io::empty_var_context>();
  auto unit_metric = std::make_shared<stan::io::array_var_context>(
      stan::services::util::create_unit_e_diag_inv_metric(model.num_params_r()));
  std::vector<std::shared_ptr<stan::io::var_context>> inits(chains, no_inits);
  std::vector<std::shared_ptr<stan::io::var_context>> metrics(chains, unit_metric);
  std::vector<stan::callbacks::writer> init_writers(chains), diagnostic_writers(chains);
  std::vector<stan::callbacks::structured_writer> metric_writers(chains);
  stan::callbacks::interrupt interrupt;
  stderr_logger logger;
  using d = stan_defaults;
  return stan::services::sample::hmc_nuts_diag_e_adapt(
      model, chains, inits, metrics, seed, 1, init_radius, warmup, draws, 1, false, 0,
      d::stepsize, d::stepsize_jitter, max_depth, adapt_delta, d::gamma, d::kappa, d::t0,
      d::init_buffer, d::term_buffer, d::window, interrupt, logger, init_writers, writers,
      diagnostic_writers, metric_writers);
}

// --check-gradient: both gradients at random points (see the top of the file).
int check_gradient(char** argv) {
  auto data = read_data(argv[2]);
  const unsigned int seed = std::stoul(argv[4]);
  const int points = std::stoi(argv[5]);
  const double radius = std::stod(argv[6]);
  stan::model::model_base& model = new_model(*data, seed, &std::cerr);
  const cvcompare::hierarchical_density density(*data);
  if (density.size() != model.num_params_r()) {
    std::cerr << "the hand-written density has " << density.size()
              << " parameters, the program " << model.num_params_r() << '\n';
    return 2;
  }
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-radius, radius);
  std::ofstream out(argv[3]);
  out << std::setprecision(17);
  for (int p = 0; p < points; ++p) {
    Eigen::VectorXd x(model.num_params_r());
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      x[i] = uniform(rng);
    }
    double f_stan = 0;
    Eigen::VectorXd g_stan, g_hand;
    try {
      stan::model::gradient(model, x, f_stan, g_stan, &std::cerr);
    } catch (const std::domain_error&) {  // Stan rejects the point: NaN in its columns
      f_stan = std::numeric_limits<double>::quiet_NaN();
      g_stan.setConstant(x.size(), f_stan);
    }
    const double f_hand = density(x, g_hand);
    // central differences of the hand-written density, step 1e-4: error about
    // 1e-8 |third derivative| + 1e-12 |log density|
    Eigen::VectorXd g_diff(x.size()), g_unused;
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      Eigen::VectorXd up = x, down = x;
      up[i] += 1e-4;
      down[i] -= 1e-4;
      g_diff[i] = (density(up, g_unused) - density(down, g_unused)) / 2e-4;
    }
    out << f_stan << ' ' << f_hand;
    for (const Eigen::VectorXd* g : {&g_stan, &g_hand, &g_diff}) {
      for (Eigen::Index i = 0; i < g->size(); ++i) {
        out << ' ' << (*g)[i];
      }
    }
    out << '\n';
  }
  out.close();
  if (!out) {
    std::cerr << "cannot write the output file " << argv[3] << '\n';
    return 2;
  }
  return 0;
}

int run(char** argv) {
  auto data_owner = read_data(argv[1]);
  stan::json::json_data& data = *data_owner;
  const unsigned int seed = std::stoul(argv[3]);
  const std::size_t chains = std::stoul(argv[4]);
  const int warmup = std::stoi(argv[5]);
  const int draws = std::stoi(argv[6]);
  const double adapt_delta = std::stod(argv[7]);
  const int max_depth = std::stoi(argv[8]);
  const std::size_t threads = std::stoul(argv[9]);
  const double init_radius = std::stod(argv[10]);
  const std::string gradient = argv[11];
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);

  stan::model::model_base& model = new_model(data, seed, &std::cerr);
  std::unique_ptr<cvcompare::hierarchical_density> density;
  if (gradient == "hierarchical") {
    density = std::make_unique<cvcompare::hierarchical_density>(data);
    if (density->size() != model.num_params_r()) {
      std::cerr << "GRADIENT hierarchical needs the package's hierarchical.stan\n";
      return 2;
    }
    cvcompare::hand_written = density.get();
  } else if (gradient != "autodiff") {
    std::cerr << "GRADIENT: expected autodiff or hierarchical, got " << gradient << '\n';
    return 2;
  }
  const std::string transition = argv[12];
  std::vector<draws_writer> writers(chains);
  int status;
  if (transition == "package") {
    status =
        run_chains(model, seed, init_radius, warmup, draws, adapt_delta, max_depth, writers);
  } else if (transition == "stan") {
    status = run_stan_service(model, seed, init_radius, warmup, draws, adapt_delta, max_depth,
                              writers);
  } else {
    std::cerr << "TRANSITION: expected package or stan, got " << transition << '\n';
    return 2;
  }
  if (status != 0) {
    std::cerr << "Stan's sampler stopped with error code " << status << '\n';
    return status;
  }
  std::ofstream out(argv[2], std::ios::binary);
  const std::vector<std::string>& names = writers[0].names;
  for (std::size_t i = 0; i < names.size(); ++i) {
    out << (i ? "," : "") << names[i];
  }
  out << '\n';
  for (const draws_writer& w : writers) {
    out.write(reinterpret_cast<const char*>(w.values.data()),
              static_cast<std::streamsize>(w.values.size() * sizeof(double)));
  }
  out.close();
  if (!out) {
    std::cerr << "cannot write the output file " << argv[2] << '\n';
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const bool check = argc == 7 && std::string(argv[1]) == "--check-gradient";
  if (argc != 13 && !check) {
    std::cerr << "usage: " << argv[0]
              << " DATA_JSON OUTPUT SEED CHAINS WARMUP DRAWS ADAPT_DELTA MAX_DEPTH THREADS"
                 " INIT_RADIUS GRADIENT TRANSITION\n   or: "
              << argv[0] << " --check-gradient DATA_JSON OUTPUT SEED POINTS RADIUS\n";
    return 2;
  }
  try {
    return check ? check_gradient(argv) : run(argv);
  } catch (const std::exception& e) {
    std::cerr << e.what() << '\n';
    return 1;
  }
}
