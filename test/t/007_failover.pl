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
use UlidTsid;

my $sessions   = 4;
my $rows       = 10;
my $batches    = 3000;
my $kill_after = 8000;

my $primary = new_node('primary',
	init       => { allows_streaming => 1 },
	preload    => 1,
	extensions => ['amcheck'],
	conf       => qq{
max_connections = 30
shared_buffers = 16MB
log_statement = none
ulid_tsid.node_bits = 10
ulid_tsid.node_id = 1
});
create_acked_table($primary);

$primary->backup('bk');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'bk', has_streaming => 1);
# The standby will be the next primary: its own node id (its other settings
# come with the backup's copy of the primary's postgresql.conf).
$standby->append_conf('postgresql.conf', 'ulid_tsid.node_id = 2');
$standby->start;
$primary->append_conf('postgresql.conf',
	"synchronous_standby_names = 'standby'\nsynchronous_commit = remote_apply");
$primary->reload;
poll_until($primary, 'postgres',
	"SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'", 'sync')
  or die 'standby did not become synchronous';
pass('standby streaming synchronously (remote_apply)');

my $tmp = PostgreSQL::Test::Utils::tempdir;
my %acked;
my @clients = start_clients($primary, $tmp, $batches, $rows, 1 .. $sessions);
wait_for_rows($primary, $kill_after, $tmp);

# The primary dies: SIGKILL to the postmaster and every child at once.
kill_cluster($primary);

my $cut = collect_clients(\%acked, @clients);
is($cut, $sessions, 'every client was cut off by the primary\'s death');
cmp_ok(scalar(keys %acked), '>=', $kill_after / 2, 'clients had acknowledged rows');

$standby->promote;
poll_until($standby, 'postgres', 'SELECT NOT pg_is_in_recovery()')
  or die 'standby did not finish promotion';
pass('standby promoted');

my ($missing, $partial) = acked_check($standby, \%acked, $rows);
is($missing, '0', 'all ' . scalar(keys %acked) . ' acknowledged rows are on the promoted standby');
is($partial, '0', 'no transaction half replayed');

my ($rc, $checked, $err) = btree_check($standby);
is($rc . $err, '0', 'amcheck (heapallindexed) passes on every replayed btree index');
is($checked, 2 * 3, 'all btree indexes checked');

my $total = $standby->safe_psql('postgres', 'SELECT count(*) FROM acked');
my ($hout, $herr) = hash_index_alone($standby);
like($hout, qr/Index Scan using acked_id_hash.*\nt$/s, 'the replayed hash index finds every row')
  or diag($herr);
my ($bout, $berr) = brin_index_alone($standby);
like($bout, qr/Bitmap Index Scan on acked_id_brin.*\n$total$/s, 'the replayed brin index returns every row')
  or diag($berr);

# The new primary generates: keys after all the old ones, no conflicts.
is( $standby->safe_psql(
		'postgres', q{
INSERT INTO acked (sess, batch, n) SELECT 0, 1, g FROM generate_series(1, 1000) g;
SELECT bool_and(id > (SELECT max(id) FROM acked WHERE sess <> 0)) FROM acked WHERE sess = 0}),
	't',
	'generate_ulid() on the promoted standby sorts after every key of the old primary');
is( $standby->safe_psql(
		'postgres',
		'SELECT bool_and(ts > (SELECT max(ts) FROM acked WHERE sess <> 0)) FROM acked WHERE sess = 0'),
	't',
	'generate_tsid() on the promoted standby sorts after every key of the old primary');
is( $standby->safe_psql('postgres',
		'SELECT string_agg(DISTINCT tsid_node(ts, 10)::text, \',\' ORDER BY tsid_node(ts, 10)::text) FROM acked WHERE sess = 0'),
	'2',
	'the promoted standby writes its own node id');

$standby->stop;
done_testing();
