#!/usr/bin/env python3
"""Records the columns of a real ClickHouse's system tables into the stub's resources.

The stub's system tables have the engine's columns, in the engine's order, with its types, ALIAS and MATERIALIZED
kinds and comments; those are data taken from the engine, not written by hand. This asks a ClickHouse HTTP endpoint
(the chDB oracle of ../shared/oracle/ or a server) for system.columns of the system database and writes one TSV file,
server-stub/src/main/resources/system/columns.tsv:

  table, name, type, default_kind, default_expression, comment   (one row per column, in each table's order)

It starts with a '# ClickHouse <version>' line and a line naming the columns; fields are escaped as ClickHouse's
TabSeparated escapes them (\\t, \\n, \\\\, \\'). The tables a server has and the library engine lacks (query_log,
part_log, zookeeper) are kept by hand in server_columns.tsv beside it, which names its source. Python 3, standard
library only.

    python3 tools/record_system_tables.py --url http://127.0.0.1:8231
"""
import argparse
import os
import sys
import urllib.error
import urllib.request

COLUMNS = ["table", "name", "type", "default_kind", "default_expression", "comment"]


def rows(url, sql):
    req = urllib.request.Request(url, data=(sql + " FORMAT TabSeparated").encode(), method="POST")
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            text = r.read().decode()
    except urllib.error.HTTPError as e:
        sys.exit("query failed: " + sql + "\n" + e.read().decode())
    return [line.split("\t") for line in text.split("\n") if line]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", default="http://127.0.0.1:8231/")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--out", default=os.path.join(root, "server-stub", "src", "main", "resources", "system", "columns.tsv"))
    args = ap.parse_args()
    version = rows(args.url, "SELECT version()")[0][0]
    table = rows(args.url, "SELECT " + ", ".join("`%s`" % c for c in COLUMNS)
                 + " FROM system.columns WHERE database = 'system' ORDER BY table, position")
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        f.write("# ClickHouse " + version + "\n")
        f.write("\t".join(COLUMNS) + "\n")
        for r in table:
            f.write("\t".join(r) + "\n")
    print("wrote %s (%d columns of %d tables)" % (args.out, len(table), len({r[0] for r in table})))


if __name__ == "__main__":
    main()
