#!/usr/bin/env python3
"""Records the settings tables of a real ClickHouse into the stub's resources.

The stub accepts every setting the engine has, with the engine's type, default and description; those rows are
data taken from the engine, not written by hand. This asks a ClickHouse HTTP endpoint (the chDB oracle of
../shared/oracle/ or a server) for system.settings and system.merge_tree_settings, and for the values of every
enum-like setting type (the engine lists them when refusing a bad value), and writes three TSV files under
server-stub/src/main/resources/settings/:

  settings.tsv             name, type, default, readonly, alias_for, is_obsolete, tier, description
  merge_tree_settings.tsv  name, type, default, readonly, is_obsolete, tier, description
  setting_enums.tsv        type, error code, error name, multiple (1: a comma-separated list), then the allowed values in the engine's order

Each file starts with a '# ClickHouse <version>' line and a line naming the columns; fields are escaped as
ClickHouse's TabSeparated escapes them (\\t, \\n, \\\\). Python 3, standard library only.

    python3 tools/record_settings.py --url http://127.0.0.1:8231
"""
import argparse
import os
import re
import sys
import urllib.error
import urllib.request

# Types whose values the stub parses itself (numbers, bools, strings and the like), not enum-like lists.
SCALAR_TYPES = {"Bool", "UInt64", "UInt32", "Int64", "Int32", "Float", "Double", "String", "Seconds", "Milliseconds",
                "NonZeroUInt64", "UInt64Auto", "MaxThreads", "Char", "BoolAuto", "FloatAuto", "Map", "Timezone", "URI"}

BOGUS = "__no_such_value__"
REFUSAL = re.compile(r"Code: (\d+)\. DB::Exception: (?:Code: \d+\. DB::Exception: )?Unexpected value of (\w+): '"
                     + BOGUS + r"'\. Must be one of \[(.*?)\]\. \((\w+)\)")


def query(url, sql):
    """The engine's answer to sql as (ok, text)."""
    req = urllib.request.Request(url, data=sql.encode(), method="POST")
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return True, r.read().decode()
    except urllib.error.HTTPError as e:
        return False, e.read().decode()


def rows(url, sql):
    ok, text = query(url, sql + " FORMAT TabSeparated")
    if not ok:
        sys.exit("query failed: " + sql + "\n" + text)
    return [line.split("\t") for line in text.split("\n") if line]


def enum_values(url, setting, merge_tree):
    """Sets setting to a bogus value and reads the allowed list from the refusal: (code, name, values) or None."""
    if merge_tree:
        sql = ("CREATE TABLE record_settings_probe (k UInt8) ENGINE = MergeTree ORDER BY k SETTINGS "
               + setting + " = '" + BOGUS + "'")
    else:
        sql = "SELECT 1 SETTINGS " + setting + " = '" + BOGUS + "'"
    ok, text = query(url, sql)
    if ok:
        query(url, "DROP TABLE IF EXISTS record_settings_probe")
        return None
    m = REFUSAL.search(text)
    if not m:
        print("no value list for " + setting + ": " + text.strip(), file=sys.stderr)
        return None
    values = re.findall(r"'((?:[^'\\]|\\.)*)'", m.group(3))
    # a multi-valued type (join_algorithm) takes a comma-separated list of its values, and the empty list
    multi = "0"
    if not merge_tree and len(values) > 1:
        ok, _ = query(url, "SELECT 1 SETTINGS " + setting + " = '" + values[0] + "," + values[1] + "'")
        multi = "1" if ok else "0"
    return m.group(1), m.group(4), multi, values


def write(path, version, header, table):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("# ClickHouse " + version + "\n")
        f.write("\t".join(header) + "\n")
        for r in table:
            f.write("\t".join(r) + "\n")
    print("wrote %s (%d rows)" % (path, len(table)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", default="http://127.0.0.1:8231/")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--out", default=os.path.join(root, "server-stub", "src", "main", "resources", "settings"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    version = rows(args.url, "SELECT version()")[0][0]

    settings_cols = ["name", "type", "default", "readonly", "alias_for", "is_obsolete", "tier", "description"]
    settings = rows(args.url, "SELECT " + ", ".join("`%s`" % c for c in settings_cols) + " FROM system.settings ORDER BY name")
    write(os.path.join(args.out, "settings.tsv"), version, settings_cols, settings)

    mt_cols = ["name", "type", "default", "readonly", "is_obsolete", "tier", "description"]
    mt = rows(args.url, "SELECT " + ", ".join("`%s`" % c for c in mt_cols) + " FROM system.merge_tree_settings ORDER BY name")
    write(os.path.join(args.out, "merge_tree_settings.tsv"), version, mt_cols, mt)

    enums = {}
    for table, merge_tree in ((settings, False), (mt, True)):
        for r in table:
            name, typ = r[0], r[1]
            if typ in SCALAR_TYPES or typ in enums:
                continue
            found = enum_values(args.url, name, merge_tree)
            if found:
                enums[typ] = [typ, found[0], found[1], found[2]] + found[3]
    write(os.path.join(args.out, "setting_enums.tsv"), version, ["type", "code", "error", "multiple", "values..."],
          [enums[t] for t in sorted(enums)])


if __name__ == "__main__":
    main()
