#!/usr/bin/env python3
"""Re-records the expectations of a case file from a ClickHouse-compatible HTTP endpoint (the real engine, as a
rule: see server-stub/src/test/resources/oracle/ and docs/testing.md): every statement that has an expectation gets the
endpoint's TabSeparated answer (part names as P1, P2, ... as the conformance runner compares them) or its error
name as `!ERR NAME`; statements, comments and SET lines stay as they are. The case format is the conformance
runner's (../shared/conformance/run.py). Prints the new case; with --write replaces the file.

  python3 tools/record_case.py --url http://127.0.0.1:8199 server-stub/src/test/resources/golden/05_x.case --write
"""
import argparse, re, urllib.error, urllib.parse, urllib.request, uuid

PART = re.compile(r'^[A-Za-z0-9-]+_\d+_\d+_\d+(_\d+)?$')


def send(url, sql, params):
    req = urllib.request.Request(url + '/?' + urllib.parse.urlencode(params), data=sql.encode('utf-8'), method='POST')
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return 200, r.read().decode('utf-8', 'replace')
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode('utf-8', 'replace')


def canon(body):
    names, out = {}, []
    for line in [l for l in body.split('\n') if l != '']:
        cells = []
        for c in line.split('\t'):
            if PART.match(c):
                c = names.setdefault(c, 'P%d' % (len(names) + 1))
            cells.append(c)
        out.append('\t'.join(cells))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--url', required=True)
    ap.add_argument('--write', action='store_true')
    ap.add_argument('case')
    a = ap.parse_args()
    url = a.url.rstrip('/')
    lines = open(a.case, encoding='utf-8').read().split('\n')
    db = 'rec_' + uuid.uuid4().hex[:12]
    send(url, 'CREATE DATABASE ' + db, {})
    settings, out, i = {'database': db}, [], 0
    try:
        while i < len(lines):
            line = lines[i]
            if not line.startswith('> '):
                out.append(line)
                i += 1
                continue
            sql = line[2:].strip()
            out.append(line)
            i += 1
            while i < len(lines) and lines[i].startswith('>>'):
                sql += '\n' + lines[i][2:].strip()
                out.append(lines[i])
                i += 1
            expected = []
            while i < len(lines) and not lines[i].startswith('>') and not lines[i].startswith('#') and lines[i] != '':
                expected.append(lines[i])
                i += 1
            m = re.match(r'(?is)^SET\s+(\w+)\s*=\s*(.+?)\s*;?\s*$', sql)
            if m:
                settings[m.group(1)] = m.group(2).strip().strip("'")
                continue
            code, body = send(url, sql.rstrip().rstrip(';').replace('$DATABASE', db), settings)
            if not expected:
                continue
            if code != 200:
                names = re.findall(r'\(([A-Z][A-Z_0-9]+)\)', body)
                out.append('!ERR ' + (names[-1] if names else body.strip()[:80]))
            else:
                got = canon(body)
                out.extend(got if got else ['!ROWS'])
    finally:
        send(url, 'DROP DATABASE IF EXISTS ' + db, {})
    text = '\n'.join(out).rstrip('\n') + '\n'
    if a.write:
        open(a.case, 'w', encoding='utf-8').write(text)
    else:
        print(text)


if __name__ == '__main__':
    main()
