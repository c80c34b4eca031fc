# ulid_tsid in shared_preload_libraries: the generators share their sequences
# through shared memory, so values are unique and strictly increasing across
# the database, not just per backend. Eight backends generate at full
# speed at once; then two sessions take turns to show the database-wide order;
# then eight pgbench clients insert into one btree primary key, whose leaf
# pages must stay dense (the inserts all land at the right edge).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use UlidTsid;

my $backends   = 8;
my $per_client = 50000;    # rows per backend in the burst
my $pgbench_tx = 10000;    # single-row transactions per pgbench client: 80,000 rows, ~300 leaf pages

my $node = new_node('preload', preload => 1, extensions => ['pgstattuple'], conf => qq{
max_connections = 30
shared_buffers = 64MB
synchronous_commit = off
log_statement = none
autovacuum = off
});

is($node->safe_psql('postgres', 'SHOW shared_preload_libraries'), 'ulid_tsid', 'library preloaded');

# --- Eight backends at full speed -------------------------------------------
$node->safe_psql('postgres',
	'CREATE UNLOGGED TABLE burst (id ulid NOT NULL, ts tsid NOT NULL, u uuid NOT NULL, g int NOT NULL, pid int NOT NULL)');
my $insert = 'INSERT INTO burst SELECT generate_ulid(), generate_tsid(), generate_uuidv7(), g, pg_backend_pid() '
  . "FROM generate_series(1, $per_client) g";

# A start gate: every backend first waits for a shared advisory lock that a session
# of the test holds, and all are let go at once. Without it, on a loaded machine (two
# busy loops beside the test command) launching eight psqls took longer than one
# backend's burst, the bursts ran one after the other, and the overlap check failed.
my $gate_key = 5005;
my $gate     = $node->background_psql('postgres');
$gate->query_safe("SELECT pg_advisory_lock($gate_key)");
my $tmp = PostgreSQL::Test::Utils::tempdir;
my @jobs = map {
	start_psql($node, "SELECT pg_advisory_lock_shared($gate_key); $insert",
		"$tmp/burst_$_.out", "$tmp/burst_$_.err")
} 1 .. $backends;
ok( poll_until(
		$node, 'postgres',
		"SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = $gate_key AND NOT granted",
		$backends),
	"$backends backends wait at the start gate");
$gate->query_safe("SELECT pg_advisory_unlock($gate_key)");
$gate->quit;
is(finish_all(@jobs), 0, "$backends backends generated concurrently")
  or diag(join "\n", map { slurp_file($_) } glob("$tmp/burst_*.err"));

is( $node->safe_psql('postgres', 'SELECT count(*), count(DISTINCT pid) FROM burst'),
	$backends * $per_client . "|$backends",
	"$backends x $per_client rows from $backends distinct backends");

# The backends really overlapped in time (else the test proves little).
is( $node->safe_psql(
		'postgres', q{
SELECT count(*) FROM (SELECT pid, min(id) lo, max(id) hi FROM burst GROUP BY pid) a
JOIN (SELECT pid, min(id) lo, max(id) hi FROM burst GROUP BY pid) b
  ON a.pid < b.pid AND a.lo < b.hi AND b.lo < a.hi}) > 0 ? 1 : 0,
	1,
	'at least two backends generated over the same interval');

my %gens = (id => 'ulid', ts => 'tsid', u => 'uuidv7');
for my $col (sort keys %gens)
{
	is( $node->safe_psql('postgres', "SELECT count(*) - count(DISTINCT $col) FROM burst"),
		'0', "$gens{$col}: zero duplicates among " . $backends * $per_client . " values");
	is( $node->safe_psql(
			'postgres', qq{
SELECT count(*) FROM (
    SELECT $col, lag($col) OVER (PARTITION BY pid ORDER BY g) AS prev FROM burst) s
WHERE prev IS NOT NULL AND NOT ($col > prev)}),
		'0',
		"$gens{$col}: strictly increasing within each backend, in generation order");
}

# Cluster-wide sequence: the ulid's first 8 bytes (48-bit ms and 16-bit
# sequence) come from one shared tick, so no two values share them, whichever
# backend made them; and the last 8 bytes are fresh random bits in every value.
is( $node->safe_psql(
		'postgres',
		'SELECT count(*) - count(DISTINCT substring(ulid_to_bytea(id) FROM 1 FOR 8)) FROM burst'),
	'0',
	'ulid: time+sequence prefix unique cluster-wide (shared ticks)');
is( $node->safe_psql(
		'postgres',
		'SELECT count(DISTINCT substring(ulid_to_bytea(id) FROM 9 FOR 8)) FROM burst WHERE g = 1'),
	$backends,
	'ulid: random parts (bytes 9..16) of the first value of each backend differ');
is( $node->safe_psql(
		'postgres',
		'SELECT count(*) - count(DISTINCT substring(ulid_to_bytea(id) FROM 9 FOR 8)) FROM burst'),
	'0',
	'ulid: random parts of all values differ (no random state shared between backends)');

# --- Database-wide order: two sessions taking turns ------------------------
# With shared ticks, a value generated after another one returned (in any
# backend of the database) is larger. Two sessions of one database
# alternate; the values, in the order they were returned, must strictly
# increase. generate_ulid_monotonic() too: preloaded it is one state for the
# database (per session, two sessions in one millisecond each start at their
# own random value, and their turns invert about every other millisecond).
# Each database has its own (test/t/022_database_isolation.pl).
my @sessions = map { $node->background_psql('postgres') } 1 .. 2;
my @exprs_turns = ('generate_ulid()::text', 'generate_tsid()::int8::text', 'generate_uuidv7()::text',
	'generate_ulid_monotonic()::text');
my $turns = 300;
my @seen;    # one list per generator, in real-time order
for my $t (1 .. $turns)
{
	my $s   = $sessions[ $t % 2 ];
	my $row = $s->query_safe('SELECT ' . join(" || '|' || ", @exprs_turns));
	my @v   = split /\|/, $row;
	push @{ $seen[$_] }, $v[$_] for 0 .. $#v;
}
$_->quit for @sessions;
my @names = ('ulid', 'tsid', 'uuidv7', 'ulid_monotonic');
for my $k (0 .. $#names)
{
	my $list = $seen[$k];
	my $bad  = 0;
	for my $i (1 .. $#$list)
	{
		my $greater =
		  $names[$k] eq 'tsid'
		  ? ($list->[$i] > $list->[ $i - 1 ])
		  : ($list->[$i] gt $list->[ $i - 1 ]);
		$bad++ unless $greater;
	}
	is($bad, 0, "$names[$k]: $turns values from two alternating sessions of one database strictly increase");
}

# --- pgbench: eight clients, one btree primary key ---------------------------
$node->safe_psql('postgres',
	'CREATE TABLE dense (id ulid PRIMARY KEY DEFAULT generate_ulid(), v int NOT NULL)');
my $script = "$tmp/dense.sql";
open my $fh, '>', $script or die;
print $fh "INSERT INTO dense (v) VALUES (:client_id);\n";
close $fh;
my $pgbench_out;
my $ok = IPC::Run::run(
	[
		'pgbench', '-n', '-c', 8, '-j', 2, '-t', $pgbench_tx, '-f', $script,
		'-h', $node->host, '-p', $node->port, 'postgres'
	],
	'>', \$pgbench_out, '2>&1');
ok($ok, 'pgbench -c 8 -j 2 ran') or diag($pgbench_out);
my ($tps) = $pgbench_out =~ /tps = ([0-9.]+)/;
note ">> pgbench: " . ($tps // '?') . " tps";
is($node->safe_psql('postgres', 'SELECT count(*), count(DISTINCT v) FROM dense'),
	8 * $pgbench_tx . '|8', "8 clients x $pgbench_tx rows in one table");
my $density = $node->safe_psql('postgres',
	q{SELECT avg_leaf_density, leaf_pages, leaf_fragmentation FROM pgstatindex('dense_pkey')});
note ">> dense_pkey: avg_leaf_density|leaf_pages|leaf_fragmentation = $density";
my ($avg) = split /\|/, $density;
cmp_ok($avg, '>=', 85, "btree primary key avg_leaf_density $avg >= 85 (pgstatindex)");

$node->stop;
done_testing();
