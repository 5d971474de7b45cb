#!/usr/bin/env python3
"""Records the function examples corpus from the engine (ClickHouse 26.7 as chDB, ../shared/oracle/chdb_http.js).

ClickHouse documents every function inside system.functions: its `examples` column holds ```sql title=Query blocks
with the statements of each example. This tool runs every block's statements on the engine, twice, each block in a
fresh database named `examples`, and writes what the engine answered to server-stub/src/test/resources/functions/examples.tsv:

    function <TAB> category <TAB> block <TAB> statement <TAB> answer

one line per statement, the fields escaped as TabSeparated escapes them (\\n, \\t, \\\\). An answer is the
TabSeparated result without its last newline, or `Code: N NAME` for an error, as EngineAnswers compares them. A
`SET name = value` statement becomes a URL parameter of the block's later statements (the answer `SET`), since the
HTTP interface keeps no session. A function whose two runs answer differently (random numbers, the clock, the
machine), whose answers hold today's date or this machine's name, or whose examples call the clock, chance or the
process (now(), rand(), tid(), ...: ENVIRONMENT) is listed as
`function <TAB> category <TAB> - <TAB> nondeterministic` and not compared; so is one with a block that takes longer
than --slow seconds (`slow`).

FunctionExamplesTest runs the corpus on the stub (see docs/testing.md).

  NODE_PATH=/tmp/chdb-oracle/node_modules node ../shared/oracle/chdb_http.js --port 8199 &
  python3 tools/record_function_examples.py --url http://127.0.0.1:8199
"""
import argparse, datetime, json, os, re, socket, time, urllib.error, urllib.parse, urllib.request

OUT = os.path.join(os.path.dirname(__file__), '..', 'server-stub', 'src', 'test', 'resources', 'functions',
                   'examples.tsv')
BLOCK = re.compile(r'```sql[^\n]*\n(.*?)```', re.S)
SET = re.compile(r'^\s*SET\s+(\w+)\s*=\s*(.+?)\s*$', re.S | re.I)
TIMED_OUT = '(no answer in time)'
CODE = re.compile(r'^Code: (\d+)')
# calls whose answer depends on the clock, chance or the running process and machine, not on the arguments: an example
# that makes one is not compared, even when its two runs happened to agree (today's date, a thread id)
ENVIRONMENT = re.compile(r'\b(now|now64|today|yesterday|nowInBlock|nowInBlock64|localtimestamp|current_timestamp|'
                         r'rand\w*|generateUUIDv\d|generateSnowflakeID|tid|buildId|serverUUID|uptime|filesystem\w+|'
                         r'getOSKernelVersion|tcpPort|getServerPort|queryID|initialQueryID|initialQueryStartTime|'
                         r'currentQueryID|connectionId|hostName|FQDN|addressTo\w+|transactionID|transactionLatestSnapshot|'
                         r'transactionOldestSnapshot|showCertificate|zookeeperSessionUptime)\s*\(|'
                         r'\b(timezone|serverTimezone)\s*\(\s*\)', re.I)  # the machine's zone, where no session zone is set
NAME = re.compile(r'\(([A-Z][A-Z_0-9]+)\)')


def send(url, sql, params, timeout=300):
    req = urllib.request.Request(url + '/?' + urllib.parse.urlencode(params), data=sql.encode('utf-8'),
                                 method='POST')
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.read().decode('utf-8', 'replace')
    except urllib.error.HTTPError as e:
        return e.read().decode('utf-8', 'replace')
    except TimeoutError:
        return TIMED_OUT


def recorded(body):
    m = CODE.match(body)
    if m:
        names = NAME.findall(body)
        return 'Code: %s %s' % (m.group(1), names[-1] if names else None)
    return body[:-1] if body.endswith('\n') else body


def statements(block):
    """The statements of a block: split at `;` outside quotes and comments; empty ones dropped."""
    out, cur, i, quote = [], [], 0, None
    while i < len(block):
        c = block[i]
        if quote:
            cur.append(c)
            if c == '\\' and i + 1 < len(block):
                cur.append(block[i + 1])
                i += 1
            elif c == quote:
                quote = None
        elif c in '\'"`':
            quote = c
            cur.append(c)
        elif block.startswith('--', i):
            j = block.find('\n', i)
            j = len(block) if j < 0 else j
            cur.append(block[i:j])
            i = j
            continue
        elif c == ';':
            out.append(''.join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    out.append(''.join(cur))
    result = []
    for s in out:
        lines = [l for l in s.strip().split('\n')]
        body = '\n'.join(l for l in lines if not l.strip().startswith('--')).strip()
        if body:
            result.append(s.strip())
    return result


def run_block(url, db, stmts):
    # clickhouse-local's default, set explicitly: a bare expression (factorial(10)) is a SELECT
    params, answers = {'database': db, 'implicit_select': '1'}, []
    for s in stmts:
        m = SET.match(s)
        if m and ',' not in m.group(2):
            params[m.group(1)] = m.group(2).strip().strip("'")
            answers.append('SET')
            continue
        answers.append(recorded(send(url, s, params)))
    return answers


def escape(s):
    return s.replace('\\', '\\\\').replace('\t', '\\t').replace('\n', '\\n')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--url', required=True)
    ap.add_argument('--out', default=OUT)
    ap.add_argument('--slow', type=float, default=5.0)
    ap.add_argument('--only', help='a comma-separated list of functions to record (for a look, not --out)')
    a = ap.parse_args()
    url = a.url.rstrip('/')
    rows = [json.loads(l) for l in send(url, "SELECT name, categories, examples FROM system.functions "
                                             "WHERE examples != '' ORDER BY name FORMAT JSONEachRow", {}).splitlines()]
    only = set(a.only.split(',')) if a.only else None
    chosen = []
    for row in rows:
        if only and row['name'] not in only:
            continue
        blocks = [statements(b) for b in BLOCK.findall(row['examples'])]
        chosen.append((row['name'], row['categories'] or 'Other', [b for b in blocks if b]))
    # two passes over every function, so that the two runs of one example are far apart in time (the clock)
    runs, slow = [{}, {}], set()
    for attempt in range(2):
        for name, category, blocks in chosen:
            answers = []
            for b in blocks:
                db = 'examples'
                send(url, 'CREATE DATABASE ' + db, {})
                start = time.time()
                answers.append(run_block(url, db, b))
                if time.time() - start > a.slow or TIMED_OUT in answers[-1]:
                    slow.add(name)
                send(url, 'DROP DATABASE ' + db + ' SYNC', {})
            runs[attempt][name] = answers
        time.sleep(1.5)
    # answers that hold this machine's name or today's date would not hold on another machine or another day
    today = datetime.date.today()
    host = socket.gethostname()
    local = [today.isoformat(), (today - datetime.timedelta(days=1)).isoformat(),
             (today + datetime.timedelta(days=1)).isoformat()]
    lines = []
    for name, category, blocks in chosen:
        text = json.dumps(runs[0][name], ensure_ascii=False)
        cells = set(c for answers in runs[0][name] for ans in answers for c in re.split('[\t\n]', ans))
        environment = any(ENVIRONMENT.search(st) for b in blocks for st in b)
        if runs[0][name] != runs[1][name] or name in slow or any(m in text for m in local) or host in cells or environment:
            lines.append('\t'.join([name, category, '-', 'slow' if name in slow else 'nondeterministic', '']))
            continue
        for k, (b, answers) in enumerate(zip(blocks, runs[0][name])):
            for s, ans in zip(b, answers):
                lines.append('\t'.join([name, category, str(k + 1), escape(s), escape(ans)]))
    if only:
        print('\n'.join(lines))
        return
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')
    print('%d functions, %d lines -> %s' % (len(rows), len(lines), a.out))


if __name__ == '__main__':
    main()
