<?php
// Doctrine DBAL 4 against ulid, tsid, uuid (UUIDv7) and bigint (TSID) keys: docs/clients.md's
// DBAL recipes, run for real, through both of DBAL's PostgreSQL drivers (pgsql: ext-pgsql;
// pdo_pgsql: PDO). Prints "ok N" / "not ok N" lines (scripts/suites/clients.sh).
// Debian's php-doctrine-dbal and php-pgsql (sid's DBAL 4.5; trixie's 4.2):
//   php dbal_client.php      with PGHOST, PGPORT, PGUSER, PGDATABASE set (a socket directory works)
// PHP's drivers read every result as text: a ulid is its 26 Crockford characters, a tsid its
// 13; the binary form (what binary clients receive) is compared through ulid_send() and
// tsid_send(), which return exactly those bytes.

require_once '/usr/share/php/Doctrine/DBAL/autoload.php';

use Doctrine\DBAL\Connection;
use Doctrine\DBAL\DriverManager;
use Doctrine\DBAL\Exception\DriverException;
use Doctrine\DBAL\ParameterType;

$count = 0;
$failed = 0;
$driver = '';

// ok: one "ok N - dbal (driver): what" or "not ok N ..." line.
function ok(bool $cond, string $what, $detail = null): bool
{
    global $count, $failed, $driver;
    $count++;
    if ($cond) {
        echo "ok $count - dbal ($driver): $what\n";
        return true;
    }
    $failed++;
    echo "not ok $count - dbal ($driver): $what\n";
    echo '#   got: ' . str_replace("\n", "\n#   ", var_export($detail, true)) . "\n";
    return false;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

// The bytes a ulid's (26, 16 bytes) or tsid's (13, 8 bytes) text stands for, big-endian,
// decoded here: the oracle for text against binary. null for a bad symbol.
function crockford_bytes(string $text, int $size): ?string
{
    $bytes = array_fill(0, $size, 0);
    foreach (str_split($text) as $c) {
        $carry = strpos(CROCKFORD, $c);
        if ($carry === false) {
            return null;
        }
        for ($i = $size - 1; $i >= 0; $i--) {
            $v = $bytes[$i] * 32 + $carry;
            $bytes[$i] = $v & 0xff;
            $carry = $v >> 8;
        }
    }
    return pack('C*', ...$bytes);
}

// A ulid's 26 characters from its 16 bytes.
function ulid_text(string $bytes): string
{
    $bits = '';
    foreach (str_split($bytes) as $b) {
        $bits .= str_pad(decbin(ord($b)), 8, '0', STR_PAD_LEFT);
    }
    $bits = '00' . $bits;
    $out = '';
    foreach (str_split($bits, 5) as $d) {
        $out .= CROCKFORD[bindec($d)];
    }
    return $out;
}

// A bytea result: a string through pgsql, a stream through pdo_pgsql.
function bytes($value): string
{
    return is_resource($value) ? stream_get_contents($value) : (string) $value;
}

function ms_of(string $bytes8): int  // the first 6 bytes of 8 as an integer
{
    return unpack('J', "\0\0" . substr($bytes8, 0, 6))[1];
}

function plan(Connection $conn, string $sql, array $params, array $types = []): string
{
    $conn->executeStatement('SET enable_seqscan = off');
    try {
        return implode("\n", $conn->executeQuery("EXPLAIN $sql", $params, $types)->fetchFirstColumn());
    } finally {
        $conn->executeStatement('RESET enable_seqscan');
    }
}

function sqlstate(callable $f): ?array  // [class, SQLSTATE, message] of what $f throws
{
    try {
        $f();
        return null;
    } catch (\Throwable $e) {
        return [get_class($e), $e instanceof DriverException ? $e->getSQLState() : null, $e->getMessage()];
    }
}

function server_time(Connection $conn, string $expr = 'clock_timestamp()'): DateTimeImmutable
{
    return new DateTimeImmutable($conn->fetchOne("SELECT ($expr)::text"));
}

function body(string $driverName): void
{
    // README dbal: begin
    $conn = DriverManager::getConnection([
        'driver' => $driverName, // 'pgsql' (ext-pgsql) or 'pdo_pgsql'
        'host' => getenv('PGHOST'), // a directory: its Unix socket
        'port' => (int) getenv('PGPORT'),
        'user' => getenv('PGUSER'),
        'dbname' => getenv('PGDATABASE'),
    ]);
    $conn->executeStatement('CREATE TABLE orders (
        id  ulid   PRIMARY KEY DEFAULT generate_ulid(),
        tid tsid   UNIQUE DEFAULT generate_tsid(),
        uid uuid   UNIQUE DEFAULT generate_uuidv7(),
        big bigint UNIQUE DEFAULT generate_tsid(),
        item text)');
    // README dbal: end
    ok(true, 'connects through PGHOST and friends, makes the table');

    $start = server_time($conn);
    // README dbal-insert: begin
    $row = $conn->fetchAssociative(
        'INSERT INTO orders (item) VALUES (?) RETURNING id, tid, uid, big',
        ['book']
    );
    // text: $row['id'] is '01JE7Q...' (26 characters), $row['tid'] '0K8ZP2X3W1A5C' (13),
    // $row['uid'] the uuid's string, $row['big'] an int
    $bin = $conn->fetchAssociative(
        'SELECT ulid_send(id) AS id, tsid_send(tid) AS tid FROM orders WHERE id = ?',
        [$row['id']]
    );
    // binary: ulid_send() gives the 16 bytes (tsid_send() the 8) a binary client reads;
    // a bytea is a string through pgsql, a stream through pdo_pgsql
    // README dbal-insert: end
    $end = server_time($conn);
    $near = fn (int $ms) => $ms >= $start->getTimestamp() * 1000 - 1000 && $ms <= $end->getTimestamp() * 1000 + 2000;
    [$id, $tid, $uid, $big] = [$row['id'], $row['tid'], $row['uid'], $row['big']];
    $idBytes = crockford_bytes($id, 16);
    $tidBytes = crockford_bytes($tid, 8);
    ok(is_string($id) && strlen($id) === 26 && $idBytes !== null && $near(ms_of(substr($idBytes, 0, 8))),
        'INSERT RETURNING a ulid key reads as its 26-character string, its first 48 bits the time', $id);
    ok(is_string($tid) && strlen($tid) === 13 && $tidBytes !== null
        && $near((unpack('J', $tidBytes)[1] >> 22) + 1577836800000),
        'INSERT RETURNING a tsid key reads as its 13-character string, its top 42 bits ms since 2020', $tid);
    ok(is_string($uid) && $uid[14] === '7' && $near(hexdec(substr(str_replace('-', '', $uid), 0, 12))),
        'INSERT RETURNING a generate_uuidv7() uuid key reads as a version-7 uuid string', $uid);
    ok(is_int($big) && $near(($big >> 22) + 1577836800000),
        'INSERT RETURNING a bigint generate_tsid() key reads as an int', $big);
    $idBin = bytes($bin['id']);
    $tidBin = bytes($bin['tid']);
    ok($idBin === $idBytes && strlen($idBin) === 16,
        "the ulid's binary form (ulid_send, 16 bytes) is its text's decoding", [bin2hex($idBin), bin2hex((string) $idBytes)]);
    ok($tidBin === $tidBytes && strlen($tidBin) === 8,
        "the tsid's binary form (tsid_send, 8 bytes) is its text's decoding", [bin2hex($tidBin), bin2hex((string) $tidBytes)]);
    $asUuid = $conn->fetchOne('SELECT id::uuid FROM orders WHERE id = ?', [$id]);
    ok(str_replace('-', '', $asUuid) === bin2hex($idBytes), 'id::uuid is the same 16 bytes as a uuid string', $asUuid);
    ok(ulid_text($idBin) === $id, 'the 16 bytes encode back to the ulid string', ulid_text($idBin));
    ok($conn->fetchOne('SELECT tid::bigint FROM orders WHERE id = ?', [$id]) === unpack('J', $tidBytes)[1],
        'tid::bigint is an int, the same 8 bytes', $tid);

    // Parameters: PHP strings and integers.
    $tidInt = unpack('J', $tidBytes)[1];
    // README dbal-find: begin
    // strings go as untyped text, which the server reads as the column's type
    $item = $conn->fetchOne(
        'SELECT item FROM orders WHERE id = ? AND tid = ? AND uid = ? AND big = ?',
        [$id, $tid, $uid, $big],
        [ParameterType::STRING, ParameterType::STRING, ParameterType::STRING, ParameterType::INTEGER]
    );
    // an integer for a tsid needs ?::bigint (its decimal string is not a tsid's text):
    $item2 = $conn->fetchOne('SELECT item FROM orders WHERE tid = ?::bigint', [$tidInt], [ParameterType::INTEGER]);
    // README dbal-find: end
    ok($item === 'book', "the recipe's string parameters for ulid, tsid and uuid, an integer for bigint, find the row", $item);
    ok($item2 === 'book', "the recipe's integer for the tsid as ?::bigint finds the row", $item2);
    $bare = sqlstate(fn () => $conn->fetchOne('SELECT item FROM orders WHERE tid = ?', [$tidInt], [ParameterType::INTEGER]));
    ok(($bare[1] ?? null) === '22P02',
        'an integer for a tsid without ::bigint is SQLSTATE 22P02 (sent as untyped text, read as a tsid string)', $bare);
    $conn->executeStatement("INSERT INTO orders (id, tid, uid, big, item) VALUES (?, ?, ?, ?, 'made')",
        [ulid_text(hex2bin('01890a5dac96774bbcceb302099a8057')), '0CB5E3F2A1B2C', '01890a5d-ac96-774b-bcce-b302099a8057', 915268788478279683],
        [ParameterType::STRING, ParameterType::STRING, ParameterType::STRING, ParameterType::INTEGER]);
    $made = $conn->fetchAssociative("SELECT id::uuid AS u, tsid_send(tid) AS t FROM orders WHERE item = 'made'");
    ok($made['u'] === '01890a5d-ac96-774b-bcce-b302099a8057' && bytes($made['t']) === crockford_bytes('0CB5E3F2A1B2C', 8),
        'client-made ulid and tsid strings store the bits they stand for', $made);
    $conn->executeStatement("DELETE FROM orders WHERE item = 'made'");
    foreach ([
        ['WHERE id = ? with a string', 'SELECT item FROM orders WHERE id = ?', [$id], []],
        ['WHERE tid = ? with a string', 'SELECT item FROM orders WHERE tid = ?', [$tid], []],
        ['WHERE tid = ?::bigint with an integer', 'SELECT item FROM orders WHERE tid = ?::bigint', [$tidInt], [ParameterType::INTEGER]],
        ['WHERE uid = ? with a string', 'SELECT item FROM orders WHERE uid = ?', [$uid], []],
        ['WHERE big = ? with an integer', 'SELECT item FROM orders WHERE big = ?', [$big], [ParameterType::INTEGER]],
    ] as [$what, $sql, $params, $types]) {
        $p = plan($conn, $sql, $params, $types);
        ok(str_contains($p, 'Index Cond'), "$what uses the index", $p);
    }

    // Two batches, a server time between them: keyset pages and time windows.
    $insert = "INSERT INTO orders (item) SELECT 'row ' || g FROM generate_series(1, ?) g";
    $conn->executeStatement($insert, [14], [ParameterType::INTEGER]);
    usleep(20000);
    $mid = server_time($conn);
    usleep(20000);
    $conn->executeStatement($insert, [15], [ParameterType::INTEGER]);
    $end = server_time($conn, "clock_timestamp() + interval '1 ms'");

    $pageSize = 10;
    foreach (['id' => '00000000000000000000000000', 'tid' => '0000000000000', 'uid' => '00000000-0000-0000-0000-000000000000', 'big' => PHP_INT_MIN] as $col => $first) {
        $want = $conn->fetchFirstColumn("SELECT $col::text FROM orders ORDER BY $col");
        [$sizes, $keys, $after] = [[], [], $first];
        for ($i = 0; $i < 5; $i++) {
            $rows = $conn->fetchAllAssociative(
                "SELECT $col AS k, $col::text AS t FROM orders WHERE $col > ? ORDER BY $col LIMIT ?",
                [$after, $pageSize], [is_int($after) ? ParameterType::INTEGER : ParameterType::STRING, ParameterType::INTEGER]);
            $sizes[] = count($rows);
            if (!$rows) {
                break;
            }
            $after = end($rows)['k'];
            array_push($keys, ...array_column($rows, 't'));
        }
        ok(count($want) === 30 && $sizes === [10, 10, 10, 0] && $keys === $want,
            "keyset pages on $col: 3 pages of $pageSize hold every row once, in key order", $sizes);
    }
    // README dbal-pages: begin
    $after = '00000000000000000000000000'; // below every ulid; then the last id of the page before
    $page = $conn->fetchFirstColumn(
        'SELECT id FROM orders WHERE id > ? ORDER BY id LIMIT ?',
        [$after, $pageSize],
        [ParameterType::STRING, ParameterType::INTEGER]
    );
    // README dbal-pages: end
    ok(count($page) === 10 && $page[0] === $conn->fetchOne('SELECT min(id::text) FROM orders'),
        "the recipe's first keyset page", $page);

    [$from, $to] = [$mid, $end];
    // README dbal-window: begin
    // the rows made in [$from, $to) (DateTimeImmutable), the key's own index answers
    $window = 'SELECT id FROM orders WHERE id >= ulid_lower_bound(?) AND id < ulid_lower_bound(?)';
    $params = [$from->format('Y-m-d H:i:s.uP'), $to->format('Y-m-d H:i:s.uP')]; // keep the microseconds
    $ids = $conn->fetchFirstColumn($window, $params);
    // tsid: tsid_lower_bound(?); uuid: uuidv7_lower_bound(?); bigint: tsid_lower_bound(?)::bigint
    // README dbal-window: end
    ok(count($ids) === 15, "the recipe's window [mid, end) holds the second batch's 15 rows", count($ids));
    $p = plan($conn, $window, $params);
    ok(str_contains($p, ' orders_pkey ') && str_contains($p, 'Index Cond: ((id >= '),
        "the recipe's window reads the primary key's index, a range condition", $p);
    $fmt = fn (DateTimeImmutable $d) => $d->format('Y-m-d H:i:s.uP');
    foreach ([
        ['id', 'ulid_lower_bound', 'orders_pkey'],
        ['tid', 'tsid_lower_bound', 'orders_tid_key'],
        ['uid', 'uuidv7_lower_bound', 'orders_uid_key'],
        ['big', 'tsid_lower_bound', 'orders_big_key'],
    ] as [$col, $lower, $index]) {
        $cast = $col === 'big' ? '::bigint' : '';
        $q = "SELECT count(*) FROM orders WHERE $col >= $lower(?)$cast AND $col < $lower(?)$cast";
        $counts = [];
        foreach ([[$start, $end], [$mid, $end], [$start, $mid], [$end, $end->modify('+1 hour')]] as [$a, $b]) {
            $counts[] = $conn->fetchOne($q, [$fmt($a), $fmt($b)]);
        }
        ok($counts === [30, 15, 15, 0],
            "time windows on $col by $lower(string)$cast: all, second batch, first batch, later", $counts);
        $p = plan($conn, $q, [$fmt($mid), $fmt($end)]);
        ok(str_contains($p, " $index ") && str_contains($p, "Index Cond: (($col >= "),
            "the window on $col is an index scan of $index, a range condition", $p);
    }

    // README dbal-error: begin
    try {
        $conn->fetchAllAssociative('SELECT item FROM orders WHERE id = ?', ['01JE7Q-not-a-ulid']);
    } catch (DriverException $e) {
        $refused = [$e->getSQLState(), $e->getMessage()];
        // ['22P02', '...invalid input syntax for type ulid: "01JE7Q-not-a-ulid"...']
    }
    // README dbal-error: end
    ok(isset($refused) && $refused[0] === '22P02'
        && str_contains($refused[1], 'invalid input syntax for type ulid: "01JE7Q-not-a-ulid"'),
        "a bad ulid string is a DriverException whose getSQLState() is 22P02, the message the recipe shows",
        $refused ?? null);
    // What the message holds besides: PDO's line keeps the server's DETAIL and HINT, ext-pgsql's
    // is the primary message alone.
    $pdo = $driverName === 'pdo_pgsql';
    $detail = str_contains($refused[1] ?? '', 'DETAIL:  Character "-" at position 7 is not a Crockford base32 symbol.');
    ok($detail === $pdo, $pdo ? "the message holds the server's DETAIL line" : "the message is the server's primary message alone, no DETAIL",
        $refused[1] ?? null);
    foreach ([
        ['a decimal string as a tsid', 'SELECT item FROM orders WHERE tid = ?', '915268788478279683', '::bigint'],
        ['a bad uuid string', 'SELECT item FROM orders WHERE uid = ?', '01JE7Q-not-a-uuid', ''],
    ] as [$what, $sql, $arg, $hint]) {
        $got = sqlstate(fn () => $conn->fetchAllAssociative($sql, [$arg]));
        $hinted = $hint === '' || str_contains($got[2] ?? '', 'HINT:') === $pdo && (!$pdo || str_contains($got[2], $hint));
        ok(($got[0] ?? null) === DriverException::class && ($got[1] ?? null) === '22P02' && $hinted,
            "$what is a DriverException with SQLSTATE 22P02" . ($hint === '' ? '' : ($pdo ? ", the HINT to use $hint in the message" : ', no HINT in the message')), $got);
    }
    ok($conn->fetchOne('SELECT count(*) FROM orders') === 30, 'the connection serves the next query after the errors');
    $conn->executeStatement('DROP TABLE orders');
    $conn->close();
}

foreach (['pgsql', 'pdo_pgsql'] as $driver) {
    try {
        body($driver);
    } catch (\Throwable $e) {
        ok(false, 'the program ran to its end', get_class($e) . ': ' . $e->getMessage());
    }
}
$driver = 'both';
echo "1..$count\n";
exit($failed > 0 ? 1 : 0);
