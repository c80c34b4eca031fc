-- pgbench script: one transaction inserts :batch rows (~100 bytes of payload
-- each); the key comes from the column's DEFAULT. Run with -D batch=N.
INSERT INTO bench_rows (n, payload)
SELECT g, repeat('x', 96) FROM generate_series(1, :batch) AS g;
