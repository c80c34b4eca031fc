# ulid_tsid.node_id and ulid_tsid.node_bits the way users set them: lines added
# to postgresql.conf of a running server, in either order, then a reload; the
# values must reach the session that had already generated TSIDs and every new
# one, preloaded and not. Each setting is checked alone, so the order of the
# lines never decides what a reload keeps (0.1.0 rejected node_id 5 written
# before node_bits 4, and every server then stamped node 0). Combinations that
# cannot work fail loudly where a TSID is made, and no session can SET either.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UlidTsid;

# The node id of a TSID made now, read with `bits` node bits; polls the given
# session (a BackgroundPsql) until it has applied the reload.
sub node_in_session
{
	my ($session, $bits, $want) = @_;
	my $got = '';
	for (1 .. 100)
	{
		# Until the session has applied the reload, it may still refuse.
		$got = $session->query("SELECT tsid_node(generate_tsid(), $bits)");
		last if $got eq $want;
		sleep 0.1;
	}
	return $got;
}

sub reload_and_wait
{
	my ($node, $name, $value) = @_;
	$node->reload;
	poll_until($node, 'postgres', "SHOW $name", $value) or die "$name did not become $value";
}

for my $preload (1, 0)
{
	my $mode = $preload ? 'preloaded' : 'not preloaded';
	my $node = new_node($preload ? 'preloaded' : 'plain', preload => $preload);
	$node->safe_psql('postgres', 'CREATE ROLE app LOGIN');

	# Defaults: no node bits, node id not set (-1); TSIDs are made.
	my $session = $node->background_psql('postgres', on_error_stop => 0);
	is($session->query_safe("SELECT generate_tsid() IS NOT NULL; SHOW ulid_tsid.node_bits; SHOW ulid_tsid.node_id"),
		"t\n0\n-1", "$mode: defaults node_bits 0, node_id -1 (not set), and TSIDs are made");

	# Order 1: node_id before node_bits, an id that does not fit the old bits.
	$node->append_conf('postgresql.conf', "ulid_tsid.node_id = 5\nulid_tsid.node_bits = 4");
	reload_and_wait($node, 'ulid_tsid.node_bits', '4');
	is($node->safe_psql('postgres', 'SHOW ulid_tsid.node_id'), '5', "$mode: node_id before node_bits: node_id 5 kept");
	is(node_in_session($session, 4, '5'), '5', "$mode: node_id before node_bits: the running session stamps node 5");
	is($node->safe_psql('postgres', 'SELECT tsid_node(generate_tsid(), 4)'), '5',
		"$mode: node_id before node_bits: a new session stamps node 5");
	is($node->safe_psql('postgres', 'SELECT tsid_node(generate_tsid(), 4)', extra_params => [ '-U', 'app' ]), '5',
		"$mode: node_id before node_bits: a plain role's TSIDs carry node 5");

	# Order 2: node_bits before node_id, an id that does not fit the old bits.
	$node->append_conf('postgresql.conf', "ulid_tsid.node_bits = 6\nulid_tsid.node_id = 37");
	reload_and_wait($node, 'ulid_tsid.node_id', '37');
	is($node->safe_psql('postgres', 'SHOW ulid_tsid.node_bits'), '6', "$mode: node_bits before node_id: node_bits 6 kept");
	is(node_in_session($session, 6, '37'), '37', "$mode: node_bits before node_id: the running session stamps node 37");
	is($node->safe_psql('postgres', 'SELECT tsid_node(generate_tsid(), 6)'), '37',
		"$mode: node_bits before node_id: a new session stamps node 37");

	# A bigint key's default, the documented migration: the same node.
	$node->safe_psql('postgres', 'CREATE TABLE t (id bigint PRIMARY KEY DEFAULT generate_tsid(), n int)');
	$node->safe_psql('postgres', 'INSERT INTO t (n) SELECT g FROM generate_series(1, 1000) g');
	is($node->safe_psql('postgres', 'SELECT count(*) FROM t WHERE tsid_node(id::tsid, 6) = 37'), '1000',
		"$mode: DEFAULT generate_tsid() on a bigint key carries the node id");

	# A combination that cannot work: an ERROR naming both settings, everywhere.
	$node->append_conf('postgresql.conf', "ulid_tsid.node_id = 70");
	reload_and_wait($node, 'ulid_tsid.node_id', '70');
	my ($rc, $out, $err) = $node->psql('postgres', 'SELECT generate_tsid()', extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	like($err, qr/ERROR:  22023: generate_tsid\(\): ulid_tsid.node_id 70 does not fit in ulid_tsid.node_bits = 6/,
		"$mode: node_id 70 with 6 node bits: ERROR 22023 naming both settings");
	my $in_session = '';
	for (1 .. 100)
	{
		$session->query("SELECT generate_tsid()");
		$in_session = $session->{stderr};
		last if $in_session =~ /does not fit/;
		sleep 0.1;
	}
	like($in_session, qr/node_id 70 does not fit in ulid_tsid.node_bits = 6/,
		"$mode: ... also in the session that was running");

	# Node bits with no node id: an ERROR that says what to set, not node 0.
	$node->append_conf('postgresql.conf', "ulid_tsid.node_id = -1");
	reload_and_wait($node, 'ulid_tsid.node_id', '-1');
	($rc, $out, $err) = $node->psql('postgres', 'SELECT generate_tsid()', extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	like($err, qr/ERROR:  22023: generate_tsid\(\): ulid_tsid.node_bits is 6 but ulid_tsid.node_id is not set/,
		"$mode: node_bits 6 and no node id: ERROR 22023");
	like($err, qr/HINT:  Give this server its own ulid_tsid.node_id, from 0 to 63/, "$mode: ... with a hint");
	($rc, $out, $err) = $node->psql('postgres', 'INSERT INTO t (n) VALUES (0)');
	like($err, qr/ulid_tsid.node_id is not set/, "$mode: ... also as a column default: no row is written");
	is($node->safe_psql('postgres', 'SELECT count(*) FROM t'), '1000', "$mode: ... and none was");

	# Back to a working pair through ALTER SYSTEM, the other documented way.
	$node->safe_psql('postgres', 'ALTER SYSTEM SET ulid_tsid.node_id = 12');
	reload_and_wait($node, 'ulid_tsid.node_id', '12');
	is(node_in_session($session, 6, '12'), '12', "$mode: ALTER SYSTEM and a reload reach the running session");

	# No session changes either setting, superuser or not, SET or SET LOCAL,
	# before or after the library is loaded in that session.
	for my $role ('postgres', 'app')
	{
		for my $sql ('SET ulid_tsid.node_id = 3', 'BEGIN; SET LOCAL ulid_tsid.node_id = 3; COMMIT',
			"SELECT set_config('ulid_tsid.node_id', '3', false)", 'SET ulid_tsid.node_bits = 4')
		{
			($rc, $out, $err) = $node->psql('postgres', "SELECT generate_tsid() IS NOT NULL; $sql",
				extra_params => [ '-U', $role ]);
			like($err, qr/cannot be changed now|permission denied/, "$mode, $role: refused: $sql");
		}
		# First statement of a session: where the library is not loaded yet the
		# SET only fills a placeholder, which loading the library drops.
		($rc, $out, $err) = $node->psql('postgres', "SET ulid_tsid.node_id = 3; SELECT tsid_node(generate_tsid(), 6)",
			on_error_stop => 0, extra_params => [ '-U', $role ]);
		is($out, '12', "$mode, $role: a SET before the library loads does not change the node id");
	}
	$session->quit;
	$node->stop;
}

done_testing();
