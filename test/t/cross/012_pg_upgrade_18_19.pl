# pg_upgrade from PostgreSQL 18 to 19: test/t/cross/010_pg_upgrade.pl between those
# two majors (every key kind, every index kind, amcheck, new keys after the old).
# Needs ULID_TSID_PG18_BINDIR and ULID_TSID_PG19_BINDIR.
use strict;
use warnings;
use File::Basename qw(dirname);
# Loaded here, at compile time: their INIT blocks must run before the test's body.
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

$ENV{ULID_TSID_UPGRADE} = '18 19';
my $test = dirname(__FILE__) . '/010_pg_upgrade.pl';
unless (defined do $test)
{
	die "$test: " . ($@ || $!);
}
