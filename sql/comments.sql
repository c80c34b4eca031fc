-- Every member object of the extension has a comment, as core's objects do
-- (\do+, \df+, \dC+ show it). The counts prove the query sees the members.
SELECT d.classid::regclass AS catalog, count(*) AS members,
       count(*) FILTER (WHERE obj_description(d.objid, d.classid::regclass::text) IS NULL) AS without_comment
FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
WHERE e.extname = 'ulid_tsid' AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  -- array types are members on some majors only (they have comments anyway)
  AND NOT (d.classid = 'pg_type'::regclass AND d.objid IN (SELECT oid FROM pg_type WHERE typcategory = 'A'))
GROUP BY 1 ORDER BY d.classid::regclass::text;
-- The ones without, by name: this list must be empty.
SELECT pg_describe_object(d.classid, d.objid, 0) AS without_comment
FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
WHERE e.extname = 'ulid_tsid' AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND obj_description(d.objid, d.classid::regclass::text) IS NULL
ORDER BY 1;
-- What \do shows for the operators users meet first.
SELECT oprleft::regtype, oprright::regtype, oprname, obj_description(oid, 'pg_operator')
FROM pg_operator WHERE oprname = '=' AND (oprleft, oprright) IN
  (('ulid'::regtype, 'ulid'::regtype), ('ulid'::regtype, 'uuid'::regtype), ('tsid'::regtype, 'int8'::regtype))
ORDER BY oprleft::regtype::text, oprright::regtype::text;
