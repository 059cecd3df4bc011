// GoogleTest main for MPI tests: initialises MPI, runs the tests on every
// rank, and makes a failure on ANY rank fail the whole run. Only rank 0 prints
// the normal GoogleTest output; other ranks print their failures prefixed with
// their rank. After every test the ranks agree on its outcome (an allreduce),
// so rank 0 also reports tests that failed elsewhere.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>

namespace {

int g_rank = 0, g_size = 1;

class RankFailurePrinter : public ::testing::EmptyTestEventListener {
  void OnTestPartResult(const ::testing::TestPartResult &r) override {
    if (!r.failed())
      return;
    std::fprintf(stderr, "[rank %d] %s:%d: Failure\n%s\n", g_rank,
                 r.file_name() ? r.file_name() : "?", r.line_number(),
                 r.summary());
    std::fflush(stderr);
  }
};

class AgreeOnResult : public ::testing::EmptyTestEventListener {
  void OnTestEnd(const ::testing::TestInfo &info) override {
    int mine = info.result()->Failed() ? 1 : 0, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (g_rank == 0 && any && !mine) {
      std::printf("[  FAILED  ] %s.%s failed on another rank (see [rank N] "
                  "messages)\n",
                  info.test_suite_name(), info.name());
      std::fflush(stdout);
    }
    failed_ |= any;
  }

public:
  static int failed_;
};
int AgreeOnResult::failed_ = 0;

} // namespace

int main(int argc, char **argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  ::testing::InitGoogleTest(&argc, argv);
  auto &listeners = ::testing::UnitTest::GetInstance()->listeners();
  if (g_rank != 0) {
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter);
  }
  listeners.Append(new AgreeOnResult);
  int rc = RUN_ALL_TESTS();
  int mine = (rc != 0 || AgreeOnResult::failed_) ? 1 : 0, any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (g_rank == 0) {
    std::printf("[idtr-tests] %s on %d rank(s)\n", any ? "FAILED" : "PASSED",
                g_size);
    std::fflush(stdout);
  }
  MPI_Finalize();
  return any ? 1 : 0;
}
