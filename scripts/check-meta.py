#!/usr/bin/env python3
"""META.json against the PGXN Meta Spec 1.0.0 (https://pgxn.org/spec/), offline.

    python3 scripts/check-meta.py [DIST_ROOT]

DIST_ROOT (default .) is the top of a checkout or of an unpacked distribution:
every file META.json names (provides.*.file, provides.*.docfile) must exist
under it. Prints one line per problem and exits 1 if there is any, otherwise
one "ok" line. The keys and value rules are the spec's; resources, when
present, must be well-formed URLs (nothing here can reach the network to see
that they answer, so the project lists none it has not got).
"""
import json
import os
import re
import sys

SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+)?$")
# A version range: "0", a version, or comma-separated comparisons (">= 1.2.0, < 2.0.0").
RANGE_PART = re.compile(r"^(==|!=|>=|<=|>|<)?\s*(\d+(\.\d+){0,2}(-[0-9A-Za-z-]+)?)$")
URL = re.compile(r"^(https?|git|svn|ssh)://[^\s/]+\S*$")
LICENSES = {"agpl_3", "apache_1_1", "apache_2_0", "artistic_1", "artistic_2", "bsd", "freebsd", "gfdl_1_2",
            "gfdl_1_3", "gpl_1", "gpl_2", "gpl_3", "lgpl_2_1", "lgpl_3_0", "mit", "mozilla_1_0", "mozilla_1_1",
            "openssl", "perl_5", "postgresql", "qpl_1_0", "ssleay", "sun", "zlib", "open_source", "restricted",
            "unrestricted", "unknown"}
PHASES = {"configure", "build", "runtime", "test", "develop"}
RELATIONS = {"requires", "recommends", "suggests", "conflicts"}
REQUIRED = ["name", "abstract", "maintainer", "license", "provides", "meta-spec", "version"]


def problems(meta, root):
    for key in REQUIRED:
        if key not in meta:
            yield "missing required key %r" % key
    name = meta.get("name", "")
    if not isinstance(name, str) or not re.match(r"^[^\s/\\]{2,}$", name):
        yield "name %r: at least two characters, no whitespace or slash" % name
    if not isinstance(meta.get("abstract", ""), str) or not meta.get("abstract"):
        yield "abstract must be a non-empty string"
    for key in ("description", "generated_by"):
        if key in meta and not isinstance(meta[key], str):
            yield "%s must be a string" % key
    if not SEMVER.match(str(meta.get("version", ""))):
        yield "version %r is not a semantic version" % meta.get("version")
    spec = meta.get("meta-spec", {})
    if not isinstance(spec, dict) or spec.get("version") != "1.0.0":
        yield "meta-spec.version must be 1.0.0, is %r" % (spec.get("version") if isinstance(spec, dict) else spec)
    maintainer = meta.get("maintainer")
    if not (isinstance(maintainer, str) and maintainer) and not (
            isinstance(maintainer, list) and maintainer and all(isinstance(m, str) and m for m in maintainer)):
        yield "maintainer must be a string or a non-empty list of strings"
    license_ = meta.get("license")
    if isinstance(license_, str):
        if license_ not in LICENSES:
            yield "license %r is not one the spec names" % license_
    elif isinstance(license_, list):
        for item in license_:
            if item not in LICENSES:
                yield "license %r is not one the spec names" % item
    elif isinstance(license_, dict):
        for item, url in license_.items():
            if not URL.match(str(url)):
                yield "license %r: %r is not a URL" % (item, url)
    else:
        yield "license must be a string, a list or an object"

    provides = meta.get("provides")
    if not isinstance(provides, dict) or not provides:
        yield "provides must name at least one extension"
        provides = {}
    for ext, info in provides.items():
        if not isinstance(info, dict):
            yield "provides.%s must be an object" % ext
            continue
        for key in ("file", "version"):
            if key not in info:
                yield "provides.%s.%s is required" % (ext, key)
        if "version" in info and not SEMVER.match(str(info["version"])):
            yield "provides.%s.version %r is not a semantic version" % (ext, info["version"])
        for key in ("file", "docfile"):
            if key in info and not os.path.isfile(os.path.join(root, info[key])):
                yield "provides.%s.%s %r: no such file in %s" % (ext, key, info[key], root)
        for key in info:
            if key not in ("file", "version", "abstract", "docfile") and not key.lower().startswith("x_"):
                yield "provides.%s: unknown key %r" % (ext, key)

    status = meta.get("release_status", "stable")
    if status not in ("stable", "testing", "unstable"):
        yield "release_status %r must be stable, testing or unstable" % status
    if "release_status" not in meta:
        yield "release_status is not set (PGXN assumes stable; say it)"

    prereqs = meta.get("prereqs", {})
    if not isinstance(prereqs, dict):
        yield "prereqs must be an object"
        prereqs = {}
    for phase, relations in prereqs.items():
        if phase not in PHASES:
            yield "prereqs: unknown phase %r" % phase
            continue
        if not isinstance(relations, dict):
            yield "prereqs.%s must be an object of relations" % phase
            continue
        for relation, needs in relations.items():
            if relation not in RELATIONS:
                yield "prereqs.%s: unknown relation %r" % (phase, relation)
                continue
            if not isinstance(needs, dict):
                yield "prereqs.%s.%s must be an object of names and versions" % (phase, relation)
                continue
            for what, version in needs.items():
                parts = [p.strip() for p in str(version).split(",")]
                if not all(p == "0" or RANGE_PART.match(p) for p in parts):
                    yield "prereqs.%s.%s.%s: %r is not a version range" % (phase, relation, what, version)

    resources = meta.get("resources", {})
    if not isinstance(resources, dict):
        yield "resources must be an object"
        resources = {}
    for key, value in resources.items():
        if key == "homepage" and not URL.match(str(value)):
            yield "resources.homepage %r is not a URL" % value
        elif key in ("bugtracker", "repository") and not isinstance(value, dict):
            yield "resources.%s must be an object" % key
        elif key in ("bugtracker", "repository"):
            for sub, url in value.items():
                if sub in ("web", "url") and not URL.match(str(url)):
                    yield "resources.%s.%s %r is not a URL" % (key, sub, url)
                elif sub == "mailto" and "@" not in str(url):
                    yield "resources.%s.mailto %r is not an address" % (key, url)
        elif key not in ("homepage", "bugtracker", "repository") and not key.lower().startswith("x_"):
            yield "resources: unknown key %r" % key

    tags = meta.get("tags", [])
    if not isinstance(tags, list):
        yield "tags must be a list"
        tags = []
    for tag in tags:
        if not isinstance(tag, str) or not 0 < len(tag) <= 255 or "/" in tag:
            yield "tag %r: 1-255 characters, no slash" % tag


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    try:
        with open(os.path.join(root, "META.json")) as f:
            meta = json.load(f)
    except (OSError, ValueError) as e:
        print("   FAIL META.json: %s" % e)
        return 1
    found = list(problems(meta, root))
    for p in found:
        print("   FAIL META.json: %s" % p)
    if not found:
        print("   ok   META.json is valid PGXN meta-spec 1.0.0 (%s %s, %s)"
              % (meta["name"], meta["version"], meta.get("release_status")))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
