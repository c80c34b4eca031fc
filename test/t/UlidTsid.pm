# What the TAP tests in test/t share: a node set up the project's way, the
# fingerprint of a table, background psql runs, a whole-cluster SIGKILL, and
# the clients of the crash tests (003, 007), which insert into a table
# `acked` and record every row whose COMMIT was acknowledged.
# scripts/suites/tap.sh puts this directory on PERL5LIB. It runs with the test
# modules of PostgreSQL 13 (where PostgreSQL::Test::Cluster is PostgresNode),
# 15 and 18, so it uses only the methods all three have.
package UlidTsid;

use strict;
use warnings;
use Cwd ();
use Exporter 'import';
use File::Basename ();
use File::Temp ();
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

our @EXPORT = qw(keys_at_clock_sql libfaketime start_with_clock clock_offset_to generate_key_round new_node table_fingerprint partition_counts start_psql finish_all poll_until psql_file
  kill_cluster create_acked_table start_clients wait_for_rows collect_clients
  acked_check btree_check hash_index_alone brin_index_alone);
our @EXPORT_OK = qw(installations);

# The cross-version tests' servers (test/t/cross): for each major, the bin
# directory that ULID_TSID_PG<major>_BINDIR names, checked with one assertion
# each; a missing one ends the test as failed. Returns (\%bindir, \%install).

# (SQL, expected row) of a check that a new key of each generator is at the
# clock's time: within 1.5 s of it (a session right after a restart starts up to
# the one-second reservation ahead), one row: ulid|tsid|uuidv7|monotonic.
sub keys_at_clock_sql
{
	my $near = join(" || '|' || ",
		map { "(abs(extract(epoch FROM $_ - clock_timestamp())) < 1.5)" }
		  'ulid_timestamp(generate_ulid())', 'tsid_timestamp(generate_tsid())',
		  'uuidv7_timestamp(generate_uuidv7())', 'ulid_timestamp(generate_ulid_monotonic())');
	return ("SELECT $near", 'true|true|true|true');
}

# The path of libfaketime (Debian's faketime package), or undef.
sub libfaketime
{
	my ($path) = grep { -e $_ } map { "$_/faketime/libfaketime.so.1" }
	  qw(/usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib);
	return $path;
}

# Starts $node with its clock $offset seconds off the real one (0: the real
# clock), through libfaketime; monotonic clocks stay real.
sub start_with_clock
{
	my ($node, $offset) = @_;
	local $ENV{LD_PRELOAD}          = libfaketime() if $offset;
	local $ENV{FAKETIME}            = sprintf('%+.3fs', $offset) if $offset;
	local $ENV{DONT_FAKE_MONOTONIC} = '1' if $offset;
	$node->start;
}

# The offset (s) that puts a clock started now at Unix ms $target_ms by the time
# the first new key is made (a start and the first session take about 0.4 s).
sub clock_offset_to
{
	my ($target_ms) = @_;
	return ($target_ms - Time::HiRes::time() * 1000) / 1000 - 0.4;
}

# One round of keys into table `keys` (round, sess, g, a column per generator):
# $sessions sessions in turn, each its own backend, each inserting $rows rows
# with every generator of %$gens (column => [its call, ...]), then waiting
# $pause s.
sub generate_key_round
{
	my ($node, $round, $gens, $sessions, $rows, $pause) = @_;
	my @cols = sort keys %$gens;
	for my $s (1 .. $sessions)
	{
		$node->safe_psql('postgres',
			"INSERT INTO keys (round, sess, g, " . join(', ', @cols) . ") SELECT $round, $s, g, "
			  . join(', ', map { $gens->{$_}[0] } @cols)
			  . " FROM generate_series(1, $rows) g; SELECT pg_sleep($pause)");
	}
}

sub installations
{
	my (%bindir, %install);
	for my $major (@_)
	{
		my $var = "ULID_TSID_PG${major}_BINDIR";
		my $dir = $ENV{$var};
		my $good = defined $dir && $dir ne '' && -x "$dir/postgres" && -x "$dir/pg_config";
		ok($good, "$var names a PostgreSQL bin directory (" . ($dir // 'unset') . ")");
		unless ($good)
		{
			done_testing();
			exit 1;
		}
		$bindir{$major} = Cwd::realpath($dir);
		$install{$major} = File::Basename::dirname($bindir{$major});
	}
	return (\%bindir, \%install);
}

# A started node with ulid_tsid created in database `db` (default postgres,
# created first otherwise) and checked by require_features. Options: init (a
# hash of arguments for init), conf (lines for postgresql.conf), preload
# (shared_preload_libraries = 'ulid_tsid'), extensions (more to create in db).
sub new_node
{
	my ($name, %opt) = @_;
	my $db = $opt{db} // 'postgres';
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init(%{ $opt{init} // {} });
	$node->append_conf('postgresql.conf', $opt{conf}) if defined $opt{conf};
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'ulid_tsid'") if $opt{preload};
	$node->start;
	$node->safe_psql('postgres', "CREATE DATABASE $db") if $db ne 'postgres';
	$node->safe_psql($db,
		join('; ', map { "CREATE EXTENSION $_" } 'ulid_tsid', @{ $opt{extensions} // [] }));
	require_features($node, $db);
	return $node;
}

# The installed extension has tsid, generate_uuidv7() and its settings (which
# exist once the library is loaded); a missing one must fail the whole run,
# not leave a test to skip what needs it.
sub require_features
{
	my ($node, $db) = @_;
	my $have = $node->safe_psql($db, q{
SELECT generate_ulid() IS NOT NULL;
SELECT EXISTS (SELECT 1 FROM pg_type WHERE typname = 'tsid')
   AND EXISTS (SELECT 1 FROM pg_proc WHERE proname = 'generate_uuidv7' AND pronargs = 0)
   AND EXISTS (SELECT 1 FROM pg_settings WHERE name = 'ulid_tsid.node_id')});
	BAIL_OUT('the installed ulid_tsid lacks tsid, uuidv7() or its settings')
	  unless $have eq "t\nt";
}

# "count md5" of a table's rows (those matching $where), in the order of its id.
sub table_fingerprint
{
	my ($node, $db, $table, $where) = @_;
	$where //= 'true';
	return $node->safe_psql($db,
		"SELECT count(*) || ' ' || coalesce(md5(string_agg(t::text, ',' ORDER BY t.id)), '') FROM $table t WHERE $where"
	);
}

# "partition:rows ..." of the partitioned table parted.
sub partition_counts
{
	my ($node, $db) = @_;
	return $node->safe_psql($db,
		"SELECT string_agg(r || ':' || c, ' ' ORDER BY r) FROM "
		  . "(SELECT tableoid::regclass::text r, count(*) c FROM parted GROUP BY 1) s");
}

# A psql in the background running $sql (ON_ERROR_STOP), stdout to file $out
# and stderr to file $err; returns its IPC::Run handle.
sub start_psql
{
	my ($node, $sql, $out, $err) = @_;
	return IPC::Run::start(
		[ 'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'), '-c', $sql ],
		'>', $out, '2>', $err);
}

# The test modules' $node->psql($db, $sql, ...) without a pipe: $sql from a file
# (psql -f), so that a connection the server refuses (a FATAL at start-up, which
# psql meets before it reads its input) is an error in stderr, not an EPIPE that
# makes IPC::Run end the test script (seen in 011 on 17). Returns (exit code,
# stdout, stderr), both chomped; @params go on psql's command line.
sub psql_file
{
	my ($node, $db, $sql, @params) = @_;
	my ($fh, $file) = File::Temp::tempfile('ulid_tsid_psql_XXXXXX', TMPDIR => 1, UNLINK => 1);
	print $fh $sql;
	close $fh;
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'psql', '-XAtq', @params, '-d', $node->connstr($db), '-f', $file ],
		'<', '/dev/null', '>', \$out, '2>', \$err);
	my $rc = $? >> 8;
	unlink $file;
	chomp $out;
	chomp $err;
	return ($rc, $out, $err);
}

# poll_query_until without a pipe: $query, read by psql from a file as the test
# modules' poll_query_until feeds it (several statements print every result), every
# 0.1 s until it prints $expected (default 't') with nothing on stderr; 1 then, 0
# after the test timeout. The modules' version writes the query to psql's stdin,
# and a psql refused at connection ("the database system is in recovery mode",
# right after a crash) exits before reading it: the write fails with EPIPE and
# IPC::Run ends the whole test script (seen on 17 in 003's round 3).
sub poll_until
{
	my ($node, $db, $query, $expected) = @_;
	$expected //= 't';
	my $attempts = 10 * ($ENV{PG_TEST_TIMEOUT_DEFAULT} || 180);
	my ($rc, $out, $err) = (0, '', '');
	for (1 .. $attempts)
	{
		($rc, $out, $err) = psql_file($node, $db, $query);
		return 1 if $out eq $expected && $err eq '';
		usleep(100_000);
	}
	diag("poll_until timed out: $query\nexpected: $expected\nlast output: $out\nstderr: $err");
	return 0;
}

# Waits for IPC::Run handles; returns how many of them failed.
sub finish_all
{
	my $failed = 0;
	for my $h (@_)
	{
		$h->finish;
		$failed++ if $h->result != 0;
	}
	return $failed;
}

# SIGKILL to the postmaster and every one of its children at once; returns
# once they are gone, with the postmaster's pid and the number of children.
sub kill_cluster
{
	my ($node) = @_;
	my $pm = $node->{_pid};
	my @kids = split ' ', `ps -o pid= --ppid $pm`;
	kill 'KILL', $pm, @kids;
	$node->kill9;    # forget the pid (the process is already gone)
	# Wait until they are gone (reaped), or a restart would find them alive.
	for (1 .. 300)
	{
		last unless grep { kill 0, $_ } $pm, @kids;
		usleep(100_000);
	}
	return ($pm, scalar @kids);
}

# The table the crash tests' clients insert into: every key from a column
# default, with a btree (primary key), a hash and a brin index on id.
sub create_acked_table
{
	my ($node) = @_;
	$node->safe_psql('postgres', q{
CREATE TABLE acked (
    id ulid PRIMARY KEY DEFAULT generate_ulid(),
    u uuid NOT NULL DEFAULT generate_uuidv7() UNIQUE,
    ts tsid NOT NULL DEFAULT generate_tsid() UNIQUE,
    sess int NOT NULL,
    batch int NOT NULL,
    n int NOT NULL
);
CREATE INDEX acked_id_hash ON acked USING hash (id);
CREATE INDEX acked_id_brin ON acked USING brin (id) WITH (pages_per_range = 1);
});
}

# Starts one psql client per session number (application_name client_<sess>),
# each running its own script of $batches transactions of $rows rows into
# acked, from files in $dir; returns the clients for collect_clients.
sub start_clients
{
	my ($node, $dir, $batches, $rows, @sess) = @_;
	my @clients;
	for my $sess (@sess)
	{
		my $script = '';
		for my $b (1 .. $batches)
		{
			$script .=
			    "BEGIN;\n"
			  . "INSERT INTO acked (sess, batch, n) SELECT $sess, $b, g FROM generate_series(1, $rows) g RETURNING 'R', id, u, ts;\n"
			  . "COMMIT;\n"
			  . "SELECT 'C', $b;\n";
		}
		# Files, not scalars: IPC::Run only moves scalar data while pumped.
		my $in = "$dir/client_$sess.sql";
		open my $fh, '>', $in or die "$in: $!";
		print $fh $script;
		close $fh;
		my $h = IPC::Run::start(
			[
				'psql', '-XAtq', '-d',
				$node->connstr('postgres') . " application_name=client_$sess"
			],
			'<', $in, '>', "$dir/client_$sess.out", '2>', "$dir/client_$sess.err");
		push @clients, { sess => $sess, h => $h, dir => $dir, rows => $rows };
	}
	return @clients;
}

# Waits until acked holds $n rows; dies early, with the clients' errors (files
# in $dir), when the rows stop coming (the clients failed rather than crashed).
# Returns false after 120 s of slow progress.
sub wait_for_rows
{
	my ($node, $n, $dir) = @_;
	my ($last, $still) = (-1, 0);
	for (1 .. 1200)
	{
		my $count = $node->safe_psql('postgres', 'SELECT count(*) FROM acked');
		return 1 if $count >= $n;
		$still = $count == $last ? $still + 1 : 0;
		$last = $count;
		if ($still >= 150)
		{
			my $errors = join "\n", map { slurp_file($_) } glob("$dir/client_*.err");
			die "no new rows for 15 s at $count of $n; client errors:\n$errors";
		}
		usleep(100_000);
	}
	return 0;
}

# Waits for the clients to exit; adds the rows of transactions whose COMMIT
# was acknowledged (the "C" line after it was printed) to %$acked, as
# "id|u|ts" => "sess|batch"; returns how many clients were cut off.
sub collect_clients
{
	my ($acked, @clients) = @_;
	my $cut = 0;
	for my $c (@clients)
	{
		$c->{h}->finish;
		$cut++ if $c->{h}->result != 0;
		my @pending;
		my $out = slurp_file("$c->{dir}/client_$c->{sess}.out");
		my ($first) = split /\n/, slurp_file("$c->{dir}/client_$c->{sess}.err");
		note "client $c->{sess}: " . ($first // "no error");
		for my $line (split /\n/, $out)
		{
			if ($line =~ /^R\|(.*)$/)
			{
				push @pending, $1;
			}
			elsif ($line =~ /^C\|(\d+)$/)
			{
				my $batch = $1;
				die "batch $batch: expected $c->{rows} rows, saw " . scalar(@pending)
				  unless @pending == $c->{rows};
				$acked->{$_} = "$c->{sess}|$batch" for @pending;
				@pending = ();
			}
		}
	}
	return $cut;
}

# How many of the acknowledged rows are not in acked with their keys, session
# and batch; and how many transactions of $rows rows are there only in part.
sub acked_check
{
	my ($node, $acked, $rows) = @_;
	my $values = join(",\n",
		map { my @k = split /\|/, $_; my @v = split /\|/, $acked->{$_};
			  "('" . join("','", @k) . "', $v[0], $v[1])" } sort keys %$acked);
	my $missing = $node->safe_psql(
		'postgres', qq{
SELECT count(*) FROM (VALUES $values) v(id, u, ts, sess, batch)
LEFT JOIN acked a ON a.id = v.id::ulid AND a.u = v.u::uuid AND a.ts = v.ts::tsid
    AND a.sess = v.sess AND a.batch = v.batch
WHERE a.id IS NULL});
	my $partial = $node->safe_psql('postgres',
		"SELECT count(*) FROM (SELECT sess, batch FROM acked GROUP BY 1, 2 HAVING count(*) <> $rows) s");
	return ($missing, $partial);
}

# bt_index_check and bt_index_parent_check (heapallindexed) on every btree
# index in schema public; psql's (exit code, indexes checked twice, stderr).
sub btree_check
{
	my ($node) = @_;
	return $node->psql(
		'postgres', q{
SELECT count(bt_index_check(c.oid, true)) + count(bt_index_parent_check(c.oid, true, true))
FROM pg_class c JOIN pg_am am ON am.oid = c.relam
WHERE am.amname = 'btree' AND c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace});
}

# $sql in a transaction, rolled back, that first drops acked's primary key and
# the indexes @drop; psql's (stdout, stderr).
sub without_indexes
{
	my ($node, $sql, @drop) = @_;
	my (undef, $out, $err) = $node->psql('postgres',
		join("\n", 'BEGIN;', 'ALTER TABLE acked DROP CONSTRAINT acked_pkey;',
			(map { "DROP INDEX $_;" } @drop), $sql, 'ROLLBACK;'));
	return ($out, $err);
}

# With acked_id_hash the only index left on acked.id (@drop: the others besides
# the primary key): the plan of a lookup, then whether every row finds exactly
# itself ("t").
sub hash_index_alone
{
	my ($node, @drop) = @_;
	return without_indexes($node, q{
SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off;
SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT 1 FROM acked WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
SELECT count(*) FILTER (WHERE (SELECT count(*) FROM acked b WHERE b.id = a.id) = 1) = count(*)
FROM acked a;}, @drop);
}

# With acked_id_brin the only index left on acked.id (acked_id_hash dropped
# too): the plan of a scan of every row, then its count.
sub brin_index_alone
{
	my ($node, @drop) = @_;
	return without_indexes($node, q{
SET LOCAL enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM acked WHERE id >= '00000000000000000000000000';
SELECT count(*) FROM acked WHERE id >= '00000000000000000000000000';}, @drop, 'acked_id_hash');
}

1;
