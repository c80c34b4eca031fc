# The side doors of the persisted mark (docs/guarantees.md), each
# run without and with shared_preload_libraries = 'ulid_tsid':
#  1. a session whose first generator is a compat alias (ulid_tsid_compat, in
#     its own schema) must still keep the mark: it moves and covers the
#     session's keys, and after pg_ctl -m immediate and a restart with the
#     clock set back (6 s or more) no key of generate_tsid, generate_ulid,
#     compat.gen_monotonic_ulid or compat.uuid_generate_v7 is a duplicate or
#     at or below an earlier one;
#  2. a database owner who created both extensions plants sequences named
#     like the mark's in the compat schema, adds them to the extension (when
#     it may) and sets them to the year 2100: another role's keys, through
#     the aliases and the native functions, stay at today's date and nothing fails;
#     and when that owner raises the mark of their own database through the
#     doors the API gives them (setval of ulid_tsid_mark_dumped,
#     ulid_tsid_mark_raise()), a new session in another database keeps
#     today's date (checked on case 4's cluster, which nothing else moves);
#  3. a generator waiting behind BEGIN; ALTER SEQUENCE ulid_tsid_mark OWNER TO
#     (an AccessExclusiveLock held) is ended by lock_timeout, statement_timeout,
#     pg_cancel_backend and pg_terminate_backend, and CHECKPOINT and a SELECT of
#     ulid_tsid_mark_floor do not wait behind it, both for a fresh backend (it
#     reads the mark) and for one that renews its reservation; and keys made
#     in a reservation's last 50 ms (when it is renewed early) do not wait
#     behind that lock at all (lock_timeout = 300ms, no error) and leave the
#     reservation as it was;
#  4. a non-superuser database owner restores a superuser's pg_dump (plain,
#     with psql --single-transaction ON_ERROR_STOP, and custom, with
#     pg_restore --exit-on-error --single-transaction) into a database of
#     theirs on a new cluster whose clock is an hour behind, and every
#     generator's new keys are above the restored ones;
#  5. a clock thrown a year ahead and back gives a WARNING about the lead
#     (ulid_tsid.max_lead); one thrown 150 years ahead and back is repaired
#     by a superuser's ulid_tsid_mark_reset() (a plain role gets 42501):
#     generate_tsid() works again and ULIDs carry today's time;
#  6. (not preloaded) with the clock 5 s behind the mark, 10 s of new
#     connections each making a TSID must not push the lead up by more than
#     0.3 s;
#  7. ulid_tsid_status(): one row, preloaded as configured, node_bits and
#     node_id as set in postgresql.conf, standby false on a primary;
#  8. while the backend that wrote a reservation waits to write the server's
#     copy of the mark (pg_ulid_tsid/mark.<database oid>), no other backend
#     returns a key inside that reservation before the copy covers it, and
#     one waiting for it there can be cancelled.
# They run in the order 7, 3, 8, 1, 4, 6, 2, 5: before 0.4.0's fix the planted 2100
# of case 2 reaches a preloaded cluster's shared sequence, in every database,
# so it comes after the cases it would disturb, and case 5 moves the clock last.
# Every wait is bounded (the code before that fix held a buffer lock, so
# interrupts, while it waits for the mark's relation lock): a check that
# would hang fails after its bound instead. Where a function of the mark's
# API (ulid_tsid_status(), ulid_tsid_mark_reset(), ulid_tsid_mark_raise(),
# ulid_tsid_mark_dumped) is missing, its checks fail with a message that says so.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(time usleep);
use UlidTsid;

my $libfaketime = libfaketime();
plan skip_all => 'libfaketime not installed (Debian package faketime; scripts/install-deps.sh installs it)'
  unless $libfaketime;

my $rows = 2000;                        # keys per session of case 1 and case 4
my $year_s = 365.25 * 86400;
my $tmp = PostgreSQL::Test::Utils::tempdir;


# psql_file with ON_ERROR_STOP: (exit code, stdout, stderr).
sub run_sql
{
	my ($node, $db, $sql, @params) = @_;
	return psql_file($node, $db, $sql, '-v', 'ON_ERROR_STOP=1', @params);
}

# Whether function $name exists in $db (to_regproc), for the checks' messages.
sub have_function
{
	my ($node, $db, $name) = @_;
	return $node->safe_psql($db, "SELECT to_regproc('$name') IS NOT NULL") eq 't';
}

# Polls $query every 0.1 s for at most $seconds until it prints $expected.
sub wait_for
{
	my ($node, $db, $query, $expected, $seconds) = @_;
	my $deadline = time + $seconds;
	my ($rc, $out, $err) = (0, '', '');
	while (time < $deadline)
	{
		($rc, $out, $err) = psql_file($node, $db, $query);
		return 1 if $rc == 0 && $out eq $expected;
		usleep(100_000);
	}
	note "wait_for gave up after $seconds s: $query\nexpected: $expected\nlast output: $out\nstderr: $err";
	return 0;
}

# A psql in the background (application_name $name), one -c per statement,
# ON_ERROR_STOP; its output in scalars, so that IPC::Run can tell when it ends.
sub bg_start
{
	my ($node, $db, $name, $user, @statements) = @_;
	my $b = { name => $name, out => '', err => '', t0 => time };
	$b->{h} = IPC::Run::start(
		[ 'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', ($user ? ('-U', $user) : ()),
		  '-d', $node->connstr($db) . " application_name=$name", map { ('-c', $_) } @statements ],
		'<', '/dev/null', '>', \$b->{out}, '2>', \$b->{err});
	return $b;
}

# Waits at most until $deadline (a time()) for a background psql to end; 1 and
# its end time, exit code and output recorded, or 0 if it still runs.
sub bg_wait
{
	my ($b, $deadline) = @_;
	return 1 if defined $b->{end};
	while (1)
	{
		if (!$b->{h}->pumpable)
		{
			$b->{end} = time;
			$b->{h}->finish;
			$b->{rc} = $b->{h}->result;
			return 1;
		}
		return 0 if time >= $deadline;
		$b->{h}->pump_nb;
		usleep(10_000);
	}
}

# Ends a background psql that is still running (the client only).
sub bg_kill
{
	my ($b) = @_;
	return if defined $b->{end};
	$b->{h}->kill_kill;
	$b->{end} = time;
	$b->{rc} = -1;
	$b->{killed} = 1;
}

# One statement in a fresh session, at most $limit s: (ended, seconds, exit code, stdout, stderr).
sub timed_sql
{
	my ($node, $db, $sql, $limit) = @_;
	my $b = bg_start($node, $db, 'timed', undef, $sql);
	my $ended = bg_wait($b, $b->{t0} + $limit);
	bg_kill($b) unless $ended;
	return ($ended, $b->{end} - $b->{t0}, $b->{rc}, $b->{out}, $b->{err});
}

# Unix ms of a timestamptz expression, as SQL.
sub ms { return "(extract(epoch FROM $_[0]) * 1000)::bigint" }

# Each generator's key of one session, in this order: 'today' or its year.
my @generators = (
	[ 'compat.gen_ulid',           'ulid_timestamp(compat.gen_ulid())' ],
	[ 'compat.gen_monotonic_ulid', 'ulid_timestamp(compat.gen_monotonic_ulid())' ],
	[ 'compat.uuid_generate_v7',   'uuidv7_timestamp(compat.uuid_generate_v7())' ],
	[ 'generate_tsid',             'tsid_timestamp(generate_tsid())' ],
	[ 'generate_ulid',             'ulid_timestamp(generate_ulid())' ],
	[ 'generate_ulid_monotonic',   'ulid_timestamp(generate_ulid_monotonic())' ],
	[ 'generate_uuidv7',           'uuidv7_timestamp(generate_uuidv7())' ]);
sub dated_sql
{
	my $n = 0;
	return q{SELECT string_agg(g || '=' || CASE WHEN ts < now() + interval '1 day' THEN 'today' ELSE extract(year FROM ts)::text END, ' ' ORDER BY n)
FROM (VALUES } . join(",\n  ", map { $n++; "($n, '$_->[0]', $_->[1])" } @_) . ') v(n, g, ts)';
}
sub dated_want { return join(' ', map { "$_->[0]=today" } @_) }
my ($dated, $want) = (dated_sql(@generators), dated_want(@generators));
my @native = grep { $_->[0] !~ /^compat\./ } @generators;    # where compat is not installed
my ($dated_native, $want_native) = (dated_sql(@native), dated_want(@native));
for my $preload (0, 1)
{
	my $mode = $preload ? 'preloaded' : 'not preloaded';
	my $conf = "autovacuum = off\nlog_statement = none\nrestart_after_crash = on\n"
	  . "ulid_tsid.node_bits = 4\nulid_tsid.node_id = 3\nmax_connections = 40";
	my $node = new_node("sidedoors_$preload", preload => $preload, conf => $conf);
	$node->safe_psql('postgres', q{
CREATE SCHEMA compat; CREATE EXTENSION ulid_tsid_compat SCHEMA compat;
CREATE ROLE plain_role LOGIN; CREATE ROLE blocker;});

	# --- 7. ulid_tsid_status() -------------------------------------------------
	{
		my $exists = have_function($node, 'postgres', 'ulid_tsid_status');
		my ($rc, $out, $err) = run_sql($node, 'postgres',
			'SELECT count(*) FROM ulid_tsid_status(); '
			  . 'SELECT preloaded, standby, node_bits, node_id FROM ulid_tsid_status()');
		my $why = $exists ? $err : 'ulid_tsid_status() does not exist';
		is($rc == 0 ? (split /\n/, $out)[0] : "error: $why", '1', "$mode: ulid_tsid_status() returns one row");
		is($rc == 0 ? (split /\n/, $out)[1] : "error: $why", ($preload ? 't' : 'f') . '|f|4|3',
			"$mode: ulid_tsid_status(): preloaded " . ($preload ? 'true' : 'false')
			  . ', standby false on a primary, node_bits 4 and node_id 3 as in postgresql.conf');
	}

	# --- 3. Waits behind a lock on the mark can be ended ----------------------
	{
		my $a = bg_start($node, 'postgres', 'a_locker', undef,
			'BEGIN', 'ALTER SEQUENCE ulid_tsid_mark OWNER TO blocker', 'SELECT pg_sleep(60)');
		my $locked = wait_for($node, 'postgres', q{
SELECT count(*) FROM pg_locks WHERE relation = 'ulid_tsid_mark'::regclass
  AND mode = 'AccessExclusiveLock' AND granted}, '1', 10);
		ok($locked, "$mode: session A holds AccessExclusiveLock on ulid_tsid_mark (ALTER SEQUENCE ... OWNER TO in an open transaction)")
		  or diag($a->{err});

		# Fresh backends: their first generator call reads the mark. The timed
		# ones say how long their call waited (a connection's own start on a
		# loaded machine can take seconds, which is not the wait under test).
		my $timed_call = q{DO $t$ DECLARE t0 timestamptz := clock_timestamp(); BEGIN PERFORM generate_tsid();
EXCEPTION WHEN lock_not_available OR query_canceled THEN
  RAISE EXCEPTION 'generate_tsid() ended after % ms: %', round(extract(epoch FROM clock_timestamp() - t0) * 1000), SQLERRM;
END $t$};
		my %b = (
			lock_timeout      => bg_start($node, 'postgres', 'b_lock_timeout', undef,
				"SET lock_timeout = '500ms'", $timed_call),
			statement_timeout => bg_start($node, 'postgres', 'b_statement_timeout', undef,
				"SET statement_timeout = '500ms'", $timed_call),
			cancel            => bg_start($node, 'postgres', 'b_cancel', undef, 'SELECT generate_tsid()'),
			terminate         => bg_start($node, 'postgres', 'b_terminate', undef, 'SELECT generate_tsid()'));
		my $waiting = wait_for($node, 'postgres', q{
SELECT count(*) FROM pg_stat_activity WHERE application_name IN ('b_cancel', 'b_terminate')
  AND state = 'active' AND query = 'SELECT generate_tsid()' AND clock_timestamp() - query_start > interval '200 ms'},
			'2', 10);
		ok($waiting, "$mode: two fresh backends wait in generate_tsid() behind session A's lock");
		note "$mode: their wait events: " . $node->safe_psql('postgres', q{
SELECT string_agg(application_name || ' ' || coalesce(wait_event_type || '/' || wait_event, 'none'), ', ')
FROM pg_stat_activity WHERE application_name LIKE 'b\_%'});

		# A third session, while they wait.
		for my $sql ('CHECKPOINT', 'SELECT count(*) FROM ulid_tsid_mark_floor')
		{
			my ($ended, $took, $rc, $out, $err) = timed_sql($node, 'postgres', $sql, 4);
			ok($ended && $rc == 0 && $took < 3,
				sprintf("%s: %s from a third session completes within 3 s while fresh backends wait behind the lock (%s)",
					$mode, $sql, $ended ? sprintf('%.2f s', $took) : 'still waiting after 4 s, given up'))
			  or diag($err);
		}
		ok(!defined $b{cancel}{end} && $b{cancel}{h}->pumpable && $b{terminate}{h}->pumpable,
			"$mode: the two backends were still waiting meanwhile");

		for my $kind ('lock_timeout', 'statement_timeout')
		{
			my $b = $b{$kind};
			my $ended = bg_wait($b, $b->{t0} + 15);
			bg_kill($b) unless $ended;
			my ($waited) = $ended ? $b->{err} =~ /generate_tsid\(\) ended after (\d+) ms/ : ();
			ok($ended && $b->{rc} != 0 && defined $waited && $waited < 2000,
				sprintf("%s: a fresh backend with %s = 500ms behind the lock ends its wait with an error within 2 s (%s)",
					$mode, $kind, $ended ? sprintf('exit %d: %s', $b->{rc}, $b->{err} =~ s/\s+/ /gr)
					: 'still running after 15 s, given up'));
		}
		for my $kind ('cancel', 'terminate')
		{
			my $b = $b{$kind};
			my $t0 = time;
			my ($rc, $out, $err) = run_sql($node, 'postgres',
				"SELECT pg_${kind}_backend(pid) FROM pg_stat_activity WHERE application_name = 'b_$kind'");
			my $ended = bg_wait($b, $t0 + 4);
			bg_kill($b) unless $ended;
			my $took = $b->{end} - $t0;
			ok($rc == 0 && $out eq 't' && $ended && $b->{rc} != 0 && $took < 2,
				sprintf("%s: pg_%s_backend() ends a fresh backend waiting in generate_tsid() behind the lock within 2 s (%s)",
					$mode, $kind, $ended ? sprintf('%.2f s, exit %d: %s', $took, $b->{rc}, $b->{err} =~ s/\s+/ /gr)
					: "still waiting after 4 s, given up; signal: $out $err"));
		}

		# A backend that generated before the lock was taken and must renew its
		# reservation (1.1 s later, past its end) behind it.
		run_sql($node, 'postgres', "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'a_locker'");
		bg_wait($a, time + 5) or bg_kill($a);
		bg_wait($_, time + 10) or bg_kill($_) for values %b;
		wait_for($node, 'postgres', q{SELECT count(*) FROM pg_stat_activity WHERE application_name ~ '^[ab]_'}, '0', 15)
		  or diag('backends of the fresh-backend round are still there');
		my $renew = bg_start($node, 'postgres', 'b_renew', undef, 'SELECT 1, generate_tsid()',
			q{DO $$ BEGIN FOR i IN 1 .. 200 LOOP
  EXIT WHEN EXISTS (SELECT 1 FROM pg_locks WHERE relation = 'ulid_tsid_mark'::regclass AND mode = 'AccessExclusiveLock' AND granted);
  PERFORM pg_sleep(0.05); END LOOP; END $$},
			'SELECT pg_sleep(1.1)', 'SELECT 2, generate_tsid()');
		wait_for($node, 'postgres', q{SELECT count(*) FROM pg_stat_activity WHERE application_name = 'b_renew' AND query LIKE 'DO%'}, '1', 10)
		  or diag("b_renew did not reach its wait for the lock: $renew->{err}");
		$a = bg_start($node, 'postgres', 'a_locker', undef,
			'BEGIN', 'ALTER SEQUENCE ulid_tsid_mark OWNER TO blocker', 'SELECT pg_sleep(60)');
		$waiting = wait_for($node, 'postgres', q{
SELECT count(*) FROM pg_stat_activity WHERE application_name = 'b_renew'
  AND state = 'active' AND query = 'SELECT 2, generate_tsid()' AND clock_timestamp() - query_start > interval '200 ms'},
			'1', 10);
		ok($waiting, "$mode: a backend that generated before the lock waits behind it to renew its reservation")
		  or diag("b_renew: $renew->{out} $renew->{err}");
		note "$mode: its wait event: " . $node->safe_psql('postgres', q{
SELECT coalesce(wait_event_type || '/' || wait_event, 'none') FROM pg_stat_activity WHERE application_name = 'b_renew'});
		for my $sql ('CHECKPOINT', 'SELECT count(*) FROM ulid_tsid_mark_floor')
		{
			my ($ended, $took, $rc, $out, $err) = timed_sql($node, 'postgres', $sql, 4);
			ok($ended && $rc == 0 && $took < 3,
				sprintf("%s: %s from a third session completes within 3 s while a backend renewing its reservation waits behind the lock (%s)",
					$mode, $sql, $ended ? sprintf('%.2f s', $took) : 'still waiting after 4 s, given up'))
			  or diag($err);
		}
		my $t0 = time;
		run_sql($node, 'postgres', "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'b_renew'");
		my $ended = bg_wait($renew, $t0 + 4);
		bg_kill($renew) unless $ended;
		ok($ended && $renew->{rc} != 0 && $renew->{end} - $t0 < 2,
			sprintf("%s: pg_cancel_backend() ends a backend waiting behind the lock to renew its reservation within 2 s (%s)",
				$mode, $ended ? sprintf('%.2f s: %s', $renew->{end} - $t0, $renew->{err} =~ s/\s+/ /gr) : 'still waiting after 4 s, given up'));
		run_sql($node, 'postgres', "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'a_locker'");
		bg_wait($a, time + 5) or bg_kill($a);
		wait_for($node, 'postgres', q{SELECT count(*) FROM pg_stat_activity WHERE application_name ~ '^[ab]_'}, '0', 15)
		  or diag('backends of the lock round are still there');

		# A renewal never waits. Inside its last 50 ms a reservation is renewed
		# by the first key made there, trying the mark's locks: with the lock
		# held (through dblink, so that it is taken within the reservation
		# this session just wrote), keys up to 30 ms before its end come back
		# with lock_timeout = 300ms, and the reservation stays as it was. A
		# machine that stalls this session for 30 ms between two keys would
		# carry it past the reservation (a wait that is meant to be): up to
		# three tries, each of which a waiting renewal fails.
		my $locker = $node->connstr('postgres') =~ s/'/''/gr . ' application_name=a_renewal_locker';
		my ($rc, $out, $err);
		for my $try (1 .. 3)
		{
		($rc, $out, $err) = run_sql($node, 'postgres', qq{
CREATE EXTENSION IF NOT EXISTS dblink;
SELECT dblink_connect('locker', '$locker') = 'OK' AS connected;
SELECT pg_sleep(1.05);
SELECT generate_tsid() IS NOT NULL AS made;
SELECT set_config('regress.mark', last_value::text, false) IS NOT NULL AS read FROM ulid_tsid_mark;
SELECT dblink_exec('locker', 'BEGIN') || ' ' || dblink_exec('locker', 'ALTER SEQUENCE ulid_tsid_mark OWNER TO blocker') AS locked;
SET lock_timeout = '300ms';
DO \$\$
DECLARE m bigint := current_setting('regress.mark')::bigint; v bigint; zone int := 0;
BEGIN
  LOOP
    v := } . ms('tsid_timestamp(generate_tsid())') . qq{;
    IF v > m - 50 THEN zone := zone + 1; END IF;
    EXIT WHEN v >= m - 30;
  END LOOP;
  PERFORM set_config('regress.zone', zone::text, false);
END \$\$;
SELECT current_setting('regress.zone')::int > 0 AS keys_in_the_renewal_zone;
SELECT dblink_exec('locker', 'ROLLBACK') AS unlocked;
SELECT last_value = current_setting('regress.mark')::bigint AS mark_unchanged FROM ulid_tsid_mark;
SELECT dblink_disconnect('locker');
DROP EXTENSION IF EXISTS dblink;});
		last if $rc == 0;
		note "$mode: renewal try $try: " . ($err =~ s/\s+/ /gr);
		run_sql($node, 'postgres', "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'a_renewal_locker'");
		run_sql($node, 'postgres', 'DROP EXTENSION IF EXISTS dblink');
		}
		is($rc == 0 ? join(' ', grep { $_ ne '' } split /\n/, $out) : "error: " . ($err =~ s/\s+/ /gr),
			't t t BEGIN ALTER SEQUENCE t ROLLBACK t OK',
			"$mode: keys in a reservation's last 50 ms, its locks held by another session, come back "
			  . "without waiting (lock_timeout = 300ms) and leave the reservation as it was");
	}

	# --- 8. The server's copy of the mark before a key leaves --------------------
	# Session C holds ShareUpdateExclusiveLock on ulid_tsid_mark_floor (COMMENT
	# ON SEQUENCE in an open transaction), the lock the writers of the server's
	# copy (pg_ulid_tsid/mark.<database oid>) take turns on. Backend W reserves
	# (its first key, 1.05 s after any other) and waits there, its reservation in
	# the WAL, the file not yet written. Backends that then make a key inside
	# that reservation -- a fresh one (it reads the mark) and one that made a key
	# before (it renews) -- must not return it while the file is below it: a
	# crash then would leave the copy below keys already made.
	{
		my $file_ms = q{SELECT coalesce(sum(get_byte(f, 8 + i)::numeric * 256::numeric ^ i), 0)::bigint
FROM pg_read_binary_file('pg_ulid_tsid/mark.' || (SELECT oid FROM pg_database WHERE datname = current_database())) f,
     generate_series(0, 7) i};
		my $wait_for_w = q{DO $$ BEGIN FOR i IN 1 .. 1000 LOOP
  EXIT WHEN EXISTS (SELECT 1 FROM pg_locks WHERE relation = 'ulid_tsid_mark_floor'::regclass
                      AND mode = 'ShareUpdateExclusiveLock' AND NOT granted);
  PERFORM pg_sleep(0.01); END LOOP; END $$};
		my $key_ms = 'SELECT ' . ms('tsid_timestamp(generate_tsid())');
		my $renewing = bg_start($node, 'postgres', 'c_renewing', undef, 'SELECT generate_tsid() IS NOT NULL',
			'SELECT pg_sleep(0.3)', $wait_for_w, $key_ms);
		my $fresh = bg_start($node, 'postgres', 'c_fresh', undef, $wait_for_w, $key_ms);
		my $cancelled = bg_start($node, 'postgres', 'c_cancelled', undef, $wait_for_w, $key_ms);
		wait_for($node, 'postgres', q{SELECT count(*) FROM pg_stat_activity WHERE application_name IN ('c_renewing', 'c_fresh', 'c_cancelled') AND query LIKE 'DO%'}, '3', 10)
		  or diag("the three backends did not reach their wait for W: $renewing->{err} $fresh->{err} $cancelled->{err}");
		my $c = bg_start($node, 'postgres', 'c_commenter', undef,
			'BEGIN', q{COMMENT ON SEQUENCE ulid_tsid_mark_floor IS 'held by case 8'}, 'SELECT pg_sleep(60)');
		my $locked = wait_for($node, 'postgres', q{
SELECT count(*) FROM pg_locks WHERE relation = 'ulid_tsid_mark_floor'::regclass
  AND mode = 'ShareUpdateExclusiveLock' AND granted}, '1', 10);
		ok($locked, "$mode: session C holds ShareUpdateExclusiveLock on ulid_tsid_mark_floor (COMMENT ON SEQUENCE in an open transaction)")
		  or diag($c->{err});
		my $w = bg_start($node, 'postgres', 'c_writer', undef, 'SELECT pg_sleep(1.05)', $key_ms);
		my $w_waits = wait_for($node, 'postgres', q{
SELECT count(*) FROM pg_stat_activity WHERE application_name = 'c_writer' AND wait_event_type = 'Lock'}, '1', 10);
		ok($w_waits, "$mode: backend W, reserving, waits to write the server's copy behind session C") or diag($w->{err});
		my $deadline = time + 3;
		my %ended = (fresh => bg_wait($fresh, $deadline), renewing => bg_wait($renewing, $deadline));
		my $copy = $node->safe_psql('postgres', $file_ms);
		ok(!defined $w->{end} && $w->{h}->pumpable, "$mode: W still waits meanwhile");
		for my $kind ('fresh', 'renewing')
		{
			my $b = $kind eq 'fresh' ? $fresh : $renewing;
			my ($key) = $ended{$kind} && $b->{rc} == 0 ? ($b->{out} =~ /(\d+)\s*$/) : ();
			ok(!$ended{$kind} || (defined $key && $key <= $copy),
				sprintf("%s: a %s backend's key inside W's reservation does not leave before the server's copy covers it (%s)",
					$mode, $kind eq 'fresh' ? 'fresh' : 'renewing',
					!$ended{$kind} ? 'it waits for the copy'
					: defined $key ? "returned key of $key ms, the copy at $copy ms"
					: "ended: exit $b->{rc}: $b->{err}"));
		}
		# A third one, fresh too, waiting there: pg_cancel_backend() ends its wait.
		if (bg_wait($cancelled, time + 0.1))
		{
			ok(0, "$mode: a fresh backend waiting for the server's copy can be cancelled (it did not wait: exit $cancelled->{rc}, $cancelled->{out})");
		}
		else
		{
			my $t0 = time;
			run_sql($node, 'postgres', "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'c_cancelled'");
			my $ended = bg_wait($cancelled, $t0 + 4);
			bg_kill($cancelled) unless $ended;
			ok($ended && $cancelled->{rc} != 0 && $cancelled->{end} - $t0 < 2,
				sprintf("%s: pg_cancel_backend() ends a fresh backend waiting for the server's copy within 2 s (%s)",
					$mode, $ended ? sprintf('%.2f s: %s', $cancelled->{end} - $t0, $cancelled->{err} =~ s/\s+/ /gr) : 'still waiting after 4 s, given up'));
		}
		run_sql($node, 'postgres', "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'c_commenter'");
		bg_wait($c, time + 5) or bg_kill($c);
		my @keys;
		for my $b ($w, $fresh, $renewing)
		{
			my $ended = bg_wait($b, time + 10);
			bg_kill($b) unless $ended;
			push @keys, $ended && $b->{rc} == 0 && $b->{out} =~ /(\d+)\s*$/ ? $1 : undef;
		}
		$copy = $node->safe_psql('postgres', $file_ms);
		ok(!grep({ !defined } @keys) && !grep({ $_ > $copy } @keys),
			sprintf("%s: once C ends, W and both backends return their keys and the server's copy covers all three (keys %s, copy %s ms)",
				$mode, join(', ', map { $_ // 'none' } @keys), $copy))
		  or diag(join("\n", map { $_->{err} } $w, $fresh, $renewing));
		wait_for($node, 'postgres', q{SELECT count(*) FROM pg_stat_activity WHERE application_name ~ '^c_'}, '0', 15)
		  or diag('backends of case 8 are still there');
	}

	# --- 1. Compat alias first --------------------------------------------------
	{
		$node->safe_psql('postgres',
			'CREATE TABLE k1 (round int NOT NULL, t tsid NOT NULL, u ulid NOT NULL, m ulid NOT NULL, v uuid NOT NULL, '
			  . 'at timestamptz NOT NULL DEFAULT clock_timestamp())');
		my %gen = (t => 'generate_tsid()', u => 'generate_ulid()', m => 'compat.gen_monotonic_ulid()', v => 'compat.uuid_generate_v7()');
		# A fresh session: compat.gen_ulid() first, a pause past the one-second
		# reservation, then $rows keys of each generator; prints the largest
		# key's Unix ms (of the TSIDs and of the ULIDs).
		my $alias_session = sub {
			my ($round) = @_;
			return run_sql($node, 'postgres', qq{
SELECT compat.gen_ulid() IS NOT NULL;
SELECT pg_sleep(1.05);
INSERT INTO k1 (round, t, u, m, v) SELECT $round, } . join(', ', map { $gen{$_} } qw(t u m v)) . qq{ FROM generate_series(1, $rows);
SELECT greatest(max(} . ms('tsid_timestamp(t)') . '), max(' . ms('ulid_timestamp(u)') . ")) FROM k1 WHERE round = $round");
		};
		my $mark_sql = 'SELECT last_value FROM ulid_tsid_mark';
		my $before = $node->safe_psql('postgres', $mark_sql);
		my ($rc, $out, $err) = $alias_session->(1);
		is($rc, 0, "$mode: a session beginning with compat.gen_ulid() makes $rows keys of each generator") or diag($err);
		my $last_ms = (split /\n/, $out)[-1] // 0;
		my $after = $node->safe_psql('postgres', $mark_sql);
		ok($after > $before && $after >= $last_ms,
			"$mode: after a session that began with compat.gen_ulid() the mark moved ($before -> $after) and covers its last key ($last_ms)");

		# The clock-back crash.
		my $first_ms = $node->safe_psql('postgres', 'SELECT min(' . ms('ulid_timestamp(u)') . ') FROM k1 WHERE round = 1');
		$node->stop('immediate');
		my $aim = ($first_ms - 1000) / 1000 - time - 0.4;    # a second before the first key, as 012 aims
		start_with_clock($node, $aim < -6 ? $aim : -6);
		($rc, $out, $err) = $alias_session->(2);
		is($rc, 0, "$mode: after pg_ctl -m immediate and a restart with the clock set back, a session beginning with compat.gen_ulid() makes keys")
		  or diag($err);
		for my $c (qw(t u m v))
		{
			is($node->safe_psql('postgres', qq{
SELECT (SELECT count(*) - count(DISTINCT $c) FROM k1 WHERE round = 2) || '|'
    || (SELECT count(*) FROM k1 WHERE round = 2 AND $c <= (SELECT $c FROM k1 WHERE round = 1 ORDER BY $c DESC LIMIT 1))}), '0|0',
				"$mode, alias first, crash, clock set back: $gen{$c}: no duplicate and no new key at or below an earlier one");
		}
		my $behind = $node->safe_psql('postgres', 'SELECT (SELECT max(' . ms('ulid_timestamp(u)')
			  . ') FROM k1 WHERE round = 1) - (SELECT min(' . ms('at') . ') FROM k1 WHERE round = 2)');
		ok($behind > 0, "$mode: the server's clock was behind the earlier keys when the new ones began ($behind ms), so only the mark could keep them above");
	}

	# --- 4. A restore by the database owner ------------------------------------
	{
		$node->safe_psql('postgres', 'CREATE ROLE owner4 LOGIN; CREATE DATABASE src4 OWNER owner4');
		my ($rc, $out, $err) = run_sql($node, 'src4', qq{
CREATE EXTENSION ulid_tsid;
CREATE TABLE keys4 (round int NOT NULL, t tsid NOT NULL DEFAULT generate_tsid(), u ulid NOT NULL DEFAULT generate_ulid(),
    m ulid NOT NULL DEFAULT generate_ulid_monotonic(), v uuid NOT NULL DEFAULT generate_uuidv7());
INSERT INTO keys4 (round) SELECT 1 FROM generate_series(1, $rows);}, '-U', 'owner4');
		is($rc, 0, "$mode: a non-superuser database owner creates the extension and makes keys") or diag($err);
		my $plain = "$tmp/src4_$preload.sql";
		my $custom = "$tmp/src4_$preload.dump";
		for my $dump ([ 'plain', '-f', $plain ], [ 'custom', '-Fc', '-f', $custom ])
		{
			my ($format, @args) = @$dump;
			my ($o, $e) = ('', '');
			my $ok = eval { IPC::Run::run([ 'pg_dump', @args, '-d', $node->connstr('src4') ],
				'<', '/dev/null', '>', \$o, '2>', \$e, IPC::Run::timeout(60)) };
			ok($ok, "$mode: pg_dump in $format format by a superuser") or diag($@ || $e);
		}
		my $restored = PostgreSQL::Test::Cluster->new("restored_$preload");
		$restored->init;
		$restored->append_conf('postgresql.conf', "autovacuum = off\nlog_statement = none");
		$restored->append_conf('postgresql.conf', "shared_preload_libraries = 'ulid_tsid'") if $preload;
		start_with_clock($restored, -3600);
		$restored->safe_psql('postgres',
			'CREATE ROLE owner4 LOGIN; CREATE DATABASE r_plain OWNER owner4; CREATE DATABASE r_custom OWNER owner4');
		my %restore = (
			r_plain  => [ 'psql', '-X', '-q', '-U', 'owner4', '-v', 'ON_ERROR_STOP=1', '--single-transaction', '-f', $plain,
				'-d', $restored->connstr('r_plain') ],
			r_custom => [ 'pg_restore', '-U', 'owner4', '--exit-on-error', '--single-transaction',
				'-d', $restored->connstr('r_custom'), $custom ]);
		for my $db ('r_plain', 'r_custom')
		{
			my ($o, $e) = ('', '');
			my $ok = eval { IPC::Run::run($restore{$db}, '<', '/dev/null', '>', \$o, '2>', \$e, IPC::Run::timeout(60)) };
			$e .= $@ if $@;
			ok($ok, "$mode: the database owner restores the dump with $restore{$db}[0] in one transaction into a new cluster whose clock is an hour behind")
			  or diag($e);
			($rc, $out, $err) = run_sql($restored, $db, q{
INSERT INTO keys4 (round) SELECT 2 FROM generate_series(1, 500);
SELECT count(*) FILTER (WHERE t <= (SELECT t FROM keys4 WHERE round = 1 ORDER BY t DESC LIMIT 1)) || '|'
    || count(*) FILTER (WHERE u <= (SELECT u FROM keys4 WHERE round = 1 ORDER BY u DESC LIMIT 1)) || '|'
    || count(*) FILTER (WHERE m <= (SELECT m FROM keys4 WHERE round = 1 ORDER BY m DESC LIMIT 1)) || '|'
    || count(*) FILTER (WHERE v <= (SELECT v FROM keys4 WHERE round = 1 ORDER BY v DESC LIMIT 1)) || ' of ' || count(*)
FROM keys4 WHERE round = 2}, '-U', 'owner4');
			is($rc == 0 ? $out : "error: $err", '0|0|0|0 of 500',
				"$mode: restored by the owner with $restore{$db}[0], clock an hour behind: no new key of generate_tsid|generate_ulid|generate_ulid_monotonic|generate_uuidv7 at or below a restored one");
		}

		# --- 2, again: the doors the API opens to the database owner ---------
		# The owner may raise the mark of their own database (ulid_tsid_mark_dumped
		# is theirs, ulid_tsid_mark_raise() is allowed to them): it must stay
		# there. Before the fix neither door exists (both statements fail) and
		# a database owner cannot reach other databases' keys. Preloaded, the
		# generators share one sequence for the cluster, so a raise that reached
		# it would date every database's keys. Here, on this cluster, which
		# nothing else has moved (the main one ends up 150 years ahead in case 5).
		$restored->safe_psql('postgres', 'CREATE EXTENSION ulid_tsid; CREATE DATABASE raise_db OWNER owner4');
		($rc, $out, $err) = psql_file($restored, 'raise_db',
			"CREATE EXTENSION ulid_tsid;\nSELECT generate_ulid() IS NOT NULL;\n"
			  . "SELECT setval('ulid_tsid_mark_dumped', 4102444800000);\nSELECT ulid_tsid_mark_raise('2100-01-01 00:00:01+00');",
			'-U', 'owner4');
		note "$mode: the owner of database raise_db raises its mark to 2100: " . ($err eq '' ? "accepted ($out)" : "refused: $err");
		# Someone generates in the owner's database (a new backend reads its mark).
		($rc, $out, $err) = run_sql($restored, 'raise_db', 'SELECT extract(year FROM ulid_timestamp(generate_ulid()))');
		note "$mode: then a key in database raise_db is of the year " . ($rc == 0 ? $out : "? ($err)");
		($rc, $out, $err) = run_sql($restored, 'postgres', $dated_native);
		is($rc == 0 ? $out : "error: $err", $want_native,
			"$mode: after a database owner raised the mark of their database to 2100, a new session in another database: no key is dated 2100, none fails");
		$restored->stop;
	}

	# --- 6. Connection churn while values run ahead (not preloaded) ------------
	unless ($preload)
	{
		my $mark_ms = $node->safe_psql('postgres', 'SELECT last_value FROM ulid_tsid_mark');
		$node->stop('fast');
		start_with_clock($node, ($mark_ms - 5000) / 1000 - time - 0.4);
		my $lead_sql = q{SELECT round(extract(epoch FROM tsid_timestamp(generate_tsid()) - clock_timestamp())::numeric, 3)};
		my $lead_start = $node->safe_psql('postgres', $lead_sql);
		ok($lead_start > 2, "$mode: restarted with the clock behind the mark, a new session's TSID runs ${lead_start} s ahead of the clock");
		my $script = "$tmp/churn.sql";
		open my $fh, '>', $script or die "$script: $!";
		print $fh "SELECT generate_tsid();\n";
		close $fh;
		my ($o, $e) = ('', '');
		my $ok = eval { IPC::Run::run(
			[ 'pgbench', '-n', '-C', '-c', '4', '-j', '2', '-T', '10', '-f', $script,
			  '-h', $node->host, '-p', $node->port, 'postgres' ],
			'<', '/dev/null', '>', \$o, '2>', \$e, IPC::Run::timeout(60)) };
		$e .= $@ if $@;
		my ($sessions) = $o =~ /number of transactions actually processed: (\d+)/;
		$sessions //= 0;
		ok($ok && $sessions > 0, "$mode: pgbench -C: $sessions new connections in 10 s, each making a TSID") or diag("$o\n$e");
		my $lead_end = $node->safe_psql('postgres', $lead_sql);
		ok($lead_end - $lead_start <= 0.3,
			sprintf("%s: after %d new connections (%.0f a second) the lead grew by at most 0.3 s (%.3f s -> %.3f s)",
				$mode, $sessions, $sessions / 10, $lead_start, $lead_end));
	}

	# --- 2. Owner swap: the mark's names planted in the compat schema ---------
	{
		$node->safe_psql('postgres', 'CREATE ROLE swapper LOGIN; CREATE ROLE writer LOGIN; CREATE DATABASE swap OWNER swapper');
		my ($rc, $out, $err) = run_sql($node, 'swap', q{
CREATE EXTENSION ulid_tsid;
CREATE SCHEMA compat;
CREATE EXTENSION ulid_tsid_compat SCHEMA compat;
GRANT USAGE ON SCHEMA compat TO writer;
CREATE SEQUENCE compat.ulid_tsid_mark AS bigint MINVALUE 0;
CREATE SEQUENCE compat.ulid_tsid_mark_floor AS bigint MINVALUE 0;}, '-U', 'swapper');
		is($rc, 0, "$mode: a non-superuser database owner creates both extensions and two sequences of the mark's names in the compat schema")
		  or diag($err);
		# The owner of the extension may add objects of theirs to it: whether it
		# is refused or not, the planted sequences must not be used.
		my ($add_rc, undef, $add_err) = psql_file($node, 'swap', q{
ALTER EXTENSION ulid_tsid ADD SEQUENCE compat.ulid_tsid_mark;
ALTER EXTENSION ulid_tsid ADD SEQUENCE compat.ulid_tsid_mark_floor;}, '-U', 'swapper');
		note "$mode: ALTER EXTENSION ulid_tsid ADD SEQUENCE by the owner: "
		  . ($add_err eq '' ? 'accepted' : "refused: $add_err")
		  . '; members now: ' . $node->safe_psql('swap', q{
SELECT string_agg(objid::regclass::text, ', ' ORDER BY objid::regclass::text) FROM pg_depend
WHERE classid = 'pg_class'::regclass AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid_tsid')
  AND deptype = 'e' AND objid::regclass::text LIKE '%ulid_tsid_mark%'});
		my $y2100 = 4102444800000;    # 2100-01-01 in Unix ms
		($rc, $out, $err) = run_sql($node, 'swap',
			"SELECT setval('compat.ulid_tsid_mark', $y2100), setval('compat.ulid_tsid_mark_floor', $y2100)",
			'-U', 'swapper');
		is("$rc|$out", "0|$y2100|$y2100", "$mode: the owner sets the planted sequences to the year 2100") or diag($err);

		for my $first ('compat.gen_ulid()', 'generate_tsid()')
		{
			($rc, $out, $err) = run_sql($node, 'swap', "SELECT $first IS NOT NULL;\n$dated", '-U', 'writer');
			is($rc == 0 ? (split /\n/, $out)[1] : "error: $err", $want,
				"$mode: another role's session beginning with $first: no key of an alias or a native generator is dated 2100, none fails");
		}
		# Nor in another database of the cluster (preloaded, the generators share one sequence).
		($rc, $out, $err) = run_sql($node, 'postgres', "SELECT generate_tsid() IS NOT NULL;\n$dated");
		is($rc == 0 ? (split /\n/, $out)[1] : "error: $err", $want,
			"$mode: after that, a superuser's session in another database: no key is dated 2100, none fails");
	}

	# --- 5. The clock thrown far ahead, then back -------------------------------
	{
		my $have_reset = have_function($node, 'postgres', 'ulid_tsid_mark_reset');
		# A year ahead and back: a WARNING about the lead.
		$node->stop('fast');
		start_with_clock($node, $year_s);
		$node->safe_psql('postgres', 'SELECT count(generate_ulid()) + count(generate_tsid()) FROM generate_series(1, 100)');
		$node->stop('fast');
		start_with_clock($node, 0);
		my ($rc, $out, $err) = run_sql($node, 'postgres',
			'SELECT round(extract(epoch FROM ulid_timestamp(generate_ulid()) - clock_timestamp()) / 86400), generate_tsid() IS NOT NULL');
		note "$mode: a year ahead and back, a new session's ULID runs " . ($rc == 0 ? (split /\|/, $out)[0] : '?') . ' days ahead of the clock';
		like($err, qr/WARNING:  ulid_tsid: keys run \d+ ms ahead of the clock/,
			"$mode: a year ahead and back: a session making keys gets a WARNING that they run ahead of the clock (more than ulid_tsid.max_lead)");
		like($err, qr/HINT:  .*ulid_tsid_mark_reset\(\)/, "$mode: ... with a hint naming ulid_tsid_mark_reset()");
		note "$mode: stderr of that session: $err";

		# 150 years ahead (past the TSID range's end in 2159) and back.
		$node->stop('fast');
		start_with_clock($node, 150 * $year_s);
		($rc, $out, $err) = run_sql($node, 'postgres',
			'SELECT extract(year FROM ulid_timestamp(max(u))) FROM (SELECT generate_ulid() u, generate_uuidv7() v FROM generate_series(1, 100)) s');
		note "$mode: 150 years ahead the ULIDs are of the year $out $err";
		$node->stop('fast');
		start_with_clock($node, 0);
		($rc, $out, $err) = run_sql($node, 'postgres', 'SELECT generate_tsid()');
		note "$mode: back at the real clock, before any reset, generate_tsid(): " . ($rc == 0 ? $out : $err);
		my $missing = $have_reset ? '' : 'ulid_tsid_mark_reset() does not exist; ';
		($rc, $out, $err) = psql_file($node, 'postgres', "\\set VERBOSITY verbose\nSELECT ulid_tsid_mark_reset()", '-U', 'plain_role');
		like($err, qr/ERROR:  42501/, "$mode: ulid_tsid_mark_reset() by a plain role: ERROR 42501")
		  or diag("$missing$err");
		($rc, $out, $err) = run_sql($node, 'postgres', 'SELECT ulid_tsid_mark_reset() IS NOT NULL');
		is($rc == 0 ? $out : "error: $missing$err", 't', "$mode: a superuser calls ulid_tsid_mark_reset()");
		($rc, $out, $err) = run_sql($node, 'postgres', q{
SELECT abs(extract(epoch FROM tsid_timestamp(generate_tsid()) - clock_timestamp())) < 60,
       abs(extract(epoch FROM ulid_timestamp(generate_ulid()) - clock_timestamp())) < 60,
       abs(extract(epoch FROM uuidv7_timestamp(generate_uuidv7()) - clock_timestamp())) < 60});
		is($rc == 0 ? $out : "error: $err", 't|t|t',
			"$mode: after the reset a new session's generate_tsid() works and its TSID, ULID and UUIDv7 carry today's time");
	}

	$node->stop;
}

done_testing();
