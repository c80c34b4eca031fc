# ulid_tsid: PGXS build of the extension, plus the project's own targets for
# unit tests, fuzzing and benchmarks of the pure C++ core (see README.md).

# ulid_tsid_compat: opt-in aliases under other extensions' names (its own
# control file and script, sql/ulid_tsid_compat--*.sql; it requires ulid_tsid).
MAIN_EXTENSION = ulid_tsid
EXTENSION = $(MAIN_EXTENSION) ulid_tsid_compat
EXTVERSION = 0.4.0

MODULE_big = ulid_tsid
CORE_SRCS = $(sort $(wildcard src/core/*.cpp))
GLUE_SRCS = $(sort $(wildcard src/pg/*.cpp))
OBJS = $(CORE_SRCS:.cpp=.o) $(GLUE_SRCS:.cpp=.o)

# The current version's script is built from src/sql/; every released version's
# install script and every upgrade script is frozen in sql/. To release: copy
# the built script to sql/ (it then stays as it is), raise EXTVERSION, and write
# sql/$(MAIN_EXTENSION)--OLD--NEW.sql; scripts/suites/upgrade.sh checks the path.
DATA_built = sql/$(MAIN_EXTENSION)--$(EXTVERSION).sql
DATA = $(filter-out $(DATA_built),$(wildcard sql/$(MAIN_EXTENSION)--*.sql)) $(wildcard sql/ulid_tsid_compat--*.sql)
# Sources ending in .sql.in repeat declarations from a small table, expanded by
# src/sql/expand.awk (which passes plain .sql files through as they are).
SQL_SOURCES = $(sort $(wildcard src/sql/*.sql src/sql/*.sql.in))

# pg_regress suites, by topic: every sql/*.sql that is not an extension script
# (scripts/suites/regress.sh checks that each has its expected output). install
# runs first: it creates the extension and the helpers the others call
# (regress_try(), regress_plan()); the others need nothing of one another, so
# they run in name order.
REGRESS_TESTS = $(notdir $(basename $(filter-out sql/$(MAIN_EXTENSION)--% sql/ulid_tsid_compat--%,$(wildcard sql/*.sql))))
REGRESS = install $(sort $(filter-out install,$(REGRESS_TESTS)))

PG_CXXFLAGS = -std=c++17 -fno-exceptions -fno-rtti -Wall -Wextra -Wno-unused-parameter \
              -Wno-missing-field-initializers -Wno-register $(EXTRA_CXXFLAGS)
SHLIB_LINK = -lsodium -lstdc++
# The library reports its version (ulid_tsid.library_version, src/pg/module.cpp);
# the scripts refuse to run against an older library.
PG_CPPFLAGS = -DULID_TSID_VERSION='"$(EXTVERSION)"'

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# Debian's server is built with LLVM: PGXS also compiles every object to bitcode
# with clang and would leave our C++ flags out.
COMPILE.cxx.bc += $(PG_CXXFLAGS)

# scripts/check-versions.sh builds it the same way to hash a released version's script.
sql/$(MAIN_EXTENSION)--$(EXTVERSION).sql: $(SQL_SOURCES) src/sql/expand.awk
	awk -f src/sql/expand.awk $(SQL_SOURCES) > $@

$(OBJS): $(wildcard src/core/*.hpp src/pg/*.hpp)
src/pg/module.o: Makefile

# Unit tests, sanitizers, fuzzing and benchmarks of the core: each in its own
# fragment, building under build/ so they never mix with the server objects.
-include $(wildcard test/*/*.mk)

# Release artifacts, each from a git export of the tree so that this checkout's
# build stays as it is (scripts/package.sh): `make dist` writes the PGXN zip,
# `make deb` the Debian package of every packaged major (pg_buildext), `make
# deb-source` the Debian source package a buildd builds. They refuse to build
# when a copy of the version disagrees with EXTVERSION.
.PHONY: deb deb-source dist check-versions release
deb deb-source dist:
	bash scripts/package.sh $@
# Every file of a release into dist/<version>/, each checked and installed where its
# users install it (scripts/release.sh; root, about 25 minutes).
release:
	bash scripts/release.sh
check-versions:
	bash scripts/check-versions.sh
