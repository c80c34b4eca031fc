# A hot standby's sessions generate while the primary writes. A primary inserts
# a row every 20 ms (keys from generate_tsid(), generate_ulid(),
# generate_ulid_monotonic() and generate_uuidv7()) and streams to a hot
# standby, on which 150 short sessions (a new connection each) make 3 keys of
# each ULID and UUIDv7 generator, the compat aliases (ulid_tsid_compat)
# included: no value the standby makes may repeat, nor equal a value the
# primary made. generate_tsid() must refuse on a standby with SQLSTATE 25006:
# the standby shares the primary's node id and cannot record what it made, so
# its TSIDs would collide with the primary's and with each other (a new backend
# takes a TSID slot and counter the primary or an earlier session also used).
# The standby is then restarted with its clock set back and makes 20,000 ULIDs
# and UUIDv7s, none a repeat of one it made before; once promoted, its
# generate_tsid() works and is above every TSID the primary made. Everything
# runs once without and once with shared_preload_libraries = 'ulid_tsid'.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();
use UlidTsid;

my $libfaketime = libfaketime();
plan skip_all => 'libfaketime not installed (Debian package faketime; scripts/install-deps.sh installs it)'
  unless $libfaketime;

my $sessions = 150;    # standby sessions, one connection each
my $per      = 3;      # keys of each generator per session
my $after    = 20000;  # ULIDs and UUIDv7s of each generator after the restart
my $set_back = 60;     # s the restarted standby's clock runs behind

# The standby's ULID and UUIDv7 generators, the compat aliases' names last.
my @gens = ('generate_ulid()', 'generate_ulid_monotonic()', 'generate_uuidv7()',
	'compat.gen_ulid()', 'compat.gen_monotonic_ulid()', 'compat.uuid_generate_v7()');


# Runs $sql (one psql, -f) against $node; dies on a failed psql unless $may_fail.
# Returns (stdout lines, stderr).
sub run_lines
{
	my ($node, $sql, $may_fail) = @_;
	my ($rc, $out, $err) = psql_file($node, 'postgres', $sql, '-v', 'VERBOSITY=verbose');
	die "psql failed ($rc): $err" if $rc && !$may_fail;
	return ([ split /\n/, $out ], $err);
}

for my $preload (0, 1)
{
	my $mode = $preload ? 'preloaded' : 'not preloaded';
	my $primary = new_node("primary_$preload",
		init    => { allows_streaming => 1 },
		preload => $preload,
		conf    => "autovacuum = off\nlog_statement = none\nmax_connections = 30");
	$primary->safe_psql('postgres', q{
CREATE SCHEMA compat;
CREATE EXTENSION ulid_tsid_compat SCHEMA compat;
CREATE TABLE keys (n serial PRIMARY KEY, ts bigint NOT NULL DEFAULT generate_tsid(),
    u ulid NOT NULL DEFAULT generate_ulid(), m ulid NOT NULL DEFAULT generate_ulid_monotonic(),
    v uuid NOT NULL DEFAULT generate_uuidv7());
CREATE TABLE stop_writer (stop bool);
});
	$primary->backup('bk');
	my $standby = PostgreSQL::Test::Cluster->new("standby_$preload");
	$standby->init_from_backup($primary, 'bk', has_streaming => 1);
	$standby->start;

	# The writer: a row every 20 ms, each its own transaction, until told to
	# stop (a row in stop_writer) or after 6,000 rows (two minutes at least).
	my $tmp = PostgreSQL::Test::Utils::tempdir;
	my $writer = start_psql($primary, q{
DO $$
BEGIN
  FOR i IN 1 .. 6000 LOOP
    EXIT WHEN EXISTS (SELECT 1 FROM stop_writer);
    INSERT INTO keys DEFAULT VALUES;
    COMMIT;
    PERFORM pg_sleep(0.02);
  END LOOP;
END $$}, "$tmp/writer.out", "$tmp/writer.err");
	poll_until($standby, 'postgres', 'SELECT count(*) >= 25 FROM keys')
	  or die 'no rows of the writer reached the standby';

	# 150 sessions on the standby, one after another, each its own connection
	# (\connect opens a new one): 3 keys of each generator, then 3 TSIDs, each
	# TSID its own statement so that a refusal is counted per call.
	my $script = '';
	for my $s (1 .. $sessions)
	{
		$script .= "\\connect\n";
		$script .= "SELECT 'g$_', ($gens[$_])::uuid FROM generate_series(1, $per);\n" for 0 .. $#gens;
		$script .= "SELECT 'T', generate_tsid()::bigint;\n" x $per;
	}
	my $rows_before = $primary->safe_psql('postgres', 'SELECT count(*) FROM keys');
	my $t0 = Time::HiRes::time();
	my ($lines, $err) = run_lines($standby, $script, 1);
	my $took = Time::HiRes::time() - $t0;
	my $rows_during = $primary->safe_psql('postgres', 'SELECT count(*) FROM keys') - $rows_before;
	cmp_ok($rows_during, '>=', 10,
		sprintf('%s: the primary wrote while the %d standby sessions ran (%d rows in %.1f s)', $mode, $sessions, $rows_during, $took));
	my (%made, @tsids);
	for (@$lines)
	{
		my ($k, $v) = split /\|/;
		if ($k eq 'T') { push @tsids, $v } else { push @{ $made{$k} }, $v }
	}
	# (psql -f puts "psql:FILE:LINE: " before each message)
	my @errors = grep { /^(?:psql:[^:]*:\d+: )?(?:ERROR|FATAL):/ } split /\n/, $err;
	my @refusals = grep { /(?:ERROR):  25006: / } @errors;
	my $refused = @refusals;
	note "$mode: the first refusal: $refusals[0]" if @refusals;
	my @other_errors = grep { !/(?:ERROR):  25006: / } @errors;
	is(scalar(@other_errors), 0, "$mode: the standby sessions met no error but generate_tsid()'s refusals")
	  or diag(join("\n", @other_errors[0 .. ($#other_errors < 4 ? $#other_errors : 4)]));

	# Every value the standby made, and every one the primary made (the writer
	# stopped and the standby caught up, so the standby holds them all).
	$primary->safe_psql('postgres', 'INSERT INTO stop_writer VALUES (true)');
	is(finish_all($writer), 0, "$mode: the primary's writer ran to its stop")
	  or diag(slurp_file("$tmp/writer.err"));
	$primary->wait_for_catchup($standby);
	my ($prim) = run_lines($standby, 'SELECT u::uuid FROM keys UNION ALL SELECT m::uuid FROM keys UNION ALL SELECT v FROM keys');
	my %primary_made = map { $_ => 1 } @$prim;

	my %seen;
	for my $i (0 .. $#gens)
	{
		my @v = @{ $made{"g$i"} // [] };
		is(scalar(@v), $sessions * $per, "$mode: $gens[$i] made $per values in each of $sessions standby sessions");
		my $dups = 0;
		my $primary_equal = 0;
		for (@v)
		{
			$dups++ if $seen{$_}++;
			$primary_equal++ if $primary_made{$_};
		}
		is($dups, 0, "$mode: $gens[$i] on the standby: no value equal to another the standby made");
		is($primary_equal, 0, "$mode: $gens[$i] on the standby: no value equal to one of the primary's");
	}

	# generate_tsid() refuses on a standby, every call.
	my %tsid_count;
	$tsid_count{$_}++ for @tsids;
	my $tsid_dups = @tsids - keys %tsid_count;
	my ($ptsids) = run_lines($standby, 'SELECT ts FROM keys');
	my $tsid_primary_equal = grep { $tsid_count{$_} } @$ptsids;
	note "$mode: generate_tsid() on the standby: " . scalar(@tsids) . " values of "
	  . $sessions * $per . " calls, $tsid_dups of them duplicates, $tsid_primary_equal equal to the primary's, $refused refused (25006)";
	is(scalar(@tsids) . "|$refused", "0|" . $sessions * $per,
		"$mode: generate_tsid() refused on the standby with SQLSTATE 25006 in all " . $sessions * $per
		  . " calls (made " . scalar(@tsids) . ", $tsid_dups of them duplicates)");

	# The standby restarted with its clock $set_back s behind: 20,000 values
	# of each of its ULID and UUIDv7 generators, from four sessions, none a
	# value it made before the restart.
	$standby->stop('fast');
	start_with_clock($standby, -$set_back);
	poll_until($standby, 'postgres', 'SELECT pg_is_in_recovery()')
	  or die 'the standby did not come back';
	my $behind = $standby->safe_psql('postgres',
		"SELECT (extract(epoch FROM (SELECT max(ulid_timestamp(u)) FROM keys) - clock_timestamp()) * 1000)::bigint");
	cmp_ok($behind, '>', ($set_back - 10) * 1000,
		"$mode: the restarted standby's clock is behind the primary's last key ($behind ms)");
	# What the standby replayed of the primary's mark (Unix ms): its new
	# values start above it.
	my $mark = $standby->safe_psql('postgres',
		'SELECT greatest((SELECT last_value FROM ulid_tsid_mark), (SELECT last_value FROM ulid_tsid_mark_floor))');
	my $quarter = $after / 4;
	my $later = '';
	for (1 .. 4)
	{
		$later .= "\\connect\n";
		$later .= "SELECT 'g$_', ($gens[$_])::uuid FROM generate_series(1, $quarter);\n" for 0 .. 2;
	}
	my ($after_lines, $after_err) = run_lines($standby, $later);
	my (%count_after, %repeats);
	my %max_before = map { ("g$_" => (sort @{ $made{"g$_"} // [] })[-1] // '') } 0 .. 2;
	my (%below, %under_mark);
	for (@$after_lines)
	{
		my ($k, $v) = split /\|/;
		$count_after{$k}++;
		$repeats{$k}++ if $seen{$v}++;
		$below{$k}++ if $v le $max_before{$k};
		(my $hex = $v) =~ s/-//g;
		no warnings 'portable';    # 48 bits: a Perl of 64-bit integers
		$under_mark{$k}++ if hex(substr($hex, 0, 12)) <= $mark;
	}
	for my $i (0 .. 2)
	{
		my $k = "g$i";
		is(($count_after{$k} // 0) . '|' . ($repeats{$k} // 0), "$after|0",
			"$mode: standby restarted $set_back s behind: $after values of $gens[$i], none a repeat of an earlier one");
		is($under_mark{$k} // 0, 0,
			"$mode: standby restarted $set_back s behind: no value of $gens[$i] in or below the replayed mark's millisecond");
		note "$mode: after the restart, " . ($below{$k} // 0) . " of $gens[$i]'s values sort at or below the largest it made before it";
	}

	# Promoted: generate_tsid() works, above every TSID the primary made.
	$primary->stop('fast');
	$standby->promote;
	poll_until($standby, 'postgres', 'SELECT NOT pg_is_in_recovery()')
	  or die 'standby did not finish promotion';
	my ($prc, $pout, $perr) = psql_file($standby, 'postgres', q{
INSERT INTO keys (n) SELECT -g FROM generate_series(1, 1000) g;
SELECT count(DISTINCT ts) || '|' || count(*) FILTER (WHERE ts <= (SELECT max(ts) FROM keys WHERE n > 0))
FROM keys WHERE n < 0});
	is("$prc|$pout", '0|1000|0',
		"$mode: promoted (clock $set_back s behind): 1,000 generate_tsid() values, distinct, none at or below the primary's") or diag($perr);
	is( $standby->safe_psql('postgres', q{
SELECT count(*) FROM keys WHERE n < 0 AND (u <= (SELECT max(u) FROM keys WHERE n > 0)
    OR v <= (SELECT v FROM keys WHERE n > 0 ORDER BY v DESC LIMIT 1))}),
		'0', "$mode: promoted: its generate_ulid() and generate_uuidv7() values are above the primary's");
	$standby->stop;
}

done_testing();
