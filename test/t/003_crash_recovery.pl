# Crash recovery with generated keys: concurrent sessions insert through
# generate_ulid() (and uuid / tsid) column defaults and record every id whose
# COMMIT was acknowledged; the whole server is then killed with SIGKILL mid-way
# (round 1), and a single backend is killed with SIGKILL so the postmaster
# resets and recovers on its own (round 2). After each crash every acknowledged
# row must be there, no transaction may be half there, amcheck must pass on
# every btree index and the generators must keep going forward.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(usleep);

my $sessions   = 4;
my $rows       = 10;      # rows per transaction
my $batches    = 4000;    # per session: far more than run before the kill
my $kill_after = 15000;   # rows in the table when the crash is triggered

my $node = PostgreSQL::Test::Cluster->new('crash');
$node->init;
$node->append_conf('postgresql.conf', qq{
fsync = on
synchronous_commit = on
max_connections = 30
log_statement = none
});
$node->start;

$node->safe_psql('postgres', 'CREATE EXTENSION ulid_tsid; CREATE EXTENSION amcheck');
my $has_tsid = $node->safe_psql('postgres',
	"SELECT count(*) FROM pg_type WHERE typname = 'tsid'") eq '1';
my $has_uuidv7 = $node->safe_psql('postgres',
	"SELECT count(*) FROM pg_proc WHERE proname = 'generate_uuidv7' AND pronargs = 0") ne '0';
note ">> tsid type: " . ($has_tsid ? 'yes' : 'no') . ", uuidv7(): " . ($has_uuidv7 ? 'yes' : 'no');
# The extension always has these now; a missing one must fail the run, not
# quietly skip the checks that need it.
BAIL_OUT('the installed ulid_tsid lacks tsid, uuidv7() or its settings')
  unless $has_tsid && $has_uuidv7;
my $uuid_default = $has_uuidv7 ? 'generate_uuidv7()' : 'gen_random_uuid()';
my $tsid_col = $has_tsid ? 'ts tsid NOT NULL DEFAULT generate_tsid() UNIQUE,' : '';

$node->safe_psql('postgres', qq{
CREATE TABLE acked (
    id ulid PRIMARY KEY DEFAULT generate_ulid(),
    u uuid NOT NULL DEFAULT $uuid_default UNIQUE,
    $tsid_col
    sess int NOT NULL,
    batch int NOT NULL,
    n int NOT NULL
);
CREATE INDEX acked_id_hash ON acked USING hash (id);
CREATE INDEX acked_id_brin ON acked USING brin (id) WITH (pages_per_range = 1);
CREATE INDEX acked_batch ON acked (sess, batch);
CREATE INDEX acked_id_desc ON acked (id DESC);
});

my $tmp = PostgreSQL::Test::Utils::tempdir;
my $returning = $has_tsid ? "'R', id, u, ts" : "'R', id, u";

# Every acknowledged row: "id|u|ts" => "sess|batch".
my %acked;

# Starts the client sessions, each an psql running its own script of
# transactions; returns the IPC::Run handles and their output buffers.
sub start_clients
{
	my ($round) = @_;
	my @clients;
	for my $s (1 .. $sessions)
	{
		my $sess = $round * 100 + $s;
		my $script = '';
		for my $b (1 .. $batches)
		{
			$script .=
			    "BEGIN;\n"
			  . "INSERT INTO acked (sess, batch, n) SELECT $sess, $b, g FROM generate_series(1, $rows) g RETURNING $returning;\n"
			  . "COMMIT;\n"
			  . "SELECT 'C', $b;\n";
		}
		# Files, not scalars: IPC::Run only moves scalar data while pumped.
		my $in = "$tmp/client_$sess.sql";
		open my $fh, '>', $in or die "$in: $!";
		print $fh $script;
		close $fh;
		my $h = IPC::Run::start(
			[
				'psql', '-XAtq', '-d',
				$node->connstr('postgres') . " application_name=client_$sess"
			],
			'<', $in, '>', "$tmp/client_$sess.out", '2>', "$tmp/client_$sess.err");
		push @clients, { sess => $sess, h => $h };
	}
	return @clients;
}

# Waits for the clients to exit; collects the rows of transactions whose
# COMMIT was acknowledged (the "C" line after it was printed); returns how
# many clients were cut off by the crash.
sub collect_clients
{
	my (@clients) = @_;
	my $cut = 0;
	for my $c (@clients)
	{
		$c->{h}->finish;
		$cut++ if $c->{h}->result != 0;
		my @pending;
		my $out = slurp_file("$tmp/client_$c->{sess}.out");
		my ($first) = split /\n/, slurp_file("$tmp/client_$c->{sess}.err");
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
				die "batch $batch: expected $rows rows, saw " . scalar(@pending)
				  unless @pending == $rows;
				$acked{$_} = "$c->{sess}|$batch" for @pending;
				@pending = ();
			}
		}
	}
	return $cut;
}

# Waits until the table holds $n rows; dies early, with the clients' errors,
# when the rows stop coming (the clients failed rather than crashed).
sub wait_for_rows
{
	my ($n) = @_;
	my ($last, $still) = (-1, 0);
	for (1 .. 1200)
	{
		my $count = $node->safe_psql('postgres', 'SELECT count(*) FROM acked');
		return if $count >= $n;
		$still = $count == $last ? $still + 1 : 0;
		$last = $count;
		if ($still >= 150)
		{
			my $errors = join "\n", map { slurp_file($_) } glob("$tmp/client_*.err");
			die "no new rows for 15 s at $count of $n; client errors:\n$errors";
		}
		usleep(100_000);
	}
	die "timed out waiting for $n rows";
}

# Every acknowledged row is in the table with the same keys and batch, no
# transaction is partly there, and the indexes agree with the heap.
sub verify
{
	my ($label) = @_;
	my $values = join(",\n",
		map { my ($k, $v) = ($_, $acked{$_}); my @k = split /\|/, $k; my @v = split /\|/, $v;
			  "('" . join("','", @k) . "', $v[0], $v[1])" } sort keys %acked);
	my $cols = $has_tsid ? 'id, u, ts, sess, batch' : 'id, u, sess, batch';
	my $join = $has_tsid
	  ? 'a.id = v.id::ulid AND a.u = v.u::uuid AND a.ts = v.ts::tsid'
	  : 'a.id = v.id::ulid AND a.u = v.u::uuid';
	is( $node->safe_psql(
			'postgres', qq{
SELECT count(*) FROM (VALUES $values) v($cols)
LEFT JOIN acked a ON $join AND a.sess = v.sess AND a.batch = v.batch
WHERE a.id IS NULL}),
		'0',
		"$label: all " . scalar(keys %acked) . " acknowledged rows present with their keys");
	is( $node->safe_psql(
			'postgres', qq{
SELECT count(*) FROM (SELECT sess, batch FROM acked GROUP BY 1, 2 HAVING count(*) <> $rows) s}),
		'0',
		"$label: no transaction half applied");

	my ($rc, $checked, $err) = $node->psql(
		'postgres', q{
SELECT count(bt_index_check(c.oid, true)) + count(bt_index_parent_check(c.oid, true, true))
FROM pg_class c JOIN pg_am am ON am.oid = c.relam
WHERE am.amname = 'btree' AND c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace});
	is($rc . $err, '0', "$label: bt_index_check and bt_index_parent_check (heapallindexed) pass");
	is($checked, 2 * ($has_tsid ? 5 : 4), "$label: all btree indexes checked");

	# The hash index alone (the btree indexes on id dropped inside a
	# transaction that is rolled back) finds every row; so does the brin index.
	my ($hrc, $hout, $herr) = $node->psql(
		'postgres', q{
BEGIN;
ALTER TABLE acked DROP CONSTRAINT acked_pkey;
DROP INDEX acked_id_desc;
SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off;
SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT 1 FROM acked WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
SELECT count(*) FILTER (WHERE (SELECT count(*) FROM acked b WHERE b.id = a.id) = 1) = count(*)
FROM acked a;
ROLLBACK;});
	like($hout, qr/Index Scan using acked_id_hash.*\nt$/s,
		"$label: the hash index alone finds every row") or diag($herr);
	my $total = $node->safe_psql('postgres', 'SELECT count(*) FROM acked');
	my ($brc, $bout, $berr) = $node->psql(
		'postgres', q{
BEGIN;
ALTER TABLE acked DROP CONSTRAINT acked_pkey;
DROP INDEX acked_id_desc;
DROP INDEX acked_id_hash;
SET LOCAL enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM acked WHERE id >= '00000000000000000000000000';
SELECT count(*) FROM acked WHERE id >= '00000000000000000000000000';
ROLLBACK;});
	like($bout, qr/Bitmap Index Scan on acked_id_brin.*\n$total$/s,
		"$label: the brin index returns every row") or diag($berr);
}

# Round 1: SIGKILL to the postmaster and every one of its children at once.
my @clients = start_clients(1);
wait_for_rows($kill_after);
my $pm = $node->{_pid};
my @kids = split ' ', `ps -o pid= --ppid $pm`;
kill 'KILL', $pm, @kids;
note ">> SIGKILL to postmaster $pm and " . scalar(@kids) . " children";
$node->kill9;    # forget the pid (the process is already gone)
# Wait until they are gone (reaped), or the restart would find them alive.
for (1 .. 300)
{
	last unless grep { kill 0, $_ } $pm, @kids;
	usleep(100_000);
}
my $cut = collect_clients(@clients);
is($cut, $sessions, 'round 1: every client was cut off by the crash, mid-way');
cmp_ok(scalar(keys %acked), '>=', $kill_after / 2, 'round 1: clients had acknowledged rows');

$node->start;
verify('round 1');
keys_move_forward('round 1');

# The generators after recovery: new keys sort after every recovered one.
sub keys_move_forward
{
	my ($label) = @_;
	is( $node->safe_psql(
			'postgres',
			"INSERT INTO acked (sess, batch, n) VALUES (0, 1, 0) RETURNING id > (SELECT max(id) FROM acked WHERE sess <> 0)"),
		't',
		"$label: generate_ulid() after recovery sorts after every recovered key");
  SKIP:
	{
		skip 'tsid not built', 1 unless $has_tsid;
		is( $node->safe_psql(
				'postgres',
				"INSERT INTO acked (sess, batch, n) VALUES (0, 2, 0) RETURNING ts > (SELECT max(ts) FROM acked WHERE sess <> 0)"),
			't',
			"$label: generate_tsid() after recovery sorts after every recovered key");
	}
	$node->safe_psql('postgres', 'DELETE FROM acked WHERE sess = 0');
}

# SIGKILL to one client's backend; the postmaster kills the rest, reinitializes
# shared memory and recovers by itself.
sub backend_crash_round
{
	my ($round) = @_;
	my $label  = "round $round";
	my $before = scalar(keys %acked);
	my $offset = -s $node->logfile;
	my @clients = start_clients($round);
	wait_for_rows($node->safe_psql('postgres', 'SELECT count(*) FROM acked') + $kill_after);
	my $victim = $node->safe_psql('postgres',
		"SELECT pid FROM pg_stat_activity WHERE application_name = 'client_${round}01'");
	ok($victim =~ /^\d+$/, "$label: found the backend to kill ($victim)");
	kill 'KILL', $victim;
	my $cut = collect_clients(@clients);
	is($cut, $sessions, "$label: every client was cut off by the backend crash");
	cmp_ok(scalar(keys %acked), '>', $before, "$label: more acknowledged rows");
	$node->wait_for_log(qr/terminated by signal 9.*\n(.*\n)*.*all server processes terminated; reinitializing/, $offset);
	$node->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
	  or die 'server did not come back after the backend crash';
	pass("$label: the postmaster saw the crash, reinitialized and recovered");
	verify($label);
	keys_move_forward($label);
}

# Round 2: per-backend generator state.
$node->append_conf('postgresql.conf', 'restart_after_crash = on');
$node->reload;
backend_crash_round(2);

# Round 3: the same with the library preloaded, so the crash also throws away
# and re-creates the shared generator state.
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'ulid_tsid'");
$node->restart;
is($node->safe_psql('postgres', 'SHOW shared_preload_libraries'), 'ulid_tsid', 'round 3: library preloaded');
backend_crash_round(3);

$node->stop;
done_testing();
