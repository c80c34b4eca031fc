# SQL written for PostgreSQL 18 on this major: 18's own regression test of the
# uuid type (src/test/regress/sql/uuid.sql, from Debian's postgresql-18 source
# package, fetched by scripts/pg-regress-files.sh and cached; it is
# PostgreSQL's file and never committed here) runs against the extension, and
# every statement's output must equal 18's expected output, except statements
# that need a core feature this major lacks (each named below with the major
# that added it). uuidv7(), uuidv7(interval), uuidv4() and uuid_extract_*()
# resolve to the extension's before 18 (and to core's on 18+).
use strict;
use warnings;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Basename qw(dirname);
use Cwd qw(realpath);

my $root = realpath(dirname(__FILE__) . '/../..');
# scripts/suites/tap.sh fetches the files as root where apt is (the host) and
# names their directory here; run by hand, the script fetches them itself.
my ($dir, $why) = ($ENV{PG18_UUID_REGRESS_DIR} // '', '');
$dir = '' unless $dir ne '' && -f "$dir/sql/uuid.sql" && -f "$dir/expected/uuid.out";
if ($dir eq '')
{
	my ($out, $err) = ('', '');
	if (IPC::Run::run([ 'bash', "$root/scripts/pg-regress-files.sh", '18', 'uuid' ], '>', \$out, '2>', \$err))
	{
		chomp($dir = $out);
	}
	($why) = (split(/\n/, $err), 'scripts/pg-regress-files.sh said nothing');
}
plan skip_all => "PostgreSQL 18's src/test/regress/sql/uuid.sql cannot be had: $why" if $dir eq '';

my $node = PostgreSQL::Test::Cluster->new('pg18_uuid');
$node->init;
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE regression; ');
$node->safe_psql('regression', 'CREATE EXTENSION ulid_tsid');
my $major = $node->safe_psql('regression', q{SELECT current_setting('server_version_num')::int / 10000});

sub slurp { my ($f) = @_; open my $fh, '<', $f or die "$f: $!"; local $/; return scalar <$fh> }
my $sql = slurp("$dir/sql/uuid.sql");
my $expected = slurp("$dir/expected/uuid.out");

# What this major lacks, as [the core feature and the major that added it,
# a pattern for the statements that need it]. Where a statement can be written
# without the feature, it is rewritten instead (in the file and in the expected
# echo alike) and must then give 18's output.
my @lacks;
my @rewrites;
if ($major < 16)
{
	push @lacks, [ 'pg_input_is_valid() and pg_input_error_info() (16)', qr/pg_input_(is_valid|error_info)\(/ ];
	# 16 lets a subquery in FROM go without an alias: give it one.
	push @rewrites, [ qr/(FROM generate_series\(1970 - extract\(year from now\(\)\)::int, 10888 - extract\(year from now\(\)\)::int\) y\))\n/, ' s' ];
}
push @lacks, [ 'infinite intervals (17)', qr/'-?infinity'::interval/ ] if $major < 17;
# 17's own uuid_extract_timestamp() in pg_catalog, found first, reads version 1 only.
push @lacks, [ "17's uuid_extract_timestamp() in pg_catalog (NULL for version 7; 18 reads 7)",
	qr/uuid_extract_timestamp\((uuidv7|'017F22E2)/ ] if $major == 17;
for my $r (@rewrites)
{
	my ($from, $add) = @$r;
	ok($sql =~ s/$from/$1$add\n/ && $expected =~ s/$from/$1$add\n/, "rewritten for $major: $from");
}

my $out = '';
IPC::Run::run([ 'psql', '-X', '-a', '-q', '-d', $node->connstr('regression') ], '<', \$sql, '>&', \$out,
	init => sub { $ENV{PGTZ} = 'America/Los_Angeles'; $ENV{PGDATESTYLE} = 'Postgres, MDY' });

# The file's statements, each with the comment lines before it (psql -a echoes
# every line but the blank ones).
my @statements;
my @current;
for my $line (split /\n/, $sql)
{
	next if $line =~ /^\s*$/;
	push @current, $line;
	(my $code = $line) =~ s/--.*$//;
	if ($code =~ /;\s*$/)
	{
		push @statements, [@current];
		@current = ();
	}
}
push @statements, [@current] if @current;

# An output cut into the part of each statement: its echo and what it printed.
sub segments
{
	my ($text) = @_;
	my @lines = split /\n/, $text, -1;
	my @starts;
	my $p = 0;
	for my $st (@statements)
	{
		my $found;
		for (my $i = $p; $i + @$st <= @lines; $i++)
		{
			my $all = 1;
			for my $k (0 .. $#$st) { if ($lines[ $i + $k ] ne $st->[$k]) { $all = 0; last } }
			if ($all) { $found = $i; last }
		}
		return () unless defined $found;
		push @starts, $found;
		$p = $found + @$st;
	}
	push @starts, scalar @lines;
	return map { join "\n", @lines[ $starts[$_] .. $starts[ $_ + 1 ] - 1 ] } 0 .. $#statements;
}

my @want = segments($expected);
my @got = segments($out);
ok(@want == @statements && @got == @statements, scalar(@statements) . ' statements found in both outputs')
  or diag $out;
my ($same, %excused) = (0);
for my $i (0 .. $#statements)
{
	my $text = join "\n", @{ $statements[$i] };
	my ($first) = grep { !/^\s*(--.*)?$/ } @{ $statements[$i] };
	next unless defined $got[$i] && defined $want[$i];
	if ($got[$i] eq $want[$i]) { $same++; next }
	my ($lack) = grep { $text =~ $_->[1] } @lacks;
	if ($lack)
	{
		$excused{ $lack->[0] }++;
		note "differs, as PostgreSQL $major lacks $lack->[0]: $first";
		next;
	}
	fail("as on PostgreSQL 18: $first");
	diag "18:\n$want[$i]\n$major with ulid_tsid:\n$got[$i]";
}
my @names = qw(uuidv4 uuidv7 uuid_extract_version uuid_extract_timestamp);
my %covered = map { my $n = $_; ($n => scalar(grep { join("\n", @$_) =~ /\b\Q$n\E\(/ } @statements)) } @names;
ok(!grep({ !$covered{$_} } @names), 'the file calls ' . join(', ', map { "$_() in $covered{$_}" } @names) . ' statements');
pass("PostgreSQL $major with ulid_tsid: $same of " . scalar(@statements) . " statements print what 18 prints"
	  . (%excused ? '; the others need ' . join(', ', map { "$_ ($excused{$_})" } sort keys %excused) : ''));

$node->stop;
done_testing();
