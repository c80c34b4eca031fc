// pgjdbc against ulid and tsid: the README's recipe, run for real.
// Run: java -cp /usr/share/java/postgresql.jar JdbcClient.java  (PGHOST, PGPORT, PGUSER, PGDATABASE; TCP)
// pgjdbc types a setString() parameter as varchar, which no ulid or tsid
// operator takes: stringtype=unspecified lets the server type it. getString()
// reads both; getLong() reads a tsid only through ::bigint (its text is base32).
// Binary transfer stays off: pgjdbc has no binary reader for these types.
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;
import org.postgresql.util.PGobject;

public class JdbcClient {
    static int count = 0, failed = 0;

    static void ok(boolean condition, String what, Object detail) {
        count++;
        if (condition) {
            System.out.println("ok " + count + " - pgjdbc: " + what);
        } else {
            failed++;
            System.out.println("not ok " + count + " - pgjdbc: " + what);
            if (detail != null) System.out.println("#   got: " + detail);
        }
    }

    interface Check { void run() throws Exception; }

    // Runs one check; an exception is its failure.
    static void check(String what, Check body) {
        try {
            body.run();
        } catch (Exception e) {
            ok(false, what, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    static final String CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

    static BigInteger crockford(String text) {
        BigInteger n = BigInteger.ZERO;
        for (char c : text.toCharArray()) n = n.shiftLeft(5).or(BigInteger.valueOf(CROCKFORD.indexOf(c)));
        return n;
    }

    static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isEmpty() ? fallback : v;
    }

    static String baseUrl() {
        String host = env("PGHOST", "localhost");
        if (host.startsWith("/")) host = "127.0.0.1";   // pgjdbc speaks TCP only
        return "jdbc:postgresql://" + host + ":" + env("PGPORT", "5432") + "/" + env("PGDATABASE", "postgres");
    }

    static Connection connect(String options) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", env("PGUSER", "postgres"));
        return DriverManager.getConnection(baseUrl() + options, p);
    }

    static String planOf(PreparedStatement ps) throws SQLException {
        StringBuilder sb = new StringBuilder();
        try (ResultSet rs = ps.executeQuery()) { while (rs.next()) sb.append(rs.getString(1)).append('\n'); }
        return sb.toString();
    }

    public static void main(String[] args) throws Exception {
        try {
            run();
        } catch (Exception e) {
            e.printStackTrace(System.out);
            ok(false, "the program ran to its end", e);
        }
        System.out.println("1.." + count);
        System.exit(failed == 0 ? 0 : 1);
    }

    static void run() throws Exception {
        try (Connection setup = connect(""); Statement st = setup.createStatement()) {
            st.execute("DROP TABLE IF EXISTS orders, ku");
            st.execute("CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT generate_ulid(),"
                     + " tid tsid UNIQUE DEFAULT generate_tsid(), item text)");
            st.execute("CREATE TABLE ku (id ulid, tid tsid)");
        }

        // Without the recipe: what the README warns about.
        String someUlid = "01HQ3K9V8WZ1Y2X3W4V5T6S7R8";
        try (Connection plain = connect("")) {
            check("setString() without stringtype=unspecified is refused (varchar meets no ulid operator)", () -> {
                try (PreparedStatement ps = plain.prepareStatement("SELECT count(*) FROM orders WHERE id = ?")) {
                    ps.setString(1, someUlid);
                    ps.executeQuery().close();
                    ok(false, "setString() without stringtype=unspecified is refused (varchar meets no ulid operator)", "it worked: the README's advice is out of date");
                } catch (SQLException e) {
                    ok("42883".equals(e.getSQLState()), "setString() without stringtype=unspecified is refused (varchar meets no ulid operator)", e.getSQLState() + " " + e.getMessage());
                }
            });
            check("without it, setObject(s, Types.OTHER) and ?::ulid work", () -> {
                try (PreparedStatement a = plain.prepareStatement("INSERT INTO orders (id, item) VALUES (?, 'other') RETURNING id");
                     PreparedStatement b = plain.prepareStatement("SELECT item FROM orders WHERE id = ?::ulid")) {
                    a.setObject(1, someUlid, Types.OTHER);
                    ResultSet rs = a.executeQuery(); rs.next();
                    b.setString(1, someUlid);
                    ResultSet rs2 = b.executeQuery();
                    ok(someUlid.equals(rs.getString(1)) && rs2.next() && "other".equals(rs2.getString(1)),
                       "without it, setObject(s, Types.OTHER) and ?::ulid work", rs.getString(1));
                }
            });
            check("getLong() on a tsid column fails: its text is base32", () -> {
                try (Statement st = plain.createStatement(); ResultSet rs = st.executeQuery("SELECT generate_tsid()")) {
                    rs.next();
                    try {
                        long v = rs.getLong(1);
                        ok(false, "getLong() on a tsid column fails: its text is base32", "it worked: " + v);
                    } catch (SQLException e) {
                        ok(true, "getLong() on a tsid column fails: its text is base32", null);
                    }
                }
            });
        }

        String url = baseUrl();
        Properties props = new Properties();
        props.setProperty("user", env("PGUSER", "postgres"));
        // README pgjdbc: begin
        // stringtype=unspecified: the server gives String parameters their type
        Connection conn = DriverManager.getConnection(url + "?stringtype=unspecified", props);
        // leave binaryTransferEnable without ulid and tsid: pgjdbc reads them as text only
        // README pgjdbc: end

        String id = null, tid = null;
        long tidLong = 0;
        UUID idUuid = null;
        try {
            // README pgjdbc-read: begin
            PreparedStatement insert = conn.prepareStatement(
                "INSERT INTO orders (item) VALUES (?) RETURNING id, tid, id::uuid, tid::bigint");
            insert.setString(1, "book");
            ResultSet rs = insert.executeQuery();
            rs.next();
            String bookId = rs.getString(1);           // "01M8PZ...": 26 characters
            String bookTid = rs.getString(2);          // "0SCZ3795C0008": 13 characters
            UUID bookUuid = rs.getObject(3, UUID.class);
            long bookTidLong = rs.getLong(4);          // 915268788478279683
            // README pgjdbc-read: end
            id = bookId; tid = bookTid; idUuid = bookUuid; tidLong = bookTidLong;
            // README pgjdbc-find: begin
            PreparedStatement find = conn.prepareStatement("SELECT item FROM orders WHERE id = ? AND tid = ?");
            find.setString(1, bookId);                 // or setObject(1, bookUuid): a UUID compares with a ulid
            find.setLong(2, bookTidLong);              // or setString(2, bookTid)
            ResultSet found = find.executeQuery();
            // README pgjdbc-find: end
            ok(true, "the README's usage lines run", null);
            ok(found.next() && "book".equals(found.getString(1)), "setString(ulid) and setLong(tsid) find the row", null);
        } catch (SQLException e) {
            ok(false, "the README's usage lines run", e.getSQLState() + " " + e.getMessage());
            ok(false, "setString(ulid) and setLong(tsid) find the row", null);
        }
        ok(id != null && id.length() == 26 && idUuid != null
           && crockford(id).equals(new BigInteger(idUuid.toString().replace("-", ""), 16)),
           "getString() of a ulid is its 26 chars, the same 128 bits as its uuid", id + " " + idUuid);
        ok(tid != null && tid.length() == 13 && crockford(tid).longValue() == tidLong,
           "getString() of a tsid is its 13 chars, the same 64 bits as getLong() of tsid::bigint", tid + " " + tidLong);

        final String fId = id, fTid = tid;
        final long fTidLong = tidLong;
        final UUID fUuid = idUuid;
        Object[][] typed = {
            {"setObject(java.util.UUID) against ulid", "SELECT item FROM orders WHERE id = ?", fUuid},
            {"setLong() against tsid", "SELECT item FROM orders WHERE tid = ?", fTidLong},
            {"setString() of a tsid against tsid", "SELECT item FROM orders WHERE tid = ?", fTid},
        };
        for (Object[] c : typed) {
            String what = (String) c[0];
            check(what + " finds the row and uses the index", () -> {
                try (Statement st = conn.createStatement()) { st.execute("SET enable_seqscan = off"); }
                try (PreparedStatement ps = conn.prepareStatement((String) c[1]);
                     PreparedStatement ex = conn.prepareStatement("EXPLAIN " + c[1])) {
                    ps.setObject(1, c[2]);
                    ex.setObject(1, c[2]);
                    ResultSet rs = ps.executeQuery();
                    String plan = planOf(ex);
                    ok(rs.next() && "book".equals(rs.getString(1)) && plan.contains("Index"), what + " finds the row and uses the index", plan);
                } finally {
                    try (Statement st = conn.createStatement()) { st.execute("RESET enable_seqscan"); }
                }
            });
        }
        check("setInt() compares with tsid", () -> {
            try (PreparedStatement ps = conn.prepareStatement("SELECT count(*) FROM orders WHERE tid > ?")) {
                ps.setInt(1, 5);
                ResultSet rs = ps.executeQuery(); rs.next();
                ok(rs.getLong(1) >= 1, "setInt() compares with tsid", rs.getLong(1));
            }
        });

        // Client-made values: a UUID and a long as typed parameters.
        UUID madeUuid = UUID.fromString("01890a5d-ac96-774b-bcce-b302099a8057");
        long madeTsid = 0x0CB5E3F2A1B2C3D4L;
        check("a UUID and a long inserted into ulid and tsid keep their bits", () -> {
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO orders (id, tid, item) VALUES (?, ?, 'made') RETURNING id, tid")) {
                ps.setObject(1, madeUuid);
                ps.setLong(2, madeTsid);
                ResultSet rs = ps.executeQuery(); rs.next();
                ok(crockford(rs.getString(1)).equals(new BigInteger(madeUuid.toString().replace("-", ""), 16))
                   && crockford(rs.getString(2)).longValue() == madeTsid,
                   "a UUID and a long inserted into ulid and tsid keep their bits", rs.getString(1) + " " + rs.getString(2));
            }
        });

        // Arrays.
        List<String> ids = new ArrayList<>(), tids = new ArrayList<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT id, tid FROM orders ORDER BY id")) {
            while (rs.next()) { ids.add(rs.getString(1)); tids.add(rs.getString(2)); }
        }
        check("ulid[] and tsid[] read as arrays of PGobject holding their text", () -> {
            try (Statement st = conn.createStatement();
                 ResultSet rs = st.executeQuery("SELECT array_agg(id ORDER BY id), array_agg(tid ORDER BY id) FROM orders")) {
                rs.next();
                Object a = rs.getArray(1).getArray(), b = rs.getArray(2).getArray();
                // pgjdbc gives an array of a type it does not know as PGobject elements
                List<String> ga = new ArrayList<>(), gb = new ArrayList<>();
                for (Object o : (Object[]) a) ga.add(((PGobject) o).getValue());
                for (Object o : (Object[]) b) gb.add(((PGobject) o).getValue());
                ok(ga.equals(ids) && gb.equals(tids), "ulid[] and tsid[] read as arrays of PGobject holding their text",
                   Arrays.deepToString(new Object[] {a, b}) + " " + ids + tids);
            }
        });
        check("= ANY(uuid[]) and = ANY(bigint[]) parameters", () -> {
            UUID[] uu = new UUID[ids.size()];
            Long[] ll = new Long[tids.size()];
            for (int i = 0; i < uu.length; i++) {
                String hex = String.format("%032x", crockford(ids.get(i)));
                uu[i] = UUID.fromString(hex.replaceFirst("(.{8})(.{4})(.{4})(.{4})(.{12})", "$1-$2-$3-$4-$5"));
                ll[i] = crockford(tids.get(i)).longValue();
            }
            try (PreparedStatement ps = conn.prepareStatement("SELECT count(*) FROM orders WHERE id = ANY(?) AND tid = ANY(?)")) {
                ps.setArray(1, conn.createArrayOf("uuid", uu));
                ps.setArray(2, conn.createArrayOf("bigint", ll));
                ResultSet rs = ps.executeQuery(); rs.next();
                ok(rs.getLong(1) == ids.size(), "= ANY(uuid[]) and = ANY(bigint[]) parameters", rs.getLong(1));
            }
        });

        // A composite row: getString() gives its text.
        check("a composite row reads as its text", () -> {
            try (Statement st = conn.createStatement()) {
                st.execute("INSERT INTO ku SELECT id, tid FROM orders");
                List<String> got = new ArrayList<>(), want = new ArrayList<>();
                try (ResultSet rs = st.executeQuery("SELECT k FROM ku k ORDER BY id")) { while (rs.next()) got.add(rs.getString(1)); }
                for (int i = 0; i < ids.size(); i++) want.add("(" + ids.get(i) + "," + tids.get(i) + ")");
                ok(got.equals(want), "a composite row reads as its text", got);
            }
        });

        // COPY BINARY both ways (CopyManager).
        CopyManager copy = ((PGConnection) conn).getCopyAPI();
        check("COPY TO STDOUT (FORMAT BINARY) gives 16 and 8 big-endian bytes per row", () -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            copy.copyOut("COPY (SELECT id, tid FROM orders ORDER BY id) TO STDOUT (FORMAT BINARY)", out);
            ByteBuffer b = ByteBuffer.wrap(out.toByteArray());
            b.position(11 + 4); b.position(b.position() + 4 + b.getInt(15));
            boolean same = true; int rows = 0;
            for (short fields; (fields = b.getShort()) != -1; rows++) {
                byte[] u = new byte[b.getInt()]; b.get(u);
                byte[] s = new byte[b.getInt()]; b.get(s);
                same &= fields == 2 && new BigInteger(1, u).equals(crockford(ids.get(rows)))
                     && new BigInteger(1, s).equals(crockford(tids.get(rows)));
            }
            ok(same && rows == ids.size(), "COPY TO STDOUT (FORMAT BINARY) gives 16 and 8 big-endian bytes per row", rows);
        });
        check("COPY FROM STDIN (FORMAT BINARY) of client-made bytes", () -> {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.write("PGCOPY\n\377\r\n\0".getBytes("ISO-8859-1"));
            out.writeInt(0); out.writeInt(0);
            out.writeShort(2);
            out.writeInt(16); out.writeLong(madeUuid.getMostSignificantBits()); out.writeLong(madeUuid.getLeastSignificantBits());
            out.writeInt(8); out.writeLong(madeTsid);
            out.writeShort(-1);
            try (Statement st = conn.createStatement()) { st.execute("TRUNCATE ku"); }
            long n = copy.copyIn("COPY ku FROM STDIN (FORMAT BINARY)", new ByteArrayInputStream(bytes.toByteArray()));
            try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT id::uuid, tid::bigint FROM ku")) {
                rs.next();
                ok(n == 1 && madeUuid.equals(rs.getObject(1, UUID.class)) && rs.getLong(2) == madeTsid,
                   "COPY FROM STDIN (FORMAT BINARY) of client-made bytes", rs.getObject(1) + " " + rs.getLong(2));
            }
        });

        // Binary transfer: the README says leave it off. Off (the default),
        // every execution of a prepared statement reads the value; with it on
        // for these types' OIDs, pgjdbc's results go wrong once the statement
        // is server-prepared (seen: null from the second execution on).
        long ulidOid, tsidOid;
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT 'ulid'::regtype::oid, 'tsid'::regtype::oid")) {
            rs.next(); ulidOid = rs.getLong(1); tsidOid = rs.getLong(2);
        }
        conn.close();
        for (String options : new String[] {"?stringtype=unspecified&prepareThreshold=1",
                                            "?stringtype=unspecified&prepareThreshold=1&binaryTransferEnable=" + ulidOid + "," + tsidOid}) {
            boolean binary = options.contains("binaryTransfer");
            String what = binary ? "binary transfer on for ulid and tsid: a later execution reads null (why the README says leave it off)"
                                 : "binary transfer off: ten executions of one prepared statement all read the value";
            check(what, () -> {
                try (Connection c = connect(options);
                     PreparedStatement ps = c.prepareStatement("SELECT id, tid FROM orders WHERE id = ?")) {
                    List<String> seen = new ArrayList<>();
                    boolean allRight = true;
                    for (int i = 0; i < 10; i++) {
                        ps.setString(1, fId);
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            String got = rs.getString(1) + "/" + rs.getString(2);
                            seen.add(got);
                            allRight &= got.equals(fId + "/" + fTid);
                        }
                    }
                    ok(binary ? seen.contains("null/null") : allRight, what, seen);
                }
            });
        }
    }
}
