# Failover: a primary (ulid_tsid preloaded) streams to a synchronous standby
# (synchronous_commit = remote_apply) while sessions insert through the
# generators' column defaults and record every acknowledged commit; the
# primary and all its processes are killed with SIGKILL and the standby is
# promoted. Every acknowledged row must be on the new primary, its indexes
# (replayed from WAL: btree, hash, brin) must pass amcheck and find every row,
# and its generators must go on with keys that sort after all the old ones.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(usleep);

my $sessions   = 4;
my $rows       = 10;
my $batches    = 3000;
my $kill_after = 8000;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'ulid_tsid'
max_connections = 30
shared_buffers = 16MB
log_statement = none
ulid_tsid.node_bits = 10
ulid_tsid.node_id = 1
});
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION ulid_tsid; CREATE EXTENSION amcheck');
my $has_tsid = $primary->safe_psql('postgres',
	"SELECT count(*) FROM pg_type WHERE typname = 'tsid'") eq '1';
my $has_uuidv7 = $primary->safe_psql('postgres',
	"SELECT count(*) FROM pg_proc WHERE proname = 'generate_uuidv7' AND pronargs = 0") ne '0';
note ">> tsid type: " . ($has_tsid ? 'yes' : 'no') . ", uuidv7(): " . ($has_uuidv7 ? 'yes' : 'no');
# The extension always has these now; a missing one must fail the run, not
# quietly skip the checks that need it.
BAIL_OUT('the installed ulid_tsid lacks tsid, uuidv7() or its settings')
  unless $has_tsid && $has_uuidv7;
my $uuid_default = $has_uuidv7 ? 'generate_uuidv7()' : 'gen_random_uuid()';
my $tsid_col = $has_tsid ? 'ts tsid NOT NULL DEFAULT generate_tsid() UNIQUE,' : '';

$primary->safe_psql('postgres', qq{
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
});

$primary->backup('bk');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'bk', has_streaming => 1);
# The standby will be the next primary: its own node id (the tsid settings
# exist only when the library has them; the standby takes them from the
# primary's postgresql.conf copy otherwise).
$standby->append_conf('postgresql.conf', 'ulid_tsid.node_id = 2');
$standby->start;
$primary->append_conf('postgresql.conf',
	"synchronous_standby_names = 'standby'\nsynchronous_commit = remote_apply");
$primary->reload;
$primary->poll_query_until('postgres',
	"SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'", 'sync')
  or die 'standby did not become synchronous';
pass('standby streaming synchronously (remote_apply)');

my $tmp       = PostgreSQL::Test::Utils::tempdir;
my $returning = $has_tsid ? "'R', id, u, ts" : "'R', id, u";
my %acked;

my @clients;
for my $s (1 .. $sessions)
{
	my $in = "$tmp/client_$s.sql";
	open my $fh, '>', $in or die "$in: $!";
	for my $b (1 .. $batches)
	{
		print $fh "BEGIN;\n"
		  . "INSERT INTO acked (sess, batch, n) SELECT $s, $b, g FROM generate_series(1, $rows) g RETURNING $returning;\n"
		  . "COMMIT;\n"
		  . "SELECT 'C', $b;\n";
	}
	close $fh;
	push @clients,
	  {
		sess => $s,
		h    => IPC::Run::start(
			[ 'psql', '-XAtq', '-d', $primary->connstr('postgres') ],
			'<', $in, '>', "$tmp/client_$s.out", '2>', "$tmp/client_$s.err")
	  };
}

my ($last, $still) = (-1, 0);
for (1 .. 1200)
{
	my $count = $primary->safe_psql('postgres', 'SELECT count(*) FROM acked');
	last if $count >= $kill_after;
	$still = $count == $last ? $still + 1 : 0;
	$last = $count;
	die "no new rows for 15 s; client errors:\n" . join("\n", map { slurp_file($_) } glob("$tmp/client_*.err"))
	  if $still >= 150;
	usleep(100_000);
}

# The primary dies: SIGKILL to the postmaster and every child at once.
my $pm   = $primary->{_pid};
my @kids = split ' ', `ps -o pid= --ppid $pm`;
kill 'KILL', $pm, @kids;
$primary->kill9;
for (1 .. 300)
{
	last unless grep { kill 0, $_ } $pm, @kids;
	usleep(100_000);
}

my $cut = 0;
for my $c (@clients)
{
	$c->{h}->finish;
	$cut++ if $c->{h}->result != 0;
	my @pending;
	for my $line (split /\n/, slurp_file("$tmp/client_$c->{sess}.out"))
	{
		if ($line =~ /^R\|(.*)$/) { push @pending, $1; }
		elsif ($line =~ /^C\|(\d+)$/)
		{
			die "batch $1: expected $rows rows" unless @pending == $rows;
			$acked{$_} = "$c->{sess}|$1" for @pending;
			@pending = ();
		}
	}
}
is($cut, $sessions, 'every client was cut off by the primary\'s death');
cmp_ok(scalar(keys %acked), '>=', $kill_after / 2, 'clients had acknowledged rows');

$standby->promote;
$standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
  or die 'standby did not finish promotion';
pass('standby promoted');

my $values = join(",\n",
	map { my @k = split /\|/, $_; my @v = split /\|/, $acked{$_};
		  "('" . join("','", @k) . "', $v[0], $v[1])" } sort keys %acked);
my $cols = $has_tsid ? 'id, u, ts, sess, batch' : 'id, u, sess, batch';
my $join = $has_tsid
  ? 'a.id = v.id::ulid AND a.u = v.u::uuid AND a.ts = v.ts::tsid'
  : 'a.id = v.id::ulid AND a.u = v.u::uuid';
is( $standby->safe_psql(
		'postgres', qq{
SELECT count(*) FROM (VALUES $values) v($cols)
LEFT JOIN acked a ON $join AND a.sess = v.sess AND a.batch = v.batch
WHERE a.id IS NULL}),
	'0',
	'all ' . scalar(keys %acked) . ' acknowledged rows are on the promoted standby');
is( $standby->safe_psql(
		'postgres',
		"SELECT count(*) FROM (SELECT sess, batch FROM acked GROUP BY 1, 2 HAVING count(*) <> $rows) s"),
	'0',
	'no transaction half replayed');

my ($rc, $checked, $err) = $standby->psql(
	'postgres', q{
SELECT count(bt_index_check(c.oid, true)) + count(bt_index_parent_check(c.oid, true, true))
FROM pg_class c JOIN pg_am am ON am.oid = c.relam
WHERE am.amname = 'btree' AND c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace});
is($rc . $err, '0', 'amcheck (heapallindexed) passes on every replayed btree index');
is($checked, 2 * ($has_tsid ? 3 : 2), 'all btree indexes checked');

my $total = $standby->safe_psql('postgres', 'SELECT count(*) FROM acked');
my ($hrc, $hout, $herr) = $standby->psql(
	'postgres', q{
BEGIN;
ALTER TABLE acked DROP CONSTRAINT acked_pkey;
SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off;
SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT 1 FROM acked WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
SELECT count(*) FILTER (WHERE (SELECT count(*) FROM acked b WHERE b.id = a.id) = 1) = count(*) FROM acked a;
ROLLBACK;});
like($hout, qr/Index Scan using acked_id_hash.*\nt$/s, 'the replayed hash index finds every row')
  or diag($herr);
my ($brc, $bout, $berr) = $standby->psql(
	'postgres', q{
BEGIN;
ALTER TABLE acked DROP CONSTRAINT acked_pkey;
DROP INDEX acked_id_hash;
SET LOCAL enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM acked WHERE id >= '00000000000000000000000000';
SELECT count(*) FROM acked WHERE id >= '00000000000000000000000000';
ROLLBACK;});
like($bout, qr/Bitmap Index Scan on acked_id_brin.*\n$total$/s, 'the replayed brin index returns every row')
  or diag($berr);

# The new primary generates: keys after all the old ones, no conflicts.
is( $standby->safe_psql(
		'postgres', q{
INSERT INTO acked (sess, batch, n) SELECT 0, 1, g FROM generate_series(1, 1000) g;
SELECT bool_and(id > (SELECT max(id) FROM acked WHERE sess <> 0)) FROM acked WHERE sess = 0}),
	't',
	'generate_ulid() on the promoted standby sorts after every key of the old primary');
SKIP:
{
	skip 'tsid not built', 2 unless $has_tsid;
	is( $standby->safe_psql(
			'postgres',
			'SELECT bool_and(ts > (SELECT max(ts) FROM acked WHERE sess <> 0)) FROM acked WHERE sess = 0'),
		't',
		'generate_tsid() on the promoted standby sorts after every key of the old primary');
	is( $standby->safe_psql('postgres',
			'SELECT string_agg(DISTINCT tsid_node(ts, 10)::text, \',\' ORDER BY tsid_node(ts, 10)::text) FROM acked WHERE sess = 0'),
		'2',
		'the promoted standby writes its own node id');
}

$standby->stop;
done_testing();
