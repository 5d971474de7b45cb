#!/usr/bin/env python3
"""Records the engine's information_schema views and its system.collations into the stub's resources.

ClickHouse's information_schema (and INFORMATION_SCHEMA) databases hold views over system tables; the stub serves the
same views, and their definitions are data taken from the engine, not written by hand. This asks a ClickHouse HTTP
endpoint (the chDB oracle of ../shared/oracle/ or a server) for SHOW CREATE TABLE of each view of information_schema
and writes what it answers, one file a view:

  server-stub/src/main/resources/information_schema/<view>.sql

each after a '-- ClickHouse <version>' line; and the rows of system.collations (which the collations view reads) as

  server-stub/src/main/resources/system/collations.tsv   (name, language; after a '# ClickHouse <version>' line and
                                                          a line naming the columns, fields TabSeparated-escaped)

Python 3, standard library only.

    python3 tools/record_information_schema.py --url http://127.0.0.1:8199
"""
import argparse
import os
import sys
import urllib.error
import urllib.request

VIEWS = ["character_sets", "collations", "columns", "engines", "key_column_usage", "referential_constraints",
         "schemata", "statistics", "tables", "views"]


def answer(url, sql):
    req = urllib.request.Request(url, data=sql.encode(), method="POST")
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.read().decode()
    except urllib.error.HTTPError as e:
        sys.exit("query failed: " + sql + "\n" + e.read().decode())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", default="http://127.0.0.1:8199/")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    resources = os.path.join(root, "server-stub", "src", "main", "resources")
    args = ap.parse_args()
    version = answer(args.url, "SELECT version()").strip()
    out = os.path.join(resources, "information_schema")
    os.makedirs(out, exist_ok=True)
    for v in VIEWS:
        text = answer(args.url, "SHOW CREATE TABLE information_schema.`%s` FORMAT TSVRaw" % v)
        if not text.startswith("CREATE VIEW information_schema." + v + "\n"):
            sys.exit("unexpected answer for information_schema.%s:\n%s" % (v, text))
        with open(os.path.join(out, v + ".sql"), "w", encoding="utf-8", newline="\n") as f:
            f.write("-- ClickHouse " + version + "\n" + text.rstrip("\n") + "\n")
    collations = answer(args.url, "SELECT name, language FROM system.collations FORMAT TabSeparated")
    with open(os.path.join(resources, "system", "collations.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("# ClickHouse " + version + "\n" + "name\tlanguage\n" + collations)
    print("wrote %d views to %s and %d collations" % (len(VIEWS), out, collations.count("\n")))


if __name__ == "__main__":
    main()
