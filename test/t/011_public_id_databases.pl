# One cluster, two databases, two roles that are not superusers: alice owns
# database a, bob owns database b, and each creates the extension itself (it
# is trusted). A superuser binds a key file to each database the documented
# way (ALTER DATABASE ... SET ulid_tsid.public_id_key_file). bob, in b, must
# neither decode a's public IDs back to their keys (and so their creation
# times) nor mint valid ones for a: not with b's key, not with no key bound,
# not through any way a role can set a setting, not with an older version of
# the extension's SQL; a key file for the whole cluster (postgresql.conf, the
# way 0.3.0 documented) must not serve as every database's key. alice, in a,
# keeps her IDs through a reload, a rename, dump and restore, pg_upgrade and
# in parallel workers. With the library preloaded and not.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UlidTsid qw(psql_file);
use Cwd qw(abs_path);

my %hex = (
	a => '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
	b => 'f0e1d2c3b4a5968778695a4b3c2d1e0ff0e1d2c3b4a5968778695a4b3c2d1e0f',
	c => '5555555555555555aaaaaaaaaaaaaaaa0123456789abcdef0123456789abcdef');
my $ulid = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
my $big = 4242;
my @errors;

sub write_key
{
	my ($path, $hex) = @_;
	open(my $fh, '>', $path) or die "cannot write $path: $!";
	print $fh "$hex\n";
	close $fh;
	chmod(0600, $path) or die "chmod $path: $!";
}

# (stdout, stderr) of $sql as $role in $db, errors with their SQLSTATE.
sub run_as
{
	my ($node, $db, $role, $sql) = @_;
	my ($rc, $out, $err) = psql_file($node, $db, $sql,
		'-v', 'ON_ERROR_STOP=1', '-U', $role, '-v', 'VERBOSITY=verbose');
	push @errors, $err;
	return ($out, $err);
}

# The four public forms a role can try for database a's values: decode a's
# 128- and 64-bit forms, mint the forms of a's keys.
sub forms
{
	my ($a) = @_;
	return (
		[ 'decodes a 128-bit ID', "SELECT public_id_to_ulid('$a->{p128}', 'user')", $ulid ],
		[ 'decodes a 64-bit ID', "SELECT public_id_to_bigint('$a->{p64}', 'user')", $big ],
		[ 'mints a 128-bit ID', "SELECT public_id('$ulid'::ulid, 'user')", $a->{p128} ],
		[ 'mints a 64-bit ID', "SELECT public_id(${big}::bigint, 'user')", $a->{p64} ]);
}

# bob, in b, after $prefix (statements), gets none of a's values, and each
# attempt fails with $want (a regex) unless $want is undef (then it returns
# some other value).
sub bob_cannot
{
	my ($node, $label, $a, $prefix, $want) = @_;
	for my $f (forms($a))
	{
		my ($what, $sql, $forbidden) = @$f;
		my ($out, $err) = run_as($node, 'b', 'bob', "$prefix $sql");
		my @lines = split /\n/, $out;
		ok(@lines == 0 || $lines[-1] ne $forbidden, "$label: bob in b never $what of a's");
		if (defined $want)
		{
			like($err, $want, "$label: ... the attempt that $what fails so");
		}
		else
		{
			is($err, '', "$label: ... the attempt that $what returns another value") if $what =~ /^mints/;
		}
	}
}

for my $preload (1, 0)
{
	my $mode = $preload ? 'preloaded' : 'not preloaded';
	my $node = PostgreSQL::Test::Cluster->new($preload ? 'dbs_preloaded' : 'dbs_plain');
	$node->init;
	my $data = abs_path($node->data_dir);
	write_key("$data/public_id_$_.key", $hex{$_}) for qw(a b);
	# The whole cluster's key file, the way 0.3.0 documented: it must not
	# become every database's key.
	$node->append_conf('postgresql.conf', "ulid_tsid.public_id_key_file = 'public_id_a.key'");
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'ulid_tsid'") if $preload;
	$node->start;
	$node->safe_psql('postgres', q{
		CREATE ROLE alice LOGIN;
		CREATE ROLE bob LOGIN;
		CREATE DATABASE a OWNER alice;
		CREATE DATABASE b OWNER bob;
		CREATE EXTENSION ulid_tsid;});
	my ($out, $err) = run_as($node, 'a', 'alice', 'CREATE EXTENSION ulid_tsid');
	is($err, '', "$mode: alice, owner of a, creates the (trusted) extension");
	($out, $err) = run_as($node, 'b', 'bob', 'CREATE EXTENSION ulid_tsid');
	is($err, '', "$mode: bob, owner of b, creates the (trusted) extension");

	# What each key gives, computed by a superuser from the files' bytes.
	my %want;
	for my $k (qw(a b))
	{
		my $key = "decode(btrim(pg_read_file('public_id_$k.key'), E' \\n'), 'hex')";
		my @v = split /\|/, $node->safe_psql('postgres',
			"SELECT public_id('$ulid'::ulid, 'user', $key), public_id(${big}::bigint, 'user', $key)");
		$want{$k} = { p128 => $v[0], p64 => $v[1] };
	}

	# Database b first, with no key bound: the cluster-wide file is refused.
	my $refused = qr/ERROR:  22023: no public-ID key for this database: ulid_tsid\.public_id_key_file comes from the configuration file/;
	bob_cannot($node, "$mode, b unbound", $want{a}, '', $refused);

	# The superuser binds a's file to a, the documented way.
	($out, $err) = run_as($node, 'postgres', 'postgres',
		"ALTER DATABASE a SET ulid_tsid.public_id_key_file = 'public_id_a.key'");
	is($err, '', "$mode: a superuser binds a key file to database a");
	($out, $err) = run_as($node, 'a', 'alice', qq{
		SELECT public_id('$ulid'::ulid, 'user');
		SELECT public_id(${big}::bigint, 'user');
		SELECT public_id_to_ulid('$want{a}{p128}', 'user');
		SELECT public_id_to_bigint('$want{a}{p64}', 'user');});
	is($out, "$want{a}{p128}\n$want{a}{p64}\n$ulid\n$big", "$mode: alice in a mints and decodes with a's key")
	  or diag $err;
	run_as($node, 'a', 'alice', q{
		CREATE TABLE t (id ulid PRIMARY KEY, pub text NOT NULL);
		INSERT INTO t SELECT u, public_id(u, 'user')
		FROM (SELECT generate_ulid() AS u FROM generate_series(1, 2000)) s;});
	my $all_match = "SELECT count(*) FILTER (WHERE public_id(id, 'user') = pub AND public_id_to_ulid(pub, 'user') = id) || '/' || count(*) FROM t";

	# Every way bob could point b (or himself) at a's file.
	bob_cannot($node, "$mode, b unbound, after bob's SET", $want{a},
		"SET ulid_tsid.public_id_key_file = 'public_id_a.key';",
		$preload ? qr/ERROR:  42501: permission denied to set parameter "ulid_tsid\.public_id_key_file"/ : $refused);
	bob_cannot($node, "$mode, b unbound, after bob's set_config()", $want{a},
		"SELECT set_config('ulid_tsid.public_id_key_file', 'public_id_a.key', false);",
		$preload ? qr/ERROR:  42501: permission denied to set parameter/ : $refused);
	{
		local $ENV{PGOPTIONS} = '-c ulid_tsid.public_id_key_file=public_id_a.key';
		# Preloaded, the connection is refused (before psql's VERBOSITY applies);
		# not, the value is dropped when the library loads, and with it the
		# configuration file's (the placeholder had replaced it).
		bob_cannot($node, "$mode, b unbound, bob's connection options", $want{a}, '',
			$preload
			? qr/FATAL:  permission denied to set parameter "ulid_tsid\.public_id_key_file"/
			: qr/WARNING:  42501: permission denied to set parameter.*ERROR:  22023: no public-ID key for this database/s);
	}
	for my $stmt (
		"ALTER DATABASE b SET ulid_tsid.public_id_key_file = 'public_id_a.key'",
		"ALTER ROLE bob SET ulid_tsid.public_id_key_file = 'public_id_a.key'",
		"ALTER ROLE bob IN DATABASE b SET ulid_tsid.public_id_key_file = 'public_id_a.key'",
		"CREATE FUNCTION f() RETURNS int LANGUAGE sql SET ulid_tsid.public_id_key_file = 'public_id_a.key' AS 'SELECT 1'")
	{
		($out, $err) = run_as($node, 'b', 'bob', $stmt);
		like($err, qr/ERROR:  42501: permission denied to set parameter "ulid_tsid\.public_id_key_file"/,
			"$mode: bob cannot: $stmt");
	}
	bob_cannot($node, "$mode, b unbound, after bob's attempts", $want{a}, '', $refused);

	# Older versions of the extension's SQL run the same library code.
	for my $version ('0.1.0', '0.2.0', '0.3.0')
	{
		($out, $err) = run_as($node, 'b', 'bob', "DROP EXTENSION ulid_tsid; CREATE EXTENSION ulid_tsid VERSION '$version'");
		is($err, '', "$mode: bob installs $version in b");
		bob_cannot($node, "$mode, b unbound, $version", $want{a}, '', $refused);
	}
	run_as($node, 'b', 'bob', 'DROP EXTENSION ulid_tsid; CREATE EXTENSION ulid_tsid');

	# A superuser's setting that follows a role into every database is refused too.
	$node->safe_psql('postgres', "ALTER ROLE bob SET ulid_tsid.public_id_key_file = 'public_id_a.key'");
	bob_cannot($node, "$mode, b unbound, ALTER ROLE bob SET by a superuser", $want{a}, '',
		qr/ERROR:  22023: no public-ID key for this database: ulid_tsid\.public_id_key_file comes from ALTER ROLE \.\.\. SET without IN DATABASE/);
	$node->safe_psql('postgres', "ALTER ROLE bob RESET ulid_tsid.public_id_key_file");

	# b gets its own key: bob mints and decodes b's IDs, which are not a's.
	$node->safe_psql('postgres', "ALTER DATABASE b SET ulid_tsid.public_id_key_file = 'public_id_b.key'");
	($out, $err) = run_as($node, 'b', 'bob', "SELECT public_id('$ulid'::ulid, 'user'); SELECT public_id(${big}::bigint, 'user')");
	is($out, "$want{b}{p128}\n$want{b}{p64}", "$mode: bob in b uses b's key") or diag $err;
	bob_cannot($node, "$mode, b bound to its own key", $want{a}, '', undef);

	# A reload, with the whole cluster's line now naming b's file: a session in
	# a keeps a's key, one in b keeps b's (the database's binding wins over the
	# configuration file), and new content in b's file takes effect.
	my $sa = $node->background_psql('a', extra_params => [ '-U', 'alice' ]);
	my $sb = $node->background_psql('b', extra_params => [ '-U', 'bob' ]);
	is($sa->query_safe("SELECT public_id('$ulid'::ulid, 'user')"), $want{a}{p128}, "$mode: alice's session before the reload");
	is($sb->query_safe("SELECT public_id('$ulid'::ulid, 'user')"), $want{b}{p128}, "$mode: bob's session before the reload");
	my $loaded = $sa->query_safe('SELECT pg_conf_load_time()');
	$node->append_conf('postgresql.conf', "ulid_tsid.public_id_key_file = 'public_id_b.key'");
	write_key("$data/public_id_b.key", $hex{c});
	$node->reload;
	# Each backend applies a reload between statements: wait until both have.
	for my $s ($sa, $sb)
	{
		for (1 .. 100)
		{
			last if $s->query_safe("SELECT pg_conf_load_time() > '$loaded'") eq 't';
			sleep 0.1;
		}
	}
	my $c128 = $node->safe_psql('postgres', "SELECT public_id('$ulid'::ulid, 'user', decode(btrim(pg_read_file('public_id_b.key'), E' \\n'), 'hex'))");
	is($sb->query_safe("SELECT public_id('$ulid'::ulid, 'user')"), $c128,
		"$mode: after a reload bob's session reads b's file again (new content)");
	is($sa->query_safe("SELECT public_id('$ulid'::ulid, 'user')"), $want{a}{p128},
		"$mode: after a reload alice's session still uses a's key");
	is($sa->query_safe($all_match), '2000/2000', "$mode: ... for every row");
	$sa->quit;
	$sb->quit;
	bob_cannot($node, "$mode, after the reload", $want{a}, '', undef);
	($out, $err) = run_as($node, 'a', 'alice', $all_match);
	is($out, '2000/2000', "$mode: a new session of alice after the reload");

	# The same in parallel workers (they restore the leader's settings).
	my $parallel = $node->safe_psql('postgres',
		"SELECT CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END");
	($out, $err) = run_as($node, 'a', 'alice', qq{
		SET $parallel = on; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
		SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
		$all_match});
	is($out, '2000/2000', "$mode: parallel workers use a's key") or diag $err;

	# What stays a's owner's to close: CONNECT on a database is PUBLIC's by
	# default, and a role that connects to a is a role in a, with a's key.
	my @in_a = map { [ $_->[0], $_->[1] ] } forms($want{a});
	($out, $err) = run_as($node, 'a', 'bob', $in_a[0][1]);
	is($out, $ulid, "$mode: bob connecting to a (CONNECT is PUBLIC's by default) is a role in a: a's key");
	# Bound to one role in a (ALTER ROLE ... IN DATABASE), a's key is that role's only.
	$node->safe_psql('postgres', q{
		ALTER DATABASE a RESET ulid_tsid.public_id_key_file;
		ALTER ROLE alice IN DATABASE a SET ulid_tsid.public_id_key_file = 'public_id_a.key';});
	for my $f (@in_a)
	{
		($out, $err) = run_as($node, 'a', 'bob', $f->[1]);
		like($err, qr/ERROR:  22023: no public-ID key for this database/,
			"$mode: a's key bound to alice only: bob in a never $f->[0]");
	}
	($out, $err) = run_as($node, 'a', 'alice', $all_match);
	is($out, '2000/2000', "$mode: ... and alice in a has it") or diag $err;
	$node->safe_psql('postgres', q{
		ALTER ROLE alice IN DATABASE a RESET ulid_tsid.public_id_key_file;
		ALTER DATABASE a SET ulid_tsid.public_id_key_file = 'public_id_a.key';});
	# Or a's owner, who is no superuser, closes CONNECT.
	run_as($node, 'a', 'alice', 'REVOKE CONNECT ON DATABASE a FROM PUBLIC');
	($out, $err) = run_as($node, 'a', 'bob', $in_a[0][1]);
	like($err, qr/FATAL:  permission denied for database "a"/, "$mode: once alice revokes CONNECT, bob cannot reach a");

	# A rename keeps a's binding and its IDs.
	$node->safe_psql('postgres', 'ALTER DATABASE a RENAME TO a_renamed');
	($out, $err) = run_as($node, 'a_renamed', 'alice', $all_match);
	is($out, '2000/2000', "$mode: a renamed keeps its key") or diag $err;
	$node->safe_psql('postgres', 'ALTER DATABASE a_renamed RENAME TO a');

	# Dump and restore (pg_dump --create carries the binding): the same IDs.
	my $dump = PostgreSQL::Test::Utils::tempdir . '/a.sql';
	$node->command_ok([ 'pg_dump', '--create', '-f', $dump, '-d', $node->connstr('a') ], "$mode: pg_dump --create of a");
	like(slurp_file($dump), qr/ALTER DATABASE a SET "?ulid_tsid\.public_id_key_file"? TO 'public_id_a\.key'/,
		"$mode: the dump holds a's binding (a path, no key)");
	unlike(slurp_file($dump), qr/$hex{a}/i, "$mode: ... and not the key");
	$node->safe_psql('postgres', 'DROP DATABASE a');
	$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', $dump, '-d', $node->connstr('postgres') ],
		"$mode: restore of a");
	($out, $err) = run_as($node, 'a', 'alice', "$all_match; SELECT public_id('$ulid'::ulid, 'user')");
	is($out, "2000/2000\n$want{a}{p128}", "$mode: restored a has the same public IDs") or diag $err;

	# pg_upgrade (once, to a new cluster of the same major, with the key files
	# copied beside the new data): the bindings and the IDs come through.
	my $upgraded;
	if (!$preload)
	{
		$upgraded = PostgreSQL::Test::Cluster->new('dbs_upgraded');
		$upgraded->init;
		my $new_data = abs_path($upgraded->data_dir);
		for my $k (qw(a b))
		{
			write_key("$new_data/public_id_$k.key", slurp_file("$data/public_id_$k.key") =~ s/\s+//gr);
		}
		# config_data() is 15+ (13's PostgresNode has none): the pg_config on PATH, the nodes' own.
		my ($bindir) = `pg_config --bindir` =~ /(\S+)/;
		$node->stop;
		my $socket = PostgreSQL::Test::Utils::tempdir_short;
		my $cwd = PostgreSQL::Test::Utils::tempdir;
		my $back = Cwd::getcwd();
		chdir $cwd or die "chdir $cwd: $!";    # pg_upgrade writes its files here
		# --no-sync is 15+: 13's pg_upgrade refuses it.
		my @no_sync = (`pg_upgrade --help` =~ /--no-sync/) ? ('--no-sync') : ();
		command_ok([ 'pg_upgrade', @no_sync, '-d', $data, '-D', $new_data,
			'-b', $bindir, '-B', $bindir, '-s', $socket, '-p', $node->port, '-P', $upgraded->port ],
			"$mode: pg_upgrade");
		chdir $back or die "chdir $back: $!";
		$upgraded->start;
		($out, $err) = run_as($upgraded, 'a', 'alice', "$all_match; SELECT public_id('$ulid'::ulid, 'user')");
		is($out, "2000/2000\n$want{a}{p128}", "$mode: after pg_upgrade a has the same public IDs") or diag $err;
		($out, $err) = run_as($upgraded, 'b', 'bob', "SELECT public_id_to_ulid('$want{a}{p128}', 'user') <> '$ulid'");
		is($out, 't', "$mode: ... and b still has its own key, not a's") or diag $err;
		$upgraded->stop;
	}
	else
	{
		$node->stop;
	}
	for my $n (grep { defined } $node, $upgraded)
	{
		unlike(slurp_file($n->logfile), qr/$hex{a}|$hex{b}|$hex{c}/i, "$mode: no key in the server log (" . $n->name . ")");
	}
}

my $all = join("\n", @errors);
unlike($all, qr/$hex{a}|$hex{b}|$hex{c}/i, 'no error text held a key (' . scalar(@errors) . ' texts)');
unlike($all, qr{/pgdata}, 'no error text showed the data directory');

done_testing();
