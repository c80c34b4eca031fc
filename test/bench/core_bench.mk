# Google Benchmark of the core (test/bench/core_bench.cpp), -O2, under build/bench/.
# -include'd by the top-level Makefile after PGXS; every variable is BENCH_CORE_*
# except BENCH_ARGS, the arguments for the run.
#
#   make bench-core                                   quick run (min time 0.05 s each)
#   make bench-core BENCH_ARGS="--benchmark_min_time=1 --benchmark_repetitions=5"
#   make bench-core BENCH_ARGS=--benchmark_filter=decode

BENCH_CORE_CXX      ?= g++
BENCH_ARGS          ?= --benchmark_min_time=0.05
BENCH_CORE_SRCS      = $(sort $(wildcard src/core/*.cpp)) test/bench/core_bench.cpp
BENCH_CORE_HEADERS   = $(wildcard src/core/*.hpp)
BENCH_CORE_CXXFLAGS  = -std=c++17 -O2 -DNDEBUG -Wall -Wextra -Isrc/core -pthread
BENCH_CORE_BIN       = build/bench/core_bench

.PHONY: bench-core bench-core-build

bench-core-build: $(BENCH_CORE_BIN)
bench-core: $(BENCH_CORE_BIN)
	./$(BENCH_CORE_BIN) $(BENCH_ARGS)

$(BENCH_CORE_BIN): $(BENCH_CORE_SRCS) $(BENCH_CORE_HEADERS)
	@mkdir -p $(dir $@)
	$(BENCH_CORE_CXX) $(BENCH_CORE_CXXFLAGS) $(BENCH_CORE_SRCS) -o $@ -lbenchmark -lpthread -lsodium
