# libFuzzer targets of the core's parsers and generators (test/fuzz/fuzz_*.cpp),
# built with clang++ -fsanitize=fuzzer,address,undefined under build/fuzz/.
# -include'd by the top-level Makefile after PGXS; every variable is FUZZ_*.
#
#   make fuzz-build                       build every target
#   make fuzz-smoke                       run each target FUZZ_SECONDS (default 20)
#   make fuzz-smoke FUZZ_SECONDS=600      a longer run (10 minutes per target)
#   make fuzz-smoke FUZZ_TARGETS=fuzz_ulid_text FUZZ_SECONDS=3600
#   make fuzz-long                        the release's run: each parser until it has
#                                         made FUZZ_RUNS executions (default 100,000,000)
#   make fuzz-long FUZZ_RUNS=1000000 FUZZ_TARGETS="fuzz_ulid_text fuzz_tsid_generator"
#   build/fuzz/fuzz_ulid_text build/fuzz/artifacts/fuzz_ulid_text-crash-...   replay a crash
#
# Both run test/fuzz/run.sh, which judges each target and prints one line
# "FUZZ <target> PASS|FAIL execs=N secs=S exec/s=R corpus=FILES workers=W" (N from
# libFuzzer's final stats, added up over workers); either fails when any target
# failed (a crash, a sanitizer report, a failed FUZZ_CHECK, or fewer executions
# than FUZZ_RUNS). Crashes land in build/fuzz/artifacts/, logs in build/fuzz/logs/.
#
# fuzz-smoke copies the committed seeds (test/fuzz/corpus/<target>/) to a fresh
# build/fuzz/corpus/<target>/ and runs one target after the other, one process
# each (it shares 2 cores with the test command's other lanes). fuzz-long keeps
# its corpus between runs in FUZZ_CACHE/corpus/<target>/ (default
# /var/cache/ulid_tsid/fuzz, outside the checkout; the seeds are copied in
# first) and runs FUZZ_WORKERS processes per target (default 2: both cores),
# which share that corpus. Its default targets are the parsers (FUZZ_PARSERS);
# the generators' targets make about 1,000 executions a second, too slow for
# 100 million. Neither adds files to git: to keep what a long run found, minimize
# it (`make fuzz-merge`, into FUZZ_CACHE/merged/<target>/) and copy the files worth
# keeping into test/fuzz/corpus/<target>/.

FUZZ_CXX      ?= clang++
FUZZ_SECONDS  ?= 20
FUZZ_ARGS     ?=
FUZZ_ALL_TARGETS = $(patsubst test/fuzz/%.cpp,%,$(sort $(wildcard test/fuzz/fuzz_*.cpp)))
FUZZ_TARGETS  ?= $(FUZZ_ALL_TARGETS)
# The targets that read text or bytes from outside (the release checklist's
# "every parser"); the others drive the generators.
FUZZ_PARSERS  = fuzz_ulid_text fuzz_tsid_text fuzz_typeid fuzz_public_id fuzz_key_file
FUZZ_RUNS     ?= 100000000
FUZZ_WORKERS  ?= 2
FUZZ_CACHE    ?= /var/cache/ulid_tsid/fuzz
# fuzz-long's targets: FUZZ_TARGETS when given on the command line or in the
# environment, else the parsers.
FUZZ_LONG_TARGETS = $(if $(filter file,$(origin FUZZ_TARGETS)),$(FUZZ_PARSERS),$(FUZZ_TARGETS))
FUZZ_CORE_SRCS = $(sort $(wildcard src/core/*.cpp))
FUZZ_HEADERS  = $(wildcard src/core/*.hpp test/fuzz/*.hpp test/unit/*.hpp)
FUZZ_BASEFLAGS = -std=c++17 -g -O1 -fno-omit-frame-pointer -Isrc/core -Itest/fuzz -Itest/unit \
                 -fno-sanitize-recover=all
FUZZ_CXXFLAGS = $(FUZZ_BASEFLAGS) -fsanitize=fuzzer,address,undefined
FUZZ_OBJFLAGS = $(FUZZ_BASEFLAGS) -fsanitize=fuzzer-no-link,address,undefined
FUZZ_CORE_OBJS = $(patsubst %.cpp,build/fuzz/obj/%.o,$(FUZZ_CORE_SRCS))
FUZZ_BINS     = $(addprefix build/fuzz/,$(FUZZ_ALL_TARGETS))

.PHONY: fuzz-build fuzz-smoke fuzz-long fuzz-merge fuzz-clean

fuzz-build: $(FUZZ_BINS)

# Core objects get the sanitizers and fuzzer coverage, but no main.
build/fuzz/obj/%.o: %.cpp $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FUZZ_OBJFLAGS) -c $< -o $@

build/fuzz/fuzz_%: test/fuzz/fuzz_%.cpp $(FUZZ_CORE_OBJS) $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) $< $(FUZZ_CORE_OBJS) -o $@ -lsodium

fuzz-smoke: $(addprefix build/fuzz/,$(FUZZ_TARGETS))
	@bash test/fuzz/run.sh --seconds $(FUZZ_SECONDS) --fresh $(FUZZ_TARGETS)

fuzz-long: $(addprefix build/fuzz/,$(FUZZ_LONG_TARGETS))
	@echo "fuzz-long: $(FUZZ_RUNS) executions per target, $(FUZZ_WORKERS) worker(s), corpus in $(FUZZ_CACHE)/corpus"
	@echo "fuzz-long: parsers: $(FUZZ_PARSERS)"
	@echo "fuzz-long: generators: $(filter-out $(FUZZ_PARSERS),$(FUZZ_ALL_TARGETS))"
	@echo "fuzz-long: running: $(FUZZ_LONG_TARGETS)"
	@bash test/fuzz/run.sh --runs $(FUZZ_RUNS) --workers $(FUZZ_WORKERS) --corpus $(FUZZ_CACHE)/corpus $(FUZZ_LONG_TARGETS)

# The long run's corpus minimized (libFuzzer -merge=1) on top of the committed
# seeds: FUZZ_CACHE/merged/<target>/ holds the seeds and the inputs that add
# coverage beyond them; prints how many were added.
fuzz-merge: $(addprefix build/fuzz/,$(FUZZ_LONG_TARGETS))
	@for t in $(FUZZ_LONG_TARGETS); do \
	  out=$(FUZZ_CACHE)/merged/$$t; rm -rf $$out; mkdir -p $$out build/fuzz/logs; \
	  cp test/fuzz/corpus/$$t/* $$out/ 2>/dev/null; seeds=$$(ls $$out | wc -l); \
	  ./build/fuzz/$$t -merge=1 $$out $(FUZZ_CACHE)/corpus/$$t >build/fuzz/logs/$$t.merge.log 2>&1 \
	    || { echo "$$t: merge failed (build/fuzz/logs/$$t.merge.log)"; exit 1; }; \
	  echo "$$t: $$(( $$(ls $$out | wc -l) - seeds )) inputs beyond the $$seeds seeds in $$out"; \
	done

fuzz-clean:
	rm -rf build/fuzz
