# Three clusters generate keys at the same time (two with per-backend
# sequences, one with ulid_tsid preloaded for cluster-wide ones), each with its
# own ulid_tsid.node_id; bulk inserts run next to pgbench -C, which opens a new
# connection for every transaction so backend slots are reused all the time. All rows are then gathered into one table
# through postgres_fdw: not one ulid, uuid or tsid may repeat, and every tsid
# carries the node id of the cluster that made it.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use UlidTsid;

my $bulk_rows  = 20000;    # per bulk session
my $bulk_sess  = 2;        # bulk sessions per node
my $churn_cli  = 3;        # pgbench -C clients per node
my $churn_tx   = 100;      # transactions (= connections) per pgbench client: 900 backends in all
my $churn_rows = 5;        # rows per transaction

my @nodes;
for my $i (1 .. 3)
{
	push @nodes,
	  new_node("node$i",
		conf    => "max_connections = 30\nshared_buffers = 16MB\nlog_statement = none\nlog_connections = off",
		preload => $i == 3);
}

for my $i (1 .. 3)
{
	my $node = $nodes[ $i - 1 ];
	$node->append_conf('postgresql.conf', "ulid_tsid.node_bits = 10\nulid_tsid.node_id = $i");
	$node->reload;
	$node->safe_psql('postgres', "CREATE TABLE keys (id ulid NOT NULL, u uuid NOT NULL, ts tsid NOT NULL, how text NOT NULL)");
}

for my $i (1 .. 3)
{
	poll_until($nodes[ $i - 1 ], 'postgres',
		"SELECT generate_ulid() IS NOT NULL; SHOW ulid_tsid.node_id", "t\n$i")
	  or diag "node$i did not take ulid_tsid.node_id = $i";
	is($nodes[ $i - 1 ]->safe_psql('postgres', "SELECT generate_ulid() IS NOT NULL; SHOW ulid_tsid.node_id"),
		"t\n$i", "node$i: ulid_tsid.node_id = $i");
}

# A node's id and bits change only through the server's configuration: no
# session, and so no application role, can make its rows claim another node.
my $n = $nodes[1];
$n->safe_psql('postgres', 'CREATE ROLE app LOGIN; GRANT INSERT, SELECT ON keys TO app');
my ($rc, $out, $err) = $n->psql('postgres', 'SELECT generate_ulid() IS NOT NULL; SET ulid_tsid.node_id = 3',
	extra_params => [ '-U', 'app' ]);
like($err, qr/parameter "ulid_tsid.node_id" cannot be changed now/,
	'a non-superuser cannot SET ulid_tsid.node_id (library loaded)');
# Before the library is loaded in the session, the name is a placeholder
# that anyone may SET; loading the library must then refuse the value.
($rc, $out, $err) = $n->psql('postgres', 'SET ulid_tsid.node_id = 3; SELECT tsid_node(generate_tsid(), 10)',
	extra_params => [ '-U', 'app' ]);
is($out, '2', 'a non-superuser SET before the library loads does not change the node id')
  or diag("stderr: $err");
($rc, $out, $err) = $n->psql('postgres', 'SELECT generate_ulid(); SET ulid_tsid.node_bits = 12');
like($err, qr/cannot be changed now/, 'ulid_tsid.node_bits cannot be SET in a session');
is( $n->safe_psql('postgres', q{SELECT tsid_node(generate_tsid(), 10)}, extra_params => [ '-U', 'app' ]),
	'2', "a non-superuser's tsids carry the configured node id");

# Everything at once: bulk sessions and connection-churning pgbench on all nodes.
my $tmp    = PostgreSQL::Test::Utils::tempdir;
my $script = "$tmp/churn.sql";
open my $fh, '>', $script or die;
print $fh "INSERT INTO keys SELECT generate_ulid(), generate_uuidv7(), generate_tsid(), 'churn' FROM generate_series(1, $churn_rows);\n";
close $fh;

my @jobs;
for my $node (@nodes)
{
	for my $s (1 .. $bulk_sess)
	{
		push @jobs,
		  start_psql($node,
			"INSERT INTO keys SELECT generate_ulid(), generate_uuidv7(), generate_tsid(), 'bulk' FROM generate_series(1, $bulk_rows)",
			"$tmp/out", "$tmp/bulk_" . $node->name . "_$s.err");
	}
	push @jobs,
	  IPC::Run::start(
		[
			'pgbench', '-n', '-C', '-c', $churn_cli, '-j', 1, '-t', $churn_tx, '-f', $script,
			'-h', $node->host, '-p', $node->port, 'postgres'
		],
		'>', "$tmp/pgbench_" . $node->name . ".out", '2>&1');
}
is(finish_all(@jobs), 0, 'all generating sessions and pgbench runs succeeded')
  or diag(join "\n", map { slurp_file($_) } glob("$tmp/*.err $tmp/pgbench_*.out"));

my $per_node = $bulk_sess * $bulk_rows + $churn_cli * $churn_tx * $churn_rows;
for my $node (@nodes)
{
	is($node->safe_psql('postgres', 'SELECT count(*) FROM keys'), $per_node, $node->name . ": all rows written");
}

# Gather everything on node1 through postgres_fdw.
my $hub = $nodes[0];
$hub->safe_psql('postgres', 'CREATE EXTENSION postgres_fdw');
for my $i (2 .. 3)
{
	my $n = $nodes[ $i - 1 ];
	my ($host, $port) = ($n->host, $n->port);
	$hub->safe_psql('postgres', qq{
CREATE SERVER node$i FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '$host', port '$port', dbname 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER node$i;
CREATE FOREIGN TABLE keys_node$i (id ulid NOT NULL, u uuid NOT NULL, ts tsid NOT NULL, how text NOT NULL)
    SERVER node$i OPTIONS (table_name 'keys');
});
}
$hub->safe_psql('postgres', q{
CREATE TABLE all_keys AS
    SELECT 1 AS node, * FROM keys
    UNION ALL SELECT 2, * FROM keys_node2
    UNION ALL SELECT 3, * FROM keys_node3;
});
is($hub->safe_psql('postgres', 'SELECT count(*) FROM all_keys'), 3 * $per_node, 'all rows gathered');
is( $hub->safe_psql(
		'postgres', q{
SELECT (SELECT count(*) FROM all_keys) - (SELECT count(DISTINCT id) FROM all_keys)}),
	'0',
	'zero duplicate ulids across the three clusters');
is( $hub->safe_psql(
		'postgres', q{
SELECT (SELECT count(*) FROM all_keys) - (SELECT count(DISTINCT u) FROM all_keys)}),
	'0',
	'zero duplicate uuids (generate_uuidv7()) across the three clusters');
is( $hub->safe_psql(
		'postgres', q{
SELECT (SELECT count(*) FROM all_keys) - (SELECT count(DISTINCT ts) FROM all_keys)}),
	'0',
	'zero duplicate tsids across the three clusters');
is( $hub->safe_psql(
		'postgres', q{
SELECT how, node, ts FROM all_keys WHERE ts IN (SELECT ts FROM all_keys GROUP BY ts HAVING count(*) > 1)
ORDER BY ts LIMIT 10}),
	'',
	'no duplicate tsid (listing)');
is($hub->safe_psql('postgres', q{SELECT count(*) FROM all_keys WHERE tsid_node(ts, 10) <> node}),
	'0', 'every tsid carries the node id of the cluster that generated it');

# A unique index over the gathered keys builds (the database's own verdict).
($rc, $out, $err) = $hub->psql('postgres',
	'CREATE UNIQUE INDEX ON all_keys (id); CREATE UNIQUE INDEX ON all_keys (u); CREATE UNIQUE INDEX ON all_keys (ts)');
is($rc, 0, 'unique indexes build over the gathered keys') or diag($err);

$_->stop for @nodes;
done_testing();
