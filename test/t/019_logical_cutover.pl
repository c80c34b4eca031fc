# A logical-replication cut-over, as managed services move a database to a new
# major: a publisher whose table has ulid, tsid-as-bigint and uuid keys made by
# the generators (node_bits = 1, node_id = 0), a subscriber cluster whose clock
# is 3 s behind with its own node id (1), and a subscription. Writes on the
# publisher, then the recipe of docs/replication.md, run from that page's SQL
# blocks as written (placeholders filled in): stop writes, wait until the
# subscriber has caught up, read the publisher's mark, raise the subscriber's
# mark to it, drop the subscription; then writes on the subscriber by a session
# opened (and generating) before the cut-over, a crash of the subscriber
# (pg_ctl -m immediate), and writes by new sessions. For each
# generator: no duplicate among all the keys, and no new key at or below the
# publisher's largest. Without the raise the subscriber's clock puts its first
# keys below the replicated ones. Once without and once with
# shared_preload_libraries = 'ulid_tsid'.
#
# On PostgreSQL 19+ (which replicates sequences: FOR ALL SEQUENCES, REFRESH
# SEQUENCES): which of the extension's mark sequences a subscription copies,
# what it writes into them (last_value, log_cnt, is_called), and that a
# subscriber whose mark is ahead of the publisher's never moves it backwards
# (with no step by hand: the server keeps its own copy, which no sync reaches)
# and keeps its new keys above its earlier ones after a crash restart with its
# clock behind.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Basename ();
use IPC::Run;
use UlidTsid;

my $libfaketime = libfaketime();
plan skip_all => 'libfaketime not installed (Debian package faketime; scripts/install-deps.sh installs it)'
  unless $libfaketime;

my $behind = 3;    # s the subscriber's clock runs behind

my %gens = (
	u  => 'generate_ulid()',
	m  => 'generate_ulid_monotonic()',
	ts => 'generate_tsid()',
	v  => 'generate_uuidv7()');
my @cols = sort keys %gens;
my $table = q{
CREATE TABLE keys (
    u ulid PRIMARY KEY DEFAULT generate_ulid(),
    m ulid NOT NULL UNIQUE DEFAULT generate_ulid_monotonic(),
    ts bigint NOT NULL UNIQUE DEFAULT generate_tsid(),
    v uuid NOT NULL UNIQUE DEFAULT generate_uuidv7(),
    origin text NOT NULL,
    sess int NOT NULL);
};

# The recipe: docs/replication.md's SQL blocks marked "<!-- cutover: STEP -->",
# in order, each saying on which side it runs in its first line ("-- on the
# publisher", "-- on the subscriber").
my $doc_path = File::Basename::dirname(__FILE__) . '/../../docs/replication.md';
my $doc = slurp_file($doc_path);
my @recipe;
while ($doc =~ /<!-- cutover: \S+ -->\n[ \t]*```sql\n(.*?)```/sg)
{
	my $block = $1;
	$block =~ s/^[ \t]+//mg;
	my ($side) = $block =~ /^-- on the (publisher|subscriber)/ or die "a recipe block names no side:\n$block";
	push @recipe, { side => $side, sql => $block, poll => scalar($block =~ /until it returns t/) };
}
is(scalar(@recipe), 5, 'docs/replication.md: five SQL blocks (position, wait, mark, raise, drop)');


# $sessions sessions in turn, each its own backend, each $rows rows of $origin
# keys and a pause (so the rows span time and the mark is renewed).
sub write_rows
{
	my ($node, $origin, $sessions, $rows, $pause) = @_;
	for my $s (1 .. $sessions)
	{
		$node->safe_psql('postgres',
			"INSERT INTO keys (origin, sess) SELECT '$origin', $s FROM generate_series(1, $rows); SELECT pg_sleep($pause)");
	}
}

# For each generator: (duplicates among all rows, new rows' keys at or below
# the largest of the publisher's rows, new rows).
sub key_checks
{
	my ($node, $what) = @_;
	for my $c (@cols)
	{
		my ($dups, $below, $early, $n) = split /\|/, $node->safe_psql('postgres', qq{
WITH top AS (SELECT $c AS k FROM keys WHERE origin = 'pub' ORDER BY $c DESC LIMIT 1)
SELECT (SELECT count(*) - count(DISTINCT $c) FROM keys),
       (SELECT count(*) FROM keys WHERE origin = 'sub' AND $c <= (SELECT k FROM top)),
       (SELECT count(*) FROM keys WHERE origin = 'sub' AND sess = 0 AND $c <= (SELECT k FROM top)),
       (SELECT count(*) FROM keys WHERE origin = 'sub')});
		is($dups, 0, "$what: $gens{$c}: no duplicate among the publisher's and the subscriber's keys");
		is($below, 0, "$what: $gens{$c}: none of the subscriber's $n new keys at or below the publisher's largest"
			  . sprintf(' (%d, %.0f%%; %d of the session opened before the cut-over)', $below, $n ? 100 * $below / $n : 0, $early));
	}
}

# The extension's mark sequences of $node's database: "name=last_value/log_cnt/is_called ...".
sub seq_state
{
	my ($node) = @_;
	my @names = split /\n/, $node->safe_psql('postgres',
		"SELECT relname FROM pg_class WHERE relkind = 'S' AND relname LIKE 'ulid\\_tsid\\_mark%' ORDER BY relname");
	return join ' ', map {
		"$_=" . $node->safe_psql('postgres', "SELECT last_value || '/' || log_cnt || '/' || is_called FROM $_")
	} @names;
}

my $node_conf = "autovacuum = off\nlog_statement = none\nmax_connections = 20\n"
  . "max_logical_replication_workers = 4\nmax_worker_processes = 12\nulid_tsid.node_bits = 1";

for my $preload (0, 1)
{
	my $mode = $preload ? 'preloaded' : 'not preloaded';
	my $pub = new_node("pub_$preload",
		init    => { allows_streaming => 'logical' },
		preload => $preload,
		conf    => "$node_conf\nulid_tsid.node_id = 0");
	my $sub = PostgreSQL::Test::Cluster->new("sub_$preload");
	$sub->init;
	$sub->append_conf('postgresql.conf', "$node_conf\nulid_tsid.node_id = 1");
	$sub->append_conf('postgresql.conf', "shared_preload_libraries = 'ulid_tsid'") if $preload;
	start_with_clock($sub, -$behind);

	$pub->safe_psql('postgres', $table . 'CREATE PUBLICATION p FOR TABLE keys');
	$sub->safe_psql('postgres', 'CREATE EXTENSION ulid_tsid;' . $table);
	$sub->safe_psql('postgres',
		"CREATE SUBSCRIPTION s CONNECTION '" . $pub->connstr . ' dbname=postgres' . "' PUBLICATION p");
	poll_until($sub, 'postgres', "SELECT count(*) = 0 FROM pg_subscription_rel WHERE srsubstate NOT IN ('r', 's')")
	  or die 's did not finish its initial sync';

	# Writes on the publisher: 5 sessions of 1,000 rows over about 1.5 s.
	write_rows($pub, 'pub', 5, 1000, 0.3);

	# A session on the subscriber opened before the cut-over that has already
	# generated (a pool's connection, say): it waits for a row in go, then
	# writes 500 rows; its keys must be above the publisher's as well.
	$sub->safe_psql('postgres', 'CREATE TABLE go (n int)');
	my $tmp = PostgreSQL::Test::Utils::tempdir;
	# (psql -f: each statement its own transaction, as psql -c would not do)
	open my $fh, '>', "$tmp/early.sql" or die "$tmp/early.sql: $!";
	print $fh q{
INSERT INTO keys (origin, sess) VALUES ('early', 0);
DO $$
BEGIN
  FOR i IN 1 .. 1200 LOOP
    EXIT WHEN EXISTS (SELECT 1 FROM go);
    PERFORM pg_sleep(0.05);
  END LOOP;
END $$;
INSERT INTO keys (origin, sess) SELECT 'sub', 0 FROM generate_series(1, 500);
};
	close $fh;
	my $early = IPC::Run::start(
		[ 'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $sub->connstr('postgres'), '-f', "$tmp/early.sql" ],
		'<', '/dev/null', '>', "$tmp/early.out", '2>', "$tmp/early.err");
	poll_until($sub, 'postgres', "SELECT count(*) = 1 FROM keys WHERE origin = 'early'")
	  or die 'the early session did not generate';

	# The recipe, as the page says (the application's writes have stopped).
	my $have = $pub->safe_psql('postgres',
		"SELECT to_regproc('ulid_tsid_status') IS NOT NULL AND to_regproc('ulid_tsid_mark_raise') IS NOT NULL");
	$have .= $sub->safe_psql('postgres',
		"SELECT to_regproc('ulid_tsid_status') IS NOT NULL AND to_regproc('ulid_tsid_mark_raise') IS NOT NULL");
	ok($have eq 'tt', "$mode: ulid_tsid_status() and ulid_tsid_mark_raise() exist on both clusters (the recipe can run)");
	my %fill = ('<subscription>' => 's');
	my ($raised, $mark) = (0, '');
	for my $step (@recipe)
	{
		my $sql = $step->{sql};
		if ($sql =~ /ulid_tsid_status|ulid_tsid_mark_raise/ && $have ne 'tt')
		{
			note "$mode: recipe step skipped, its functions are missing:\n$sql";
			next;
		}
		$sql =~ s/\Q$_\E/$fill{$_}/g for keys %fill;
		die "a placeholder is left in a recipe block:\n$sql" if $sql =~ /<[a-z][^>]*>/;
		my $node = $step->{side} eq 'publisher' ? $pub : $sub;
		if ($step->{poll})
		{
			ok(poll_until($node, 'postgres', $sql), "$mode: recipe: $step->{side} caught up");
			next;
		}
		my ($rc, $out, $err) = psql_file($node, 'postgres', $sql, '-v', 'ON_ERROR_STOP=1');
		ok($rc == 0 && $err !~ /ERROR|FATAL/, "$mode: recipe block on the $step->{side} runs: " . (split /\n/, $sql)[-1])
		  or diag($err);
		$fill{'<position from step 2>'} = $out if $sql =~ /pg_current_wal_lsn/;
		if ($sql =~ /ulid_tsid_status/)
		{
			$mark = $out;
			$fill{'<mark from step 3>'} = $out;
		}
		$raised = 1 if $sql =~ /ulid_tsid_mark_raise/ && $rc == 0;
	}
	is($sub->safe_psql('postgres', 'SELECT count(*) FROM pg_subscription'), '0', "$mode: the subscription is gone");
	is( $sub->safe_psql('postgres', "SELECT count(*) FROM keys WHERE origin = 'pub'"), '5000',
		"$mode: the subscriber has all 5,000 of the publisher's rows");
	if ($raised)
	{
		is( $pub->safe_psql('postgres', qq{
SELECT count(*) FROM keys WHERE ulid_timestamp(u) > '$mark' OR ulid_timestamp(m) > '$mark'
    OR tsid_timestamp(ts::tsid) > '$mark' OR uuidv7_timestamp(v) > '$mark'}),
			'0', "$mode: the publisher's mark ($mark) is at or above every key it made");
	}
	ok($raised, "$mode: the subscriber's mark was raised to the publisher's");
	$sub->safe_psql('postgres', 'INSERT INTO go VALUES (1)');
	is(finish_all($early), 0, "$mode: the session opened before the cut-over wrote its rows after it")
	  or diag(slurp_file("$tmp/early.err"));

	# The raise outlives a crash of the subscriber (the page says it is kept
	# like the rest of the mark): pg_ctl -m immediate, started again 3 s behind.
	$sub->stop('immediate');
	start_with_clock($sub, -$behind);

	# Writes on the subscriber (besides the early session's 500): 6 sessions of 500 rows over about 6 s, past the
	# time its clock needs to reach the publisher's last keys.
	write_rows($sub, 'sub', 6, 500, 1);
	key_checks($sub, "$mode, cut-over to a subscriber $behind s behind" . ($raised ? '' : ' WITHOUT the raise'));
	is( $sub->safe_psql('postgres', "SELECT count(DISTINCT tsid_node(ts::tsid, 1)) || '|' || min(tsid_node(ts::tsid, 1)) FROM keys WHERE origin = 'sub'"),
		'1|1', "$mode: the subscriber's TSIDs carry its node id 1");

	# --- PostgreSQL 19+: sequences replicated ------------------------------------
	if ($pub->safe_psql('postgres', 'SHOW server_version_num') >= 190000)
	{
		# The subscriber's mark is ahead of the publisher's: it has written
		# since the cut-over (its keys above the publisher's), and now runs a
		# further 30 s ahead (a clock that ran ahead for a while).
		$sub->stop('fast');
		start_with_clock($sub, 30);
		write_rows($sub, 'sub2', 3, 500, 0.3);
		$sub->stop('fast');
		start_with_clock($sub, -$behind);
		my $sub_before = seq_state($sub);
		my $pub_seqs = seq_state($pub);
		my $mark_before = $sub->safe_psql('postgres', 'SELECT last_value FROM ulid_tsid_mark');
		# docs/replication.md: before a sequence synchronization, read the subscriber's own mark.
		my $status_before = $sub->safe_psql('postgres', 'SELECT mark FROM ulid_tsid_status()');
		note "$mode, 19: the publisher's mark sequences: $pub_seqs";
		note "$mode, 19: the subscriber's before the sequence sync: $sub_before";

		$pub->safe_psql('postgres', 'CREATE PUBLICATION pseq FOR ALL SEQUENCES');
		my (undef, $pubseqs, $pubseqs_err) = psql_file($pub, 'postgres',
			"SELECT string_agg(schemaname || '.' || sequencename, ' ' ORDER BY sequencename) FROM pg_publication_sequences WHERE pubname = 'pseq'");
		note "$mode, 19: the publication's sequences (pg_publication_sequences): $pubseqs$pubseqs_err";
		$sub->safe_psql('postgres',
			"CREATE SUBSCRIPTION s19 CONNECTION '" . $pub->connstr . ' dbname=postgres' . "' PUBLICATION pseq");
		my $synced = "SELECT count(*) > 0 AND bool_and(srsubstate = 'r') FROM pg_subscription_rel r JOIN pg_subscription s ON s.oid = r.srsubid WHERE s.subname = 's19'";
		ok(poll_until($sub, 'postgres', $synced), "$mode, 19: the subscription's sequences are synchronized");
		my $copied = $sub->safe_psql('postgres', "SELECT string_agg(srrelid::regclass::text, ' ' ORDER BY srrelid::regclass::text) FROM pg_subscription_rel r JOIN pg_subscription s ON s.oid = r.srsubid WHERE s.subname = 's19'");
		note "$mode, 19: the subscription synchronizes: $copied";
		my $after_create = seq_state($sub);
		note "$mode, 19: the subscriber's after CREATE SUBSCRIPTION: $after_create";

		$sub->safe_psql('postgres', 'ALTER SUBSCRIPTION s19 REFRESH SEQUENCES');
		ok(poll_until($sub, 'postgres', $synced), "$mode, 19: REFRESH SEQUENCES done");
		my $after_refresh = seq_state($sub);
		note "$mode, 19: the subscriber's after REFRESH SEQUENCES: $after_refresh";
		my $mark_after = $sub->safe_psql('postgres', 'SELECT last_value FROM ulid_tsid_mark');
		# What docs/replication.md says 19 does: the sync copies the publisher's
		# sequence over the subscriber's (when this fails, 19 stopped doing it,
		# and the page must say so).
		cmp_ok($mark_after, '<', $mark_before,
			"$mode, 19: the sequence sync copies the publisher's ulid_tsid_mark sequence over the subscriber's higher one ($mark_before -> $mark_after), as docs/replication.md says");
		# No step by hand: the server's own copy of its mark (a file the sync
		# cannot reach) keeps the mark where it was.
		my $ok_after = $sub->safe_psql('postgres', "SELECT mark >= '$status_before' FROM ulid_tsid_status()");
		is($ok_after, 't', "$mode, 19: after the sequence sync the subscriber's mark is still at least where it was before ($status_before)");

		# A crash restart of the subscriber, its clock behind: new keys stay above
		# every key it made before.
		$sub->stop('immediate');
		start_with_clock($sub, -$behind);
		write_rows($sub, 'sub3', 3, 500, 0.1);
		for my $c (@cols)
		{
			my ($dups, $below, $n) = split /\|/, $sub->safe_psql('postgres', qq{
SELECT (SELECT count(*) - count(DISTINCT $c) FROM keys),
       (SELECT count(*) FROM keys WHERE origin = 'sub3'
          AND $c <= (SELECT $c FROM keys WHERE origin <> 'sub3' ORDER BY $c DESC LIMIT 1)),
       (SELECT count(*) FROM keys WHERE origin = 'sub3')});
			is("$dups|$below", '0|0',
				"$mode, 19: after the sequence sync and a crash restart $behind s behind: $gens{$c}: no duplicate, none of $n new keys at or below an earlier one ($below)");
		}
		$sub->safe_psql('postgres', 'DROP SUBSCRIPTION s19');
	}
	$sub->stop;
	$pub->stop;
}

done_testing();
