# Crash recovery with generated keys: concurrent sessions insert through
# generate_ulid(), generate_uuidv7() and generate_tsid() column defaults and
# record every id whose COMMIT was acknowledged; the whole server is then killed
# with SIGKILL mid-way (round 1), and a single backend is killed with SIGKILL so
# the postmaster resets and recovers on its own (round 2, and round 3 with the
# library preloaded). After each crash every acknowledged row must be there, no
# transaction may be half there, amcheck must pass on every btree index and the
# generators must keep going forward.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UlidTsid;

my $sessions   = 4;
my $rows       = 10;      # rows per transaction
my $batches    = 4000;    # per session: far more than run before the kill
my $kill_after = 15000;   # rows in the table when the crash is triggered

my $node = new_node('crash', extensions => ['amcheck'], conf => qq{
fsync = on
synchronous_commit = on
max_connections = 30
log_statement = none
});

create_acked_table($node);
$node->safe_psql('postgres', q{
CREATE INDEX acked_batch ON acked (sess, batch);
CREATE INDEX acked_id_desc ON acked (id DESC);
});

my $tmp = PostgreSQL::Test::Utils::tempdir;

# Every acknowledged row: "id|u|ts" => "sess|batch".
my %acked;

# The client sessions of a round: sess <round>01, <round>02, ...
sub start_round
{
	my ($round) = @_;
	return start_clients($node, $tmp, $batches, $rows, map { $round * 100 + $_ } 1 .. $sessions);
}

# Every acknowledged row is in the table with the same keys and batch, no
# transaction is partly there, and the indexes agree with the heap.
sub verify
{
	my ($label) = @_;
	my ($missing, $partial) = acked_check($node, \%acked, $rows);
	is($missing, '0', "$label: all " . scalar(keys %acked) . " acknowledged rows present with their keys");
	is($partial, '0', "$label: no transaction half applied");

	my ($rc, $checked, $err) = btree_check($node);
	is($rc . $err, '0', "$label: bt_index_check and bt_index_parent_check (heapallindexed) pass");
	is($checked, 2 * 5, "$label: all btree indexes checked");

	# The hash index alone (the btree indexes on id dropped inside a
	# transaction that is rolled back) finds every row; so does the brin index.
	my ($hout, $herr) = hash_index_alone($node, 'acked_id_desc');
	like($hout, qr/Index Scan using acked_id_hash.*\nt$/s,
		"$label: the hash index alone finds every row") or diag($herr);
	my $total = $node->safe_psql('postgres', 'SELECT count(*) FROM acked');
	my ($bout, $berr) = brin_index_alone($node, 'acked_id_desc');
	like($bout, qr/Bitmap Index Scan on acked_id_brin.*\n$total$/s,
		"$label: the brin index returns every row") or diag($berr);
}

# Round 1: SIGKILL to the postmaster and every one of its children at once.
my @clients = start_round(1);
wait_for_rows($node, $kill_after, $tmp) or die "timed out waiting for $kill_after rows";
my ($pm, $kids) = kill_cluster($node);
note ">> SIGKILL to postmaster $pm and $kids children";
my $cut = collect_clients(\%acked, @clients);
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
	is( $node->safe_psql(
			'postgres',
			"INSERT INTO acked (sess, batch, n) VALUES (0, 2, 0) RETURNING ts > (SELECT max(ts) FROM acked WHERE sess <> 0)"),
		't',
		"$label: generate_tsid() after recovery sorts after every recovered key");
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
	my @clients = start_round($round);
	my $n = $node->safe_psql('postgres', 'SELECT count(*) FROM acked') + $kill_after;
	wait_for_rows($node, $n, $tmp) or die "timed out waiting for $n rows";
	my $victim = $node->safe_psql('postgres',
		"SELECT pid FROM pg_stat_activity WHERE application_name = 'client_${round}01'");
	ok($victim =~ /^\d+$/, "$label: found the backend to kill ($victim)");
	kill 'KILL', $victim;
	my $cut = collect_clients(\%acked, @clients);
	is($cut, $sessions, "$label: every client was cut off by the backend crash");
	cmp_ok(scalar(keys %acked), '>', $before, "$label: more acknowledged rows");
	$node->wait_for_log(qr/terminated by signal 9.*\n(.*\n)*.*all server processes terminated; reinitializing/, $offset);
	poll_until($node, 'postgres', 'SELECT NOT pg_is_in_recovery()')
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
