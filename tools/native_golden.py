#!/usr/bin/env python3
"""Records the real engine's Native output for the stub's golden test.

Reads server-stub/src/test/resources/native/queries.sql (one statement a line; a line starting with '> ' is setup,
run for its effect; '#' starts a comment) and writes native/golden.tsv next to it: per SELECT the statement, a tab,
and the bytes the engine answers with `FORMAT Native`, as upper-case hex, or, above 4096 bytes,
`sha256:<digest>:<length>`. The engine is the chDB oracle over HTTP (../shared/oracle/chdb_http.js):

    NODE_PATH=/tmp/chdb-oracle/node_modules node /work/shared/oracle/chdb_http.js --port 8198 &
    python3 tools/native_golden.py http://127.0.0.1:8198/
"""
import hashlib
import os
import sys
import urllib.request

HERE = os.path.join(os.path.dirname(__file__), '..', 'server-stub', 'src', 'test', 'resources', 'native')
LIMIT = 4096


def post(url, sql):
    req = urllib.request.Request(url, data=sql.encode('utf-8'), method='POST')
    with urllib.request.urlopen(req) as r:
        return r.read()


def main():
    url = sys.argv[1] if len(sys.argv) > 1 else 'http://127.0.0.1:8198/'
    out = []
    with open(os.path.join(HERE, 'queries.sql'), encoding='utf-8') as f:
        lines = [l.rstrip('\n') for l in f]
    for line in lines:
        if line.startswith('> '):
            first = line[2:].split()
            if first[:2] == ['CREATE', 'TABLE']:
                post(url, 'DROP TABLE IF EXISTS ' + first[2])
            post(url, line[2:])
            continue
        if not line.strip() or line.startswith('#'):
            continue
        body = post(url, line + ' FORMAT Native')
        enc = body.hex().upper() if len(body) <= LIMIT else 'sha256:%s:%d' % (hashlib.sha256(body).hexdigest(), len(body))
        out.append(line + '\t' + enc)
    with open(os.path.join(HERE, 'golden.tsv'), 'w', encoding='utf-8') as f:
        f.write('# The Native bytes ClickHouse 26.7 (chDB 3.4.0) answers for queries.sql; tools/native_golden.py writes it.\n')
        f.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
