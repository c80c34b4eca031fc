// pgx (v4) against ulid, tsid, uuid (UUIDv7) and bigint (TSID) keys: docs/clients.md's Go
// recipes, run for real. Prints "ok N" / "not ok N" lines (scripts/suites/clients.sh).
// Build with Debian's golang-github-jackc-pgx-v4-dev, offline:
//
//	GOPATH=/usr/share/gocode GO111MODULE=off GOPROXY=off go build -o pgx_client .
//
// Run with PGHOST, PGPORT, PGUSER, PGDATABASE set (a socket directory works for PGHOST).
// pgx knows neither ulid nor tsid: registered as its own uuid and int8 codecs, they read
// and write in binary as [16]byte and int64; a string parameter always goes as text.
package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgconn"
	"github.com/jackc/pgtype"
	"github.com/jackc/pgx/v4"
)

// checks prints one "ok N - pgx: what" or "not ok N - pgx: what" line per check.
type checks struct{ count, failed int }

func (t *checks) ok(cond bool, what string, detail ...interface{}) bool {
	t.count++
	if cond {
		fmt.Printf("ok %d - pgx: %s\n", t.count, what)
		return true
	}
	t.failed++
	fmt.Printf("not ok %d - pgx: %s\n", t.count, what)
	if len(detail) > 0 {
		fmt.Printf("#   got: %s\n", strings.ReplaceAll(fmt.Sprint(detail...), "\n", "\n#   "))
	}
	return false
}

// noErr is a check that passes when err is nil, and shows err otherwise.
func (t *checks) noErr(err error, what string) bool {
	return t.ok(err == nil, what, err)
}

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// crockfordBits decodes a ulid's (26) or tsid's (13) text into its bytes, big-endian,
// without asking the extension: the oracle for text against binary.
func crockfordBits(text string, size int) ([]byte, bool) {
	out := make([]byte, size)
	for _, c := range text {
		d := strings.IndexRune(crockford, c)
		if d < 0 {
			return nil, false
		}
		carry := d
		for i := size - 1; i >= 0; i-- {
			v := int(out[i])<<5 | carry
			out[i], carry = byte(v), v>>8
		}
	}
	return out, true
}

// ulidText is the Crockford string of 16 bytes: 26 characters of 5 bits, the first of 3.
func ulidText(id [16]byte) string {
	var hi, lo uint64
	for i := 0; i < 8; i++ {
		hi, lo = hi<<8|uint64(id[i]), lo<<8|uint64(id[8+i])
	}
	out := make([]byte, 26)
	for i := 25; i >= 0; i-- {
		out[i] = crockford[lo&31]
		lo, hi = lo>>5|hi<<59, hi>>5
	}
	return string(out)
}

func tsidFromText(text string) (int64, bool) {
	b, ok := crockfordBits(text, 8)
	if !ok || len(text) != 13 {
		return 0, false
	}
	var v uint64
	for _, x := range b {
		v = v<<8 | uint64(x)
	}
	return int64(v), true
}

func unixMillis(b [16]byte) int64 {
	var ms int64
	for _, x := range b[:6] {
		ms = ms<<8 | int64(x)
	}
	return ms
}

// README pgx: begin
// registerUlidTsid gives ulid pgx's uuid codec and tsid its int8 codec, on each
// connection (pgxpool: in Config.AfterConnect). Results then come in binary, read
// as [16]byte and int64, and those go in as binary parameters; a string parameter
// still goes as text: a ulid's or tsid's Crockford string.
func registerUlidTsid(ctx context.Context, conn *pgx.Conn) error {
	for name, value := range map[string]pgtype.Value{"ulid": &pgtype.UUID{}, "tsid": &pgtype.Int8{}} {
		var oid uint32
		if err := conn.QueryRow(ctx, "SELECT $1::text::regtype::oid", name).Scan(&oid); err != nil {
			return err
		}
		conn.ConnInfo().RegisterDataType(pgtype.DataType{Value: value, Name: name, OID: oid})
	}
	return nil
}

// README pgx: end

// plan is the EXPLAIN of query with args, sequential scans off (the table is small).
func plan(ctx context.Context, conn *pgx.Conn, query string, args ...interface{}) (string, error) {
	if _, err := conn.Exec(ctx, "SET enable_seqscan = off"); err != nil {
		return "", err
	}
	defer conn.Exec(ctx, "RESET enable_seqscan")
	rows, err := conn.Query(ctx, "EXPLAIN "+query, args...)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return "", err
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n"), rows.Err()
}

// column lists one key column's values in key order, as text.
func column(ctx context.Context, conn *pgx.Conn, col string) ([]string, error) {
	rows, err := conn.Query(ctx, fmt.Sprintf("SELECT %s::text FROM orders ORDER BY %s", col, col))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var all []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		all = append(all, s)
	}
	return all, rows.Err()
}

func main() {
	t := &checks{}
	defer func() {
		if r := recover(); r != nil {
			t.ok(false, "the program ran to its end", r)
		}
		fmt.Printf("1..%d\n", t.count)
		if t.failed > 0 {
			os.Exit(1)
		}
	}()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "") // PGHOST, PGPORT, ... as libpq reads them
	if !t.noErr(err, "connects through PGHOST and friends") {
		return
	}
	defer conn.Close(ctx)
	// README pgx-table: begin
	_, err = conn.Exec(ctx, `CREATE TABLE orders (
	    id  ulid   PRIMARY KEY DEFAULT generate_ulid(),
	    tid tsid   UNIQUE DEFAULT generate_tsid(),
	    uid uuid   UNIQUE DEFAULT generate_uuidv7(),
	    big bigint UNIQUE DEFAULT generate_tsid(),  -- a TSID kept as bigint
	    item text)`)
	// README pgx-table: end
	if !t.noErr(err, "CREATE TABLE with ulid, tsid, uuid (v7) and bigint (TSID) keys") {
		return
	}

	// Before registering: pgx reads an unknown type as text, and cannot send a
	// non-string value as one.
	var plainID string
	err = conn.QueryRow(ctx, "SELECT generate_ulid()").Scan(&plainID)
	t.ok(err == nil && len(plainID) == 26, "unregistered, a ulid result comes in text as its 26-character string", plainID, err)
	var plainBinary pgtype.UUID
	var plainTsid pgtype.Int8
	err = conn.QueryRow(ctx, "SELECT $1::ulid, $2::text::tsid", pgx.QueryResultFormats{pgx.BinaryFormatCode},
		plainID, "0DXBG0DVMS8ER").Scan(&plainBinary, &plainTsid)
	madeText, _ := tsidFromText("0DXBG0DVMS8ER")
	t.ok(err == nil && ulidText(plainBinary.Bytes) == plainID && plainTsid.Int == madeText,
		"unregistered, QueryResultFormats binary reads a ulid into pgtype.UUID and a tsid into pgtype.Int8", plainBinary, plainTsid, err)
	_, err = conn.Exec(ctx, "SELECT $1::tsid", int64(915268788478279683))
	var unregErr *pgconn.PgError
	t.ok(errors.As(err, &unregErr) && unregErr.Code == "22P02",
		"unregistered, an int64 tsid parameter goes as its decimal text, which tsid refuses (22P02)", err)

	if !t.noErr(registerUlidTsid(ctx, conn), "registerUlidTsid runs") {
		return
	}
	var start time.Time // the server's clock before the first key
	if !t.noErr(conn.QueryRow(ctx, "SELECT clock_timestamp()").Scan(&start), "SELECT clock_timestamp()") {
		return
	}
	before := time.Now()
	var id, uid [16]byte
	var tid, big int64
	var idText, tidText, uidText, bigText string
	err = func() error {
		// README pgx-insert: begin
		err := conn.QueryRow(ctx, "INSERT INTO orders (item) VALUES ($1) RETURNING id, tid, uid, big",
			"book").Scan(&id, &tid, &uid, &big)
		// binary: id and uid as [16]byte, tid and big as int64
		if err != nil {
			return err
		}
		err = conn.QueryRow(ctx, "SELECT id, tid, uid, big FROM orders WHERE id = $1",
			pgx.QueryResultFormats{pgx.TextFormatCode}, id).Scan(&idText, &tidText, &uidText, &bigText)
		// text: "01JE7Q...", 26 characters; "0K8ZP2X3W1A5C", 13; the uuid's 36; the bigint's digits
		// README pgx-insert: end
		return err
	}()
	after := time.Now()
	if !t.noErr(err, "the recipe's INSERT ... RETURNING and its text read run") {
		return
	}
	near := func(ms int64) bool {
		return ms >= before.UnixMilli()-1000 && ms <= after.UnixMilli()+1000
	}
	t.ok(near(unixMillis(id)), "INSERT RETURNING a ulid key reads binary as [16]byte, its first 48 bits the time", id)
	t.ok(near(tid>>22+1577836800000), "INSERT RETURNING a tsid key reads binary as int64, its top 42 bits ms since 2020", tid)
	t.ok(near(unixMillis(uid)) && uid[6]>>4 == 7 && uid[8]>>6 == 2, "INSERT RETURNING a generate_uuidv7() uuid key reads as a version-7 [16]byte", uid)
	t.ok(near(big>>22+1577836800000), "INSERT RETURNING a bigint generate_tsid() key reads as int64", big)
	bits, good := crockfordBits(idText, 16)
	t.ok(good && len(idText) == 26 && string(bits) == string(id[:]), "the ulid in text format is the Crockford string of the same 128 bits", idText, id)
	textTid, good := tsidFromText(tidText)
	t.ok(good && textTid == tid, "the tsid in text format is the Crockford string of the same int64", tidText, tid)
	t.ok(uidText == fmt.Sprintf("%x-%x-%x-%x-%x", uid[0:4], uid[4:6], uid[6:8], uid[8:10], uid[10:16]),
		"the uuid in text format is the same 16 bytes", uidText, uid)
	t.ok(bigText == fmt.Sprint(big), "the bigint in text format is the same int64", bigText, big)
	var castText string
	err = conn.QueryRow(ctx, "SELECT id::text FROM orders WHERE id = $1", id).Scan(&castText)
	t.ok(err == nil && castText == idText, "id::text reads the same string without QueryResultFormats", castText, err)

	// Parameters as Go's own types.
	var item string
	err = func() error {
		// README pgx-find: begin
		err := conn.QueryRow(ctx, "SELECT item FROM orders WHERE id = $1 AND tid = $2 AND uid = $3 AND big = $4",
			idText, tid, uid, big).Scan(&item)
		// a string (Crockford text) for the ulid, an int64 for the tsid, [16]byte for the uuid
		// README pgx-find: end
		return err
	}()
	t.ok(err == nil && item == "book", "string ulid, int64 tsid, [16]byte uuid and int64 bigint parameters find the row", item, err)
	item = ""
	err = conn.QueryRow(ctx, "SELECT item FROM orders WHERE id = $1 AND tid = $2 AND id = $3::uuid",
		id, tidText, pgtype.UUID{Bytes: id, Status: pgtype.Present}).Scan(&item)
	t.ok(err == nil && item == "book", "[16]byte ulid, string tsid and a pgtype.UUID compared as uuid find the row", item, err)
	for _, c := range []struct {
		what, query string
		arg         interface{}
	}{
		{"WHERE id = $1 with a [16]byte", "SELECT item FROM orders WHERE id = $1", id},
		{"WHERE id = $1 with a string", "SELECT item FROM orders WHERE id = $1", idText},
		{"WHERE tid = $1 with an int64", "SELECT item FROM orders WHERE tid = $1", tid},
		{"WHERE tid = $1::bigint with an int64", "SELECT item FROM orders WHERE tid = $1::bigint", tid},
	} {
		p, err := plan(ctx, conn, c.query, c.arg)
		t.ok(err == nil && strings.Contains(p, "Index Cond"), c.what+" uses the index", p, err)
	}

	// Client-made values: bytes and int64 in binary, Crockford strings in text.
	made := [16]byte{0x01, 0x89, 0x0a, 0x5d, 0xac, 0x96, 0x77, 0x4b, 0xbc, 0xce, 0xb3, 0x02, 0x09, 0x9a, 0x80, 0x57}
	madeTsid := int64(0x0CB5E3F2A1B2C3D4)
	_, err = conn.Exec(ctx, "INSERT INTO orders (id, tid, uid, big, item) VALUES ($1, $2, $3, $4, 'made')", made, madeTsid, made, madeTsid)
	var gotText, gotTidText string
	if err == nil {
		err = conn.QueryRow(ctx, "SELECT id::text, tid::text FROM orders WHERE item = 'made'").Scan(&gotText, &gotTidText)
	}
	backTid, _ := tsidFromText(gotTidText)
	t.ok(err == nil && gotText == ulidText(made) && backTid == madeTsid, "[16]byte and int64 parameters store the same bits", gotText, gotTidText, err)
	_, err = conn.Exec(ctx, "DELETE FROM orders WHERE item = 'made'")
	t.noErr(err, "DELETE the client-made row")

	// Two batches, a server time between them: keyset pages and time windows.
	insert := func(n int) error {
		_, err := conn.Exec(ctx, "INSERT INTO orders (item) SELECT 'row ' || g FROM generate_series(1, $1) g", n)
		return err
	}
	var mid, end time.Time
	err = insert(14)
	time.Sleep(20 * time.Millisecond)
	if err == nil {
		err = conn.QueryRow(ctx, "SELECT clock_timestamp()").Scan(&mid)
	}
	time.Sleep(20 * time.Millisecond)
	if err == nil {
		err = insert(15)
	}
	if err == nil {
		err = conn.QueryRow(ctx, "SELECT clock_timestamp() + interval '1 ms'").Scan(&end)
	}
	if !t.noErr(err, "30 rows in two batches, a clock_timestamp() between them") {
		return
	}

	// Keyset pages on each key, by its own Go value.
	const pageSize = 10
	for _, c := range []struct {
		col   string
		first interface{}
	}{{"id", [16]byte{}}, {"tid", int64(math.MinInt64)}, {"uid", [16]byte{}}, {"big", int64(math.MinInt64)}} {
		want, err := column(ctx, conn, c.col)
		if !t.noErr(err, "the "+c.col+" column in key order") {
			continue
		}
		var got []string
		var sizes []int
		after := c.first
		for page := 0; page < 5 && err == nil; page++ {
			var rows pgx.Rows
			rows, err = conn.Query(ctx, fmt.Sprintf("SELECT %s, %s::text AS t FROM orders WHERE %s > $1 ORDER BY %s LIMIT $2", c.col, c.col, c.col, c.col), after, pageSize)
			if err != nil {
				break
			}
			n := 0
			for rows.Next() {
				var s string
				if err = rows.Scan(&after, &s); err != nil {
					break
				}
				got = append(got, s)
				n++
			}
			rows.Close()
			if err == nil {
				err = rows.Err()
			}
			sizes = append(sizes, n)
			if n == 0 {
				break
			}
		}
		t.ok(err == nil && len(want) == 30 && fmt.Sprint(sizes) == "[10 10 10 0]" && strings.Join(got, ",") == strings.Join(want, ","),
			fmt.Sprintf("keyset pages on %s (%T): 3 pages of %d hold every row once, in key order", c.col, c.first, pageSize), sizes, err)
	}
	var page [][16]byte
	err = func() error {
		// README pgx-pages: begin
		after := [16]byte{} // below every ulid; then the last id of the page before
		rows, err := conn.Query(ctx, "SELECT id FROM orders WHERE id > $1 ORDER BY id LIMIT $2", after, pageSize)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id [16]byte
			if err := rows.Scan(&id); err != nil {
				return err
			}
			page = append(page, id)
		}
		// README pgx-pages: end
		return rows.Err()
	}()
	t.ok(err == nil && len(page) == pageSize, "the recipe's first keyset page", len(page), err)

	// Time windows: the key's own index answers them.
	var inWindow []string
	var idPlan string
	from, to := mid, end
	err = func() error {
		// README pgx-window: begin
		// the rows made in [from, to): from and to are time.Time, the key's own index answers
		const window = "SELECT id FROM orders WHERE id >= ulid_lower_bound($1) AND id < ulid_lower_bound($2)"
		rows, err := conn.Query(ctx, window, from, to)
		// tsid: tsid_lower_bound($1); uuid: uuidv7_lower_bound($1); bigint: tsid_lower_bound($1)::bigint
		// README pgx-window: end
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id [16]byte
			if err := rows.Scan(&id); err != nil {
				return err
			}
			inWindow = append(inWindow, ulidText(id))
		}
		if err := rows.Err(); err != nil {
			return err
		}
		idPlan, err = plan(ctx, conn, window, from, to)
		return err
	}()
	t.ok(err == nil && len(inWindow) == 15, "the recipe's window [mid, end) holds the second batch's 15 rows", len(inWindow), err)
	t.ok(strings.Contains(idPlan, " orders_pkey ") && strings.Contains(idPlan, "Index Cond: ((id >= "), "the recipe's window reads the primary key's index", idPlan)
	for _, c := range []struct{ col, lower, index string }{
		{"id", "ulid_lower_bound", "orders_pkey"},
		{"tid", "tsid_lower_bound", "orders_tid_key"},
		{"uid", "uuidv7_lower_bound", "orders_uid_key"},
		{"big", "tsid_lower_bound", "orders_big_key"},
	} {
		cast := ""
		if c.col == "big" {
			cast = "::bigint"
		}
		q := fmt.Sprintf("SELECT count(*) FROM orders WHERE %s >= %s($1)%s AND %s < %s($2)%s", c.col, c.lower, cast, c.col, c.lower, cast)
		counts := []int64{}
		for _, w := range [][2]time.Time{{start, end}, {mid, end}, {start, mid}, {end, end.Add(time.Hour)}} {
			var n int64
			if err = conn.QueryRow(ctx, q, w[0], w[1]).Scan(&n); err != nil {
				break
			}
			counts = append(counts, n)
		}
		t.ok(err == nil && fmt.Sprint(counts) == "[30 15 15 0]",
			fmt.Sprintf("time windows on %s by %s(time.Time)%s: all, second batch, first batch, later", c.col, c.lower, cast), counts, err)
		p, err := plan(ctx, conn, q, mid, end)
		t.ok(err == nil && strings.Contains(p, " "+c.index+" ") && strings.Contains(p, "Index Cond"),
			fmt.Sprintf("the window on %s is an index scan of %s", c.col, c.index), p, err)
	}
	natural := "SELECT count(*) FROM orders WHERE ulid_timestamp(id) >= $1 AND ulid_timestamp(id) < $2"
	var n int64
	err = conn.QueryRow(ctx, natural, mid, end).Scan(&n)
	p, perr := plan(ctx, conn, natural, mid, end)
	t.ok(err == nil && perr == nil && n == 15 && strings.Contains(p, " orders_pkey ") && strings.Contains(p, "Index Cond: ((id >= "),
		"ulid_timestamp(id) >= $1 AND < $2 with time.Time counts the same rows through the index", n, p, err, perr)

	// Bad text: the server's 22P02 as a *pgconn.PgError.
	var refused *pgconn.PgError
	err = func() error {
		// README pgx-error: begin
		_, err := conn.Exec(ctx, "SELECT item FROM orders WHERE id = $1", "01JE7Q-not-a-ulid")
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "22P02" { // invalid_text_representation
			// pgErr.Message: invalid input syntax for type ulid: "01JE7Q-not-a-ulid"
			// pgErr.Detail: Character "-" at position 7 is not a Crockford base32 symbol.
		}
		// README pgx-error: end
		refused = pgErr
		return err
	}()
	t.ok(refused != nil && refused.Code == "22P02" && refused.Message == `invalid input syntax for type ulid: "01JE7Q-not-a-ulid"` &&
		refused.Detail == `Character "-" at position 7 is not a Crockford base32 symbol.`,
		"a bad ulid string is a *pgconn.PgError with Code 22P02, the Message and Detail the recipe shows", err, refused)
	for _, c := range []struct {
		what, query, arg, hint string
	}{
		{"a decimal string as a tsid", "SELECT item FROM orders WHERE tid = $1", "915268788478279683", "::bigint"},
		{"a bad uuid string", "SELECT item FROM orders WHERE uid = $1", "01JE7Q-not-a-uuid", ""},
	} {
		_, err := conn.Exec(ctx, c.query, c.arg)
		var pgErr *pgconn.PgError
		t.ok(errors.As(err, &pgErr) && pgErr.Code == "22P02" && strings.Contains(pgErr.Hint, c.hint),
			c.what+" is a *pgconn.PgError with Code 22P02"+map[bool]string{true: " and a hint to use " + c.hint, false: ""}[c.hint != ""], err)
	}
	err = conn.QueryRow(ctx, "SELECT count(*) FROM orders").Scan(&n)
	t.ok(err == nil && n == 30, "the connection serves the next query after the errors", n, err)
}
