# Unit tests of the pure C++ core (src/core/), no Postgres involved.
# -include'd by the top-level Makefile after PGXS: every variable here is UNIT_*
# so that nothing of PGXS (CXXFLAGS, OBJS, ...) is touched. Outputs only under build/.
#
#   make unit            g++ -O2, build/unit/ulid_tsid_unit, runs it
#   make unit-sanitize   clang++ ASan+UBSan, build/asan/ulid_tsid_unit, runs it (round trips / UNIT_SAN_DIVISOR)
#   make unit UNIT_ARGS=--gtest_filter='Crockford*'
#
# New src/core/*.cpp and test/unit/*.cpp files are picked up by the wildcards.

UNIT_CXX      ?= g++
UNIT_SAN_CXX  ?= clang++
UNIT_ARGS     ?=
# The sanitizer run's randomized round trips at a tenth of their loops (test/unit/iterations.hpp).
UNIT_SAN_DIVISOR ?= 10
UNIT_CORE_SRCS = $(sort $(wildcard src/core/*.cpp))
UNIT_TEST_SRCS = $(sort $(wildcard test/unit/*.cpp))
UNIT_HEADERS   = $(wildcard src/core/*.hpp test/unit/*.hpp)
UNIT_COMMON_FLAGS = -std=c++17 -Wall -Wextra -Isrc/core -Itest/unit -pthread
UNIT_LIBS      = -lgtest -lgtest_main -lpthread -lsodium

UNIT_CXXFLAGS  = $(UNIT_COMMON_FLAGS) -O2
UNIT_OBJS      = $(patsubst %.cpp,build/unit/obj/%.o,$(UNIT_CORE_SRCS) $(UNIT_TEST_SRCS))
UNIT_BIN       = build/unit/ulid_tsid_unit

# -O0: the sanitizers check every access as written, and the build takes half the
# CPU of -O1's (95 CPU-s of the test command's core suites were this build);
# -gline-tables-only: reports keep file and line, without full debug information.
UNIT_SAN_CXXFLAGS = $(UNIT_COMMON_FLAGS) -fsanitize=address,undefined -fno-sanitize-recover=all \
                    -fno-omit-frame-pointer -gline-tables-only -O0
UNIT_SAN_OBJS  = $(patsubst %.cpp,build/asan/obj/%.o,$(UNIT_CORE_SRCS) $(UNIT_TEST_SRCS))
UNIT_SAN_BIN   = build/asan/ulid_tsid_unit

.PHONY: unit unit-build unit-sanitize unit-sanitize-build unit-clean

unit-build: $(UNIT_BIN)
unit: $(UNIT_BIN)
	./$(UNIT_BIN) $(UNIT_ARGS)

unit-sanitize-build: $(UNIT_SAN_BIN)
unit-sanitize: $(UNIT_SAN_BIN)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ULID_TSID_UNIT_DIVISOR=$(UNIT_SAN_DIVISOR) ./$(UNIT_SAN_BIN) $(UNIT_ARGS)

build/unit/obj/%.o: %.cpp $(UNIT_HEADERS)
	@mkdir -p $(dir $@)
	$(UNIT_CXX) $(UNIT_CXXFLAGS) -c $< -o $@

$(UNIT_BIN): $(UNIT_OBJS)
	@mkdir -p $(dir $@)
	$(UNIT_CXX) $(UNIT_CXXFLAGS) $^ -o $@ $(UNIT_LIBS)

build/asan/obj/%.o: %.cpp $(UNIT_HEADERS)
	@mkdir -p $(dir $@)
	$(UNIT_SAN_CXX) $(UNIT_SAN_CXXFLAGS) -c $< -o $@

$(UNIT_SAN_BIN): $(UNIT_SAN_OBJS)
	@mkdir -p $(dir $@)
	$(UNIT_SAN_CXX) $(UNIT_SAN_CXXFLAGS) $^ -o $@ $(UNIT_LIBS)

unit-clean:
	rm -rf build/unit build/asan
