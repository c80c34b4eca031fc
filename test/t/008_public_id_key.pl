# The public-ID key the ways users configure it: a key file a superuser binds
# to the database (ALTER DATABASE ... SET ulid_tsid.public_id_key_file), with
# the library preloaded and not, across a restart, a new binding and a reload
# (new content in the same file), and the files a server must refuse (group-
# or world-readable, another owner, missing, malformed, a directory, a FIFO, a
# symbolic link), with errors that show a plain role the setting's name, not
# the path. test/t/011_public_id_databases.pl has the other databases' side.
# Then every role looks everywhere a setting shows (SHOW, current_setting,
# pg_settings, pg_file_settings) and the server logs and every error text are
# searched: the key's hex digits appear nowhere.
#
# Expected values are computed with the explicit-key overloads from the file's
# own bytes (pg_read_file), so no statement text ever holds a key either.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UlidTsid qw(poll_until);
use Cwd qw(abs_path);
use Fcntl qw(O_WRONLY O_NONBLOCK);
use POSIX ();
use Time::HiRes qw(time);

my $key_a = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
my $key_b = 'f0e1d2c3b4a5968778695a4b3c2d1e0ff0e1d2c3b4a5968778695a4b3c2d1e0f';
my @errors;    # every error text seen, searched for the keys at the end

sub write_key
{
	my ($path, $hex, $mode) = @_;
	open(my $fh, '>', $path) or die "cannot write $path: $!";
	print $fh "  $hex\n";
	close $fh;
	chmod($mode, $path) or die "chmod $path: $!";
}

# public_id() through the key file equals public_id() with the key read from
# `file` (relative to the data directory) as an explicit argument.
sub uses_key_from
{
	my ($node, $file, $sql_prefix) = @_;
	$sql_prefix //= '';
	return $node->safe_psql('postgres', $sql_prefix . qq{
		SELECT public_id(4242::bigint, 'user')
		     = public_id(4242::bigint, 'user', decode(btrim(pg_read_file('$file'), E' \\n'), 'hex'))
		   AND public_id('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid, 'user')
		     = public_id('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid, 'user', decode(btrim(pg_read_file('$file'), E' \\n'), 'hex'))});
}

# Binds `file` to database postgres (undef: removes the binding), the
# documented way; sessions started afterwards use it.
sub bind_key
{
	my ($node, $file) = @_;
	$node->safe_psql('postgres', defined $file
		? "ALTER DATABASE postgres SET ulid_tsid.public_id_key_file = '$file'"
		: "ALTER DATABASE postgres RESET ulid_tsid.public_id_key_file");
}

sub psql_err
{
	my ($node, $sql, @extra) = @_;
	my ($rc, $out, $err) = $node->psql('postgres', $sql, on_error_stop => 0,
		extra_params => [ '-v', 'VERBOSITY=verbose', @extra ]);
	push @errors, $err;
	return ($out, $err);
}

for my $preload (1, 0)
{
	my $mode = $preload ? 'preloaded' : 'not preloaded';
	my $node = PostgreSQL::Test::Cluster->new($preload ? 'preloaded' : 'plain');
	$node->init;
	my $data = abs_path($node->data_dir);    # relative on newer servers
	write_key("$data/public_id.key", $key_a, 0600);
	write_key("$data/public_id_b.key", $key_b, 0600);
	# Relative to the data directory when preloaded, absolute when not.
	my $path = $preload ? 'public_id.key' : "$data/public_id.key";
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'ulid_tsid'") if $preload;
	$node->start;
	$node->safe_psql('postgres', q{
		CREATE EXTENSION ulid_tsid;
		CREATE ROLE app LOGIN;
		CREATE ROLE monitor LOGIN IN ROLE pg_read_all_settings;});
	bind_key($node, $path);

	# A restart with the key already bound: a session's very first statement
	# uses it (0.1.0 dropped such a value when the library loaded).
	$node->restart;
	is(uses_key_from($node, 'public_id.key'), 't', "$mode: key file bound to the database, first statement");
	my ($out, $err) = psql_err($node, "SELECT public_id(7::bigint, 'user') IS NOT NULL", '-U', 'app');
	is($out, 't', "$mode: a plain role uses the key without seeing it") or diag $err;

	# Nobody sees the key: the setting holds a path, and no setting holds the key.
	for my $role ('app', 'monitor', 'postgres')
	{
		for my $q ("SHOW ulid_tsid.public_id_key_file",
			"SELECT current_setting('ulid_tsid.public_id_key_file')",
			"SELECT string_agg(name || '=' || setting, ' ') FROM pg_settings WHERE name LIKE 'ulid_tsid.%'",
			"SELECT string_agg(name || '=' || setting, ' ') FROM pg_file_settings WHERE name LIKE 'ulid_tsid.%'",
			"SELECT string_agg(array_to_string(setconfig, ' '), ' ') FROM pg_db_role_setting",
			"SELECT current_setting('ulid_tsid.public_id_key', true)")
		{
			($out, $err) = psql_err($node, $q, '-U', $role);
			unlike("$out $err", qr/$key_a|$key_b/i, "$mode, $role: no key in: $q");
		}
	}
	($out, $err) = psql_err($node, "SELECT public_id(7::bigint, 'user'); SHOW ulid_tsid.public_id_key_file", '-U', 'monitor');
	like($out, qr/public_id\.key/, "$mode: pg_read_all_settings members see the path, which is no secret");

	# A new binding: sessions started afterwards use the new file; a running
	# session keeps the key it had (a database's settings apply at connection).
	my $session = $node->background_psql('postgres');
	my $before = $session->query_safe("SELECT public_id(99::bigint, 'user')");
	bind_key($node, 'public_id_b.key');
	is($session->query_safe("SELECT public_id(99::bigint, 'user')"), $before,
		"$mode: a running session keeps its key after a new binding");
	is(uses_key_from($node, 'public_id_b.key'), 't', "$mode: a new session uses the newly bound file");
	$session->quit;

	# The same path with new content, then a reload: a running session reads
	# the file again (its setting did not change; the reload is what counts).
	$session = $node->background_psql('postgres');
	my $with_b = $session->query_safe("SELECT public_id(99::bigint, 'user')");
	isnt($with_b, $before, "$mode: the session uses b's key");
	write_key("$data/public_id_b.key", $key_a, 0600);
	is($session->query_safe("SELECT public_id(99::bigint, 'user')"), $with_b,
		"$mode: new content alone changes nothing before a reload");
	my $loaded = $session->query_safe('SELECT pg_conf_load_time()');
	$node->reload;
	for (1 .. 100)
	{
		last if $session->query_safe("SELECT pg_conf_load_time() > '$loaded'") eq 't';
		sleep 0.1;
	}
	is($session->query_safe(qq{SELECT public_id(99::bigint, 'user') = '$before'}), 't',
		"$mode: new content in the same file takes effect at the reload");
	$session->quit;
	write_key("$data/public_id_b.key", $key_b, 0600);

	# The configuration file is no place for the key file: it would give every
	# database of the cluster the same key (011 has the details).
	bind_key($node, undef);
	$node->append_conf('postgresql.conf', "ulid_tsid.public_id_key_file = 'public_id.key'");
	$node->reload;
	poll_until($node, 'postgres', "SHOW ulid_tsid.public_id_key_file", 'public_id.key');
	($out, $err) = psql_err($node, "SELECT public_id(1::bigint, 'user')");
	like($err, qr/ERROR:  22023: no public-ID key for this database: ulid_tsid\.public_id_key_file comes from the configuration file/,
		"$mode: a key file in postgresql.conf is refused: ERROR 22023");
	$node->append_conf('postgresql.conf', "ulid_tsid.public_id_key_file = ''");
	$node->reload;
	poll_until($node, 'postgres', "SHOW ulid_tsid.public_id_key_file", '');

	# Files a server must refuse, each with an ERROR that names the path (to a
	# superuser) and says what is wrong.
	symlink("$data/public_id.key", "$data/link.key") or die "symlink: $!";
	my @refused = (
		[ 'group-readable', sub { write_key("$data/bad.key", $key_b, 0640) }, qr/grants access to group or others/ ],
		[ 'world-readable', sub { write_key("$data/bad.key", $key_b, 0604) }, qr/grants access to group or others/ ],
		[ 'missing', sub { unlink "$data/bad.key" }, qr/could not be opened: No such file or directory/ ],
		[ 'malformed', sub { write_key("$data/bad.key", substr($key_b, 0, 63), 0600) }, qr/does not hold exactly 64 hexadecimal digits/ ],
		[ 'a symbolic link', sub { unlink "$data/bad.key"; rename "$data/link.key", "$data/bad.key" }, qr/is a symbolic link/ ],
		[ 'a directory', sub { unlink "$data/bad.key"; mkdir "$data/bad.key" }, qr/is not a regular file/ ],);
	bind_key($node, 'bad.key');
	for my $case (@refused)
	{
		my ($what, $make, $why) = @$case;
		$make->();
		my ($o, $e) = psql_err($node, "SELECT public_id(1::bigint, 'user')");
		like($e, qr/ERROR:  F0000: public-ID key file "\Q$data\E\/bad\.key" \(ulid_tsid\.public_id_key_file\) /,
			"$mode, $what file: ERROR F0000 naming the path");
		like($e, $why, "$mode, $what file: says why");
	}
	rmdir "$data/bad.key";

	# A role that is not a superuser cannot SHOW data_directory: its error names
	# the setting, never the absolute path.
	($out, $err) = psql_err($node, "SELECT public_id(1::bigint, 'user')", '-U', 'app');
	like($err, qr/ERROR:  F0000: public-ID key file \(ulid_tsid\.public_id_key_file\) could not be opened: No such file/,
		"$mode: a plain role's error names the setting");
	unlike($err, qr/\Q$data\E/, "$mode: ... and not the data directory");

	# A FIFO as the key file (a superuser's mistake, or a path someone could
	# replace): the call must fail at once. A blocking open() waits for a
	# writer, past statement_timeout and deaf to pg_cancel_backend; after 20 s
	# the test opens the FIFO itself to free the backend and counts the wait
	# as a failure.
	POSIX::mkfifo("$data/fifo.key", 0600) or die "mkfifo: $!";
	bind_key($node, 'fifo.key');
	my $timed_out = 0;
	my $started = time;
	my ($fifo_out, $fifo_err);
	$node->psql('postgres', "SET statement_timeout = '2s'; SELECT public_id(1::bigint, 'user')",
		stdout => \$fifo_out, stderr => \$fifo_err, on_error_stop => 0,
		extra_params => [ '-v', 'VERBOSITY=verbose' ], timeout => 20, timed_out => \$timed_out);
	my $took = time - $started;
	if ($timed_out)
	{
		my $writer;    # a reader blocked in open() lets a writer in, then reads EOF
		close $writer if sysopen($writer, "$data/fifo.key", O_WRONLY | O_NONBLOCK);
	}
	push @errors, $fifo_err // '';
	ok(!$timed_out && $took < 10, "$mode: a FIFO key file fails at once (took ${\ sprintf('%.1f', $took)} s)");
	like($fifo_err // '', qr/ERROR:  F0000: .*is not a regular file/, "$mode: a FIFO is not a regular file");
	unlink "$data/fifo.key";

	# Not owned by the server's user (a file root owns; the server reads it).
	bind_key($node, '/etc/passwd');
	($out, $err) = psql_err($node, "SELECT public_id(1::bigint, 'user')");
	like($err, qr/public-ID key file "\/etc\/passwd" \(ulid_tsid\.public_id_key_file\) is not owned by the database server's user/,
		"$mode: a file of another owner is refused");
	# No file named at all.
	bind_key($node, undef);
	($out, $err) = psql_err($node, "SELECT public_id(1::bigint, 'user')");
	like($err, qr/ERROR:  22023: no public-ID key for this database: ulid_tsid.public_id_key_file is not set/,
		"$mode: no key file set: ERROR 22023");
	# Back to a good file: the refusals left nothing behind.
	bind_key($node, 'public_id.key');
	is(uses_key_from($node, 'public_id.key'), 't', "$mode: a good file again after the refusals");

	# A role that is not a superuser cannot point the setting elsewhere. Before
	# the library loads, a SET only fills a placeholder (no code can refuse it
	# then); loading the library must drop it, so the key stays the file's. A
	# superuser can (its session, its decision).
	write_key("$data/other.key", $key_b, 0600);
	my $expected = $node->safe_psql('postgres', qq{SELECT public_id(4242::bigint, 'user',
		decode(btrim(pg_read_file('public_id.key'), E' \\n'), 'hex'))});
	my $other = $node->safe_psql('postgres', qq{SELECT public_id(4242::bigint, 'user',
		decode(btrim(pg_read_file('other.key'), E' \\n'), 'hex'))});
	($out, $err) = psql_err($node,
		"SET ulid_tsid.public_id_key_file = 'other.key'; SELECT public_id(4242::bigint, 'user')", '-U', 'app');
	is($out, $expected, "$mode: app's SET of the key file as a session's first statement changes nothing");
	like($err, $preload ? qr/ERROR:  42501: permission denied to set parameter/ : qr/WARNING:  42501: permission denied to set parameter/,
		"$mode: app: the SET is refused (when the library loads, if it was not loaded)");
	($out, $err) = psql_err($node,
		"SELECT public_id(1::bigint, 'user'); SET ulid_tsid.public_id_key_file = 'other.key'", '-U', 'app');
	like($err, qr/ERROR:  42501: permission denied to set parameter/, "$mode: app cannot SET the key file once loaded");
	($out, $err) = psql_err($node,
		"SET ulid_tsid.public_id_key_file = 'other.key'; SELECT public_id(4242::bigint, 'user')");
	is($out, $other, "$mode: a superuser's SET in its session uses that file") or diag $err;

	$node->stop;
	my $log = slurp_file($node->logfile);
	unlike($log, qr/$key_a|$key_b/i, "$mode: neither key's hex appears in the server log");
	like($log, qr/public-ID key file/, "$mode: (the log does hold the refusals, so it was searched)");
	like($log, qr/DETAIL:  The file is "\Q$data\E\/bad\.key"\./, "$mode: the log has the path a plain role's error left out");
}

my $all_errors = join("\n", @errors);
unlike($all_errors, qr/$key_a|$key_b/i, 'no error text ever held a key (' . scalar(@errors) . ' texts)');
like($all_errors, qr/ERROR/, '(errors were collected)');

done_testing();
