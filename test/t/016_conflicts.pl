# CREATE EXTENSION ulid_tsid where an object of the same name is already in the
# schema (the TSID article's PL/pgSQL generate_tsid(), another extension's ulid
# type, a uuidv7() or uuidv4() polyfill): one ERROR with the SQLSTATE of a
# duplicate (42723 for a function, 42710 for a type) that names the object with
# its schema and signature and says what it is, a HINT that points to
# docs/migrating.md, and nothing created. Every function of ours whose
# argument types are all core types (and every type of ours) is planted in turn,
# so the check at the top of the script (src/sql/05_conflicts.sql) cannot miss
# one that a later change adds. The same for ALTER EXTENSION UPDATE from 0.3.0
# and the function 0.4.0 adds (uuidv4()).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('conflicts');
$node->init;
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE probe; CREATE DATABASE conflicts; CREATE DATABASE updates');
$node->safe_psql('probe', 'CREATE EXTENSION ulid_tsid');

# Our functions with only core argument types, as name|identity arguments.
my @functions = split /\n/, $node->safe_psql('probe', q{
SELECT p.proname || '|' || pg_catalog.pg_get_function_identity_arguments(p.oid)
FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
WHERE d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid_tsid')
  AND NOT EXISTS (SELECT 1 FROM unnest(p.proargtypes::oid[]) a(t)
                  JOIN pg_depend td ON td.classid = 'pg_type'::regclass AND td.objid = a.t AND td.deptype = 'e'
                  WHERE td.refobjid = d.refobjid)
ORDER BY 1});
my @types = split /\n/, $node->safe_psql('probe', q{
SELECT t.typname FROM pg_depend d JOIN pg_type t ON t.oid = d.objid
WHERE d.classid = 'pg_type'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid_tsid')
  -- 17 on records the array types as members too; they take another name
  -- when theirs is taken, so they never conflict
  AND t.typcategory <> 'A' ORDER BY 1});
ok(@functions >= 40 && grep({ $_ eq 'generate_tsid|' } @functions) && grep({ $_ eq 'uuidv4|' } @functions),
	scalar(@functions) . ' functions of ours take only core types, generate_tsid() and uuidv4() among them');
is(join(' ', @types), 'tsid ulid', 'the types of ours');

my $public_objects = q{
SELECT (SELECT count(*) FROM pg_proc WHERE pronamespace = 'public'::regnamespace) || ' functions, '
    || (SELECT count(*) FROM pg_type WHERE typnamespace = 'public'::regnamespace) || ' types, '
    || (SELECT count(*) FROM pg_extension WHERE extname = 'ulid_tsid') || ' extension'};

# Runs $sql then $statement in db; returns psql's stderr (verbose: with the SQLSTATE).
sub attempt
{
	my ($db, $sql, $statement) = @_;
	my ($out, $err) = ('', '');
	$node->psql($db, "$sql\n\\set VERBOSITY verbose\n$statement", stdout => \$out, stderr => \$err);
	return $err;
}

# One planted object: the error names it (schema, name, argument types) with
# the SQLSTATE, says what it is, points to docs/migrating.md, and nothing is left.
sub check_refusal
{
	my ($label, $err, $state, $object, $what) = @_;
	like($err, qr/ERROR:  $state: ulid_tsid cannot be created in schema public: \Q$object\E already exists\n/,
		"$label: $state names $object");
	like($err, qr/DETAIL:  It is \Q$what\E/, "$label: the detail says what it is");
	like($err, qr/HINT:  .*ulid_tsid's docs\/migrating\.md shows how/, "$label: the hint points to docs/migrating.md");
}

for my $f (@functions)
{
	my ($name, $args) = split /\|/, $f, 2;
	$args //= '';
	# LANGUAGE internal takes any argument types (cstring, internal); it is never called.
	# OUT parameters (ulid_tsid_status()) are not part of the signature that clashes.
	$args = join(', ', grep { !/^OUT / } split /, /, $args);
	my $plant = "CREATE FUNCTION public.$name($args) RETURNS void LANGUAGE internal AS 'int8in';";
	my $before = $node->safe_psql('conflicts', "$plant\n$public_objects");
	my $err = attempt('conflicts', '', 'CREATE EXTENSION ulid_tsid');
	check_refusal("$name($args)", $err, '42723', "function public.$name($args)",
		'a function in language internal that belongs to no extension');
	is($node->safe_psql('conflicts', $public_objects), $before, "$name($args): nothing created");
	$node->safe_psql('conflicts', "DROP FUNCTION public.$name($args)");
}

# The article's own function and sequence, as its readers have them.
my $article = q{
CREATE SEQUENCE generate_tsid_seq AS int MINVALUE 0 MAXVALUE 1023 CYCLE;
CREATE FUNCTION generate_tsid() RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RETURN ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000) << 22)
       | (floor(random() * 4096)::bigint << 10) | (nextval('generate_tsid_seq') % 1024);
END $$;};
my $err = attempt('conflicts', $article, 'CREATE EXTENSION ulid_tsid');
check_refusal('the article\'s generate_tsid()', $err, '42723', 'function public.generate_tsid()',
	'a function in language plpgsql that belongs to no extension');
like($err, qr/HINT:  If it is the TSID article's PL\/pgSQL generator: in one transaction rename it \(ALTER FUNCTION public.generate_tsid\(\) RENAME TO/,
	'the article\'s generate_tsid(): the hint says how to move it aside');
$node->safe_psql('conflicts', 'DROP FUNCTION generate_tsid(); DROP SEQUENCE generate_tsid_seq');

# Types of ours under another owner: a table's row type, a domain, another
# extension's type (a stand-in for pgx_ulid's and pg-ulid's, which are named ulid).
for my $t (@types)
{
	for my $case (
		[ "CREATE TABLE public.$t (a int)", 'the row type of a table or view', "DROP TABLE public.$t" ],
		[ "CREATE DOMAIN public.$t AS bigint", 'a type that belongs to no extension', "DROP DOMAIN public.$t" ])
	{
		my ($plant, $what, $drop) = @$case;
		my $before = $node->safe_psql('conflicts', "$plant;\n$public_objects");
		my $err = attempt('conflicts', '', 'CREATE EXTENSION ulid_tsid');
		check_refusal("$plant", $err, '42710', "type public.$t", $what);
		like($err, qr/HINT:  pgx_ulid and andrielfn's pg-ulid both name their type ulid\. Create ulid_tsid in a schema of its own/,
			"$plant: the hint says how to install beside another ulid") if $t eq 'ulid';
		is($node->safe_psql('conflicts', $public_objects), $before, "$plant: nothing created");
		$node->safe_psql('conflicts', $drop);
	}
}

# The mark's sequences: a relation of their names, planted by a role with CREATE
# on the schema (a table, a sequence of its own), is named in the error.
$node->safe_psql('conflicts', 'CREATE ROLE planter; GRANT CREATE ON SCHEMA public TO planter');
for my $rel (qw(ulid_tsid_mark ulid_tsid_mark_floor ulid_tsid_mark_dumped))
{
	for my $case ([ "CREATE TABLE public.$rel (a int)", 'table' ], [ "CREATE SEQUENCE public.$rel CYCLE", 'sequence' ])
	{
		my ($plant, $kind) = @$case;
		my $before = $node->safe_psql('conflicts', "SET ROLE planter; $plant; RESET ROLE;\n$public_objects");
		my $err = attempt('conflicts', '', 'CREATE EXTENSION ulid_tsid');
		like($err, qr/ERROR:  42P07: ulid_tsid cannot be installed in schema public: relation public\.$rel already exists\n/,
			"$plant: 42P07 names it");
		like($err, qr/DETAIL:  It is a $kind that belongs to role planter; ulid_tsid keeps its generators' high-water mark/,
			"$plant: the detail says what and whose it is");
		is($node->safe_psql('conflicts', $public_objects), $before, "$plant: nothing created");
		$node->safe_psql('conflicts', "DROP " . uc($kind) . " public.$rel");
	}
}

# Installed elsewhere, ours stands beside the other object.
$node->safe_psql('conflicts', $article);
is($node->safe_psql('conflicts', q{CREATE SCHEMA keys; CREATE EXTENSION ulid_tsid SCHEMA keys;
SELECT pg_typeof(public.generate_tsid()), pg_typeof(keys.generate_tsid())}), 'bigint|keys.tsid',
	'in another schema the extension installs beside the article\'s function');

# ALTER EXTENSION UPDATE to 0.4.0 over a uuidv4() polyfill.
$node->safe_psql('updates', q{CREATE EXTENSION ulid_tsid VERSION '0.3.0';
CREATE FUNCTION uuidv4() RETURNS uuid LANGUAGE sql AS 'SELECT pg_catalog.gen_random_uuid()'});
$err = attempt('updates', '', 'ALTER EXTENSION ulid_tsid UPDATE');
like($err, qr/ERROR:  42723: ulid_tsid cannot be updated in schema public: function public.uuidv4\(\) already exists\n/,
	'update over a uuidv4() polyfill: 42723 names it');
like($err, qr/DETAIL:  It is a function in language sql that belongs to no extension/, 'update: the detail says what it is');
like($err, qr/HINT:  If it stands in for PostgreSQL 18's function of that name, drop it/, 'update: the hint says what to do');
is($node->safe_psql('updates', q{SELECT extversion FROM pg_extension WHERE extname = 'ulid_tsid'}), '0.3.0',
	'update: refused as a whole');
# ... and over a relation named like the mark's.
$node->safe_psql('updates', 'DROP FUNCTION public.uuidv4(); CREATE TABLE public.ulid_tsid_mark_floor (a int)');
$err = attempt('updates', '', 'ALTER EXTENSION ulid_tsid UPDATE');
like($err, qr/ERROR:  42P07: ulid_tsid cannot be installed in schema public: relation public\.ulid_tsid_mark_floor already exists\n/,
	'update over a table named ulid_tsid_mark_floor: 42P07 names it');
$node->safe_psql('updates', 'DROP TABLE public.ulid_tsid_mark_floor; ALTER EXTENSION ulid_tsid UPDATE');  # on 18+ a bare uuidv4() is core's
is($node->safe_psql('updates', q{SELECT uuid_extract_version(uuidv4())}), '4', 'update: then it goes through');

$node->stop;
done_testing();
