# libFuzzer targets of the core's parsers and generators (test/fuzz/fuzz_*.cpp),
# built with clang++ -fsanitize=fuzzer,address,undefined under build/fuzz/.
# -include'd by the top-level Makefile after PGXS; every variable is FUZZ_*.
#
#   make fuzz-build                       build every target
#   make fuzz-smoke                       run each target FUZZ_SECONDS (default 20)
#   make fuzz-smoke FUZZ_SECONDS=600      a longer run (10 minutes per target)
#   make fuzz-smoke FUZZ_TARGETS=fuzz_ulid_text FUZZ_SECONDS=3600
#   build/fuzz/fuzz_ulid_text build/fuzz/artifacts/fuzz_ulid_text-crash-...   replay a crash
#
# The committed seeds (test/fuzz/corpus/<target>/) are copied to
# build/fuzz/corpus/<target>/ before each run and only the copy grows, so a run
# never adds files to git. Crashes land in build/fuzz/artifacts/. Each target
# prints one line "FUZZ <target> PASS|FAIL execs=N" (N from libFuzzer's final
# stats); fuzz-smoke fails when any target failed. To keep what a long run found,
# copy build/fuzz/corpus/<target>/ files worth keeping into test/fuzz/corpus/.
# Shares 2 cores with others: targets run one after the other, one job each.

FUZZ_CXX      ?= clang++
FUZZ_SECONDS  ?= 20
FUZZ_ARGS     ?=
FUZZ_ALL_TARGETS = $(patsubst test/fuzz/%.cpp,%,$(sort $(wildcard test/fuzz/fuzz_*.cpp)))
FUZZ_TARGETS  ?= $(FUZZ_ALL_TARGETS)
FUZZ_CORE_SRCS = $(sort $(wildcard src/core/*.cpp))
FUZZ_HEADERS  = $(wildcard src/core/*.hpp test/fuzz/*.hpp test/unit/*.hpp)
FUZZ_BASEFLAGS = -std=c++17 -g -O1 -fno-omit-frame-pointer -Isrc/core -Itest/fuzz -Itest/unit \
                 -fno-sanitize-recover=all
FUZZ_CXXFLAGS = $(FUZZ_BASEFLAGS) -fsanitize=fuzzer,address,undefined
FUZZ_OBJFLAGS = $(FUZZ_BASEFLAGS) -fsanitize=fuzzer-no-link,address,undefined
FUZZ_CORE_OBJS = $(patsubst %.cpp,build/fuzz/obj/%.o,$(FUZZ_CORE_SRCS))
FUZZ_BINS     = $(addprefix build/fuzz/,$(FUZZ_ALL_TARGETS))

.PHONY: fuzz-build fuzz-smoke fuzz-clean

fuzz-build: $(FUZZ_BINS)

# Core objects get the sanitizers and fuzzer coverage, but no main.
build/fuzz/obj/%.o: %.cpp $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FUZZ_OBJFLAGS) -c $< -o $@

build/fuzz/fuzz_%: test/fuzz/fuzz_%.cpp $(FUZZ_CORE_OBJS) $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) $< $(FUZZ_CORE_OBJS) -o $@ -lsodium

fuzz-smoke: $(addprefix build/fuzz/,$(FUZZ_TARGETS))
	@fail=0; \
	for t in $(FUZZ_TARGETS); do \
	  rm -rf build/fuzz/corpus/$$t; mkdir -p build/fuzz/corpus/$$t build/fuzz/artifacts build/fuzz/logs; \
	  if [ -d test/fuzz/corpus/$$t ]; then cp test/fuzz/corpus/$$t/* build/fuzz/corpus/$$t/ 2>/dev/null; fi; \
	  log=build/fuzz/logs/$$t.log; \
	  echo "fuzzing $$t for $(FUZZ_SECONDS)s (log: $$log)"; \
	  ./build/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -artifact_prefix=build/fuzz/artifacts/$$t- $(FUZZ_ARGS) build/fuzz/corpus/$$t >$$log 2>&1; \
	  rc=$$?; \
	  execs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $$log | tail -1); \
	  if [ $$rc -eq 0 ] && ! grep -qE 'ERROR: (AddressSanitizer|libFuzzer|UndefinedBehaviorSanitizer)|runtime error:|FUZZ_CHECK failed|SUMMARY: ' $$log; then \
	    echo "FUZZ $$t PASS execs=$${execs:-0}"; \
	  else \
	    echo "FUZZ $$t FAIL execs=$${execs:-0} rc=$$rc"; \
	    grep -m5 -E 'FUZZ_CHECK failed|ERROR:|runtime error:|SUMMARY:|Test unit written' $$log; \
	    fail=1; \
	  fi; \
	done; \
	exit $$fail

fuzz-clean:
	rm -rf build/fuzz
