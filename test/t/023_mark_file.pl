# The server's file copy of a database's mark (pg_ulid_tsid/mark.<database oid>)
# is a second copy, against sequences set back from outside: losing it must not
# stop inserts, and a stale one must not move a new database's keys. Without
# and with shared_preload_libraries = 'ulid_tsid':
#  1. each fault of the file: the file mode 000, the directory 555 (a database
#     with no file yet), the directory 000, a file where the directory belongs,
#     a full disk (the file a link to /dev/full, where every write is ENOSPC):
#     every generator of a new session still returns a key at today's time;
#     one WARNING (not one per reservation, over 3 s of keys) names the file
#     and the OS error; ulid_tsid_status() works and its server_copy_error
#     says the same; once the fault is repaired, the next reservation writes the
#     file again (it then holds the mark, and server_copy_error is NULL);
#  2. DROP DATABASE of a database whose owner raised its mark 23 hours, then
#     CREATE DATABASE ... OID of the same number (15+): the new database's keys
#     are at today's time (the dropped one's file, and preloaded its shared
#     ticks, carry nothing over);
#  3. a copy in the file far above the sequences (the sequences set back from
#     outside, by a superuser's setval()) raises the mark at most
#     ulid_tsid.raise_limit ahead of the clock, with a WARNING;
#  4. after REASSIGN OWNED moves the extension from its owner to another role,
#     a session the old owner opened before may no longer raise the mark.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Path qw(rmtree);
use UlidTsid;

# Each generator's new key at today's time: ulid|tsid|uuidv7|monotonic.
my ($leads_sql, $today) = keys_at_clock_sql();
# Keys for 3 s, one every 10 ms: three or four reservations of the mark.
my $keys_for_a_while = q{DO $$ BEGIN FOR i IN 1 .. 300 LOOP
  PERFORM generate_ulid(), generate_tsid(), generate_uuidv7(), generate_ulid_monotonic(); PERFORM pg_sleep(0.01);
END LOOP; END $$};

for my $preload (0, 1)
{
	my $mode = $preload ? 'preloaded' : 'not preloaded';
	my $node = new_node("file_$preload", preload => $preload);
	my $major = $node->safe_psql('postgres', 'SHOW server_version_num') / 10000;
	my $dir = $node->data_dir . '/pg_ulid_tsid';
	my $db_seq = 0;

	# A new database with the extension; returns (name, oid).
	my $new_db = sub {
		my $db = 'f' . ++$db_seq;
		$node->safe_psql('postgres', "CREATE DATABASE $db");
		$node->safe_psql($db, 'CREATE EXTENSION ulid_tsid');
		return ($db, $node->safe_psql('postgres', "SELECT oid FROM pg_database WHERE datname = '$db'"));
	};
	my $status_error = sub {
		my ($db) = @_;
		my ($rc, $out, $err) = psql_file($node, $db, "SELECT coalesce(server_copy_error, 'none') FROM ulid_tsid_status()");
		return $rc == 0 ? $out : "error: $err";
	};
	my $file_ms = sub {
		my ($oid) = @_;
		open my $fh, '<:raw', "$dir/mark.$oid" or return 0;
		my $got = read($fh, my $bytes, 16);
		close $fh;
		return $got == 16 ? unpack('q<', substr($bytes, 8, 8)) : 0;
	};

	# --- 1. Faults ------------------------------------------------------------
	my @faults = (
		[ 'the file mode 000', 'Permission denied',
		  sub { chmod 0000, "$dir/mark.$_[0]" }, sub { chmod 0600, "$dir/mark.$_[0]" }, 1 ],
		[ 'the directory 555, no file yet', 'Permission denied',
		  sub { chmod 0555, $dir }, sub { chmod 0700, $dir }, 0 ],
		[ 'the directory 000', 'Permission denied',
		  sub { chmod 0000, $dir }, sub { chmod 0700, $dir }, 1 ],
		[ 'a file where the directory belongs', 'Not a directory',
		  sub { rename $dir, "$dir.away"; open my $fh, '>', $dir; close $fh },
		  sub { unlink $dir; rename "$dir.away", $dir }, 1 ],
		[ 'a full disk', 'No space left on device',
		  sub { unlink "$dir/mark.$_[0]"; symlink '/dev/full', "$dir/mark.$_[0]" },
		  sub { unlink "$dir/mark.$_[0]" }, 1 ],
	);
	for my $fault (@faults)
	{
		my ($what, $os_error, $break, $repair, $file_first) = @$fault;
		my ($db, $oid) = $new_db->();
		# The file exists first where the fault is about an existing one.
		$node->safe_psql($db, 'SELECT generate_ulid()') if $file_first;
		$break->($oid);
		my ($rc, $out, $err) = psql_file($node, $db, "$keys_for_a_while;\n$leads_sql");
		is($rc == 0 ? $out : "error: $err", $today, "$mode, $what: every generator of a new session makes keys at today's time");
		my @warnings = $err =~ /WARNING:/g;
		is(scalar @warnings, 1, "$mode, $what: one WARNING over 3 s of keys") or diag($err);
		like($err, qr{WARNING:[^\n]*pg_ulid_tsid(/mark\.$oid)?[^\n]*$os_error}, "$mode, $what: the WARNING names the file and the OS error");
		like($status_error->($db), qr{pg_ulid_tsid.*$os_error},
			"$mode, $what: ulid_tsid_status() works, server_copy_error says what is wrong");
		$repair->($oid);
		($rc, $out, $err) = psql_file($node, $db, $leads_sql);
		is($rc == 0 ? $out : "error: $err", $today, "$mode, $what repaired: keys at today's time");
		my $mark = $node->safe_psql($db, 'SELECT greatest(m.last_value, f.last_value) FROM ulid_tsid_mark m, ulid_tsid_mark_floor f');
		ok($file_ms->($oid) >= $mark && $mark > 0,
			"$mode, $what repaired: the next reservation wrote the file again (" . $file_ms->($oid) . " >= $mark)");
		is($status_error->($db), 'none', "$mode, $what repaired: server_copy_error is NULL");
	}

	# --- 2. A dropped database's file, and a new one of the same OID -------------
	SKIP:
	{
		skip 'CREATE DATABASE ... OID needs PostgreSQL 15', 3 if $major < 15;
		my ($db, $oid) = $new_db->();
		$node->safe_psql($db, "SELECT ulid_tsid_mark_raise(now() + interval '23 hours')");
		my ($rc, $out, $err) = psql_file($node, $db, "SELECT ulid_timestamp(generate_ulid()) > now() + interval '22 hours'");
		is($out, 't', "$mode: a database raised 23 hours makes keys dated tomorrow");
		$node->safe_psql('postgres', "DROP DATABASE $db");
		$node->safe_psql('postgres', "CREATE DATABASE reborn OID $oid");
		$node->safe_psql('reborn', 'CREATE EXTENSION ulid_tsid');
		($rc, $out, $err) = psql_file($node, 'reborn', $leads_sql);
		is($rc == 0 ? $out : "error: $err", $today, "$mode: a new database of the dropped one's OID: keys at today's time");
		is($err, '', "$mode: and no WARNING");
		$node->safe_psql('postgres', 'DROP DATABASE reborn');
	}

	# --- 3. The file's copy capped at ulid_tsid.raise_limit ------------------------
	{
		my ($db, $oid) = $new_db->();
		$node->safe_psql($db, "SELECT ulid_tsid_mark_raise(now() + interval '3 days')");
		my $now_ms = q{(extract(epoch FROM clock_timestamp()) * 1000)::bigint};
		$node->safe_psql($db, "SELECT setval('ulid_tsid_mark', $now_ms), setval('ulid_tsid_mark_floor', $now_ms), "
			  . "setval('ulid_tsid_mark_dumped', $now_ms)");
		$node->restart;    # preloaded, the database's ticks would keep the raise (as they must)
		my ($rc, $out, $err) = psql_file($node, $db,
			"SELECT round(extract(epoch FROM ulid_timestamp(generate_ulid()) - clock_timestamp()) / 3600)");
		is($rc == 0 ? $out : "error: $err", 24, "$mode: a file copy 3 days ahead of sequences set back raises the keys to ulid_tsid.raise_limit (a day)");
		like($err, qr/WARNING:.*raise_limit/, "$mode: with a WARNING that names ulid_tsid.raise_limit");
	}

	# --- 4. REASSIGN OWNED: the old owner's open session ---------------------------
	{
		$node->safe_psql('postgres', 'CREATE ROLE old_owner LOGIN; CREATE ROLE new_owner LOGIN; CREATE DATABASE owned OWNER old_owner');
		$node->safe_psql('owned', 'CREATE EXTENSION ulid_tsid', extra_params => [ '-U', 'old_owner' ]);
		my $old = $node->background_psql('owned', on_error_stop => 0, extra_params => [ '-U', 'old_owner' ]);
		$old->query_safe("SELECT ulid_tsid_mark_raise(now()) IS NOT NULL");
		$node->safe_psql('owned', 'REASSIGN OWNED BY old_owner TO new_owner');
		my $after = $old->query("SELECT ulid_tsid_mark_raise(now() + interval '1 hour') IS NOT NULL");
		unlike($after, qr/^t$/m, "$mode: after REASSIGN OWNED, the old owner's open session may no longer raise the mark");
		like($old->{stderr}, qr/permission denied for function ulid_tsid_mark_raise/, "$mode: it is told: permission denied");
		$old->quit;
		$node->safe_psql('postgres', 'DROP DATABASE owned; DROP ROLE old_owner; DROP ROLE new_owner');
	}
	$node->stop;
}

done_testing();
