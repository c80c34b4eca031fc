-- Fixture for scripts/check-sql-names.py: each statement below has exactly the
-- findings its comment names; the sql_names suite requires all of them found.
CREATE TYPE widget;
CREATE FUNCTION widget_eq(widget, widget) RETURNS bool AS 'MODULE_PATHNAME' LANGUAGE C;
-- 2 findings: unqualified format() and current_schema() (0.3.0's DO block)
DO $$
BEGIN
  EXECUTE format('COMMENT ON FUNCTION %I.f() IS %L', current_schema(), 'x');
END
$$;
-- 2 findings: current_setting() and the operator <
DO $$ BEGIN IF current_setting('server_version_num')::int < 180000 THEN NULL; END IF; END $$;
-- 0 findings: all qualified
DO $$ BEGIN IF pg_catalog.current_setting('x')::int OPERATOR(pg_catalog.<) 1 THEN NULL; END IF; END $$;
-- 1 finding: a cast to an unqualified type in executable code
DO $$ BEGIN PERFORM 'x'::text; END $$;
-- 2 findings: RESTRICT and JOIN bound to core functions without pg_catalog
CREATE OPERATOR = (LEFTARG = widget, RIGHTARG = widget, FUNCTION = widget_eq,
    COMMUTATOR = =, RESTRICT = eqsel, JOIN = pg_catalog.eqjoinsel);
-- 1 finding: an SQL function body calling lower()
CREATE FUNCTION widget_name(widget) RETURNS text LANGUAGE sql AS $$ SELECT lower('W') $$;
-- 2 findings: a core FUNCTION member and an OPERATOR member on core types
CREATE OPERATOR CLASS widget_ops FOR TYPE widget USING btree AS
    OPERATOR 1 < (int8, int8), FUNCTION 4 btequalimage(oid), FUNCTION 1 widget_eq(widget, widget);
-- 1 finding: a DDL string run by EXECUTE binds a core function unqualified
DO $$ BEGIN EXECUTE 'ALTER OPERATOR = (widget, widget) SET (RESTRICT = neqsel)'; END $$;
-- 1 finding: a support function that core also has (pg_catalog's would win)
CREATE FUNCTION uuidv7() RETURNS uuid AS 'MODULE_PATHNAME' LANGUAGE C;
ALTER FUNCTION widget_eq(widget, widget) SUPPORT uuidv7;
