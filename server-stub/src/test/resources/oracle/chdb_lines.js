// The real ClickHouse engine (chDB, the npm package `chdb`) as a line-oriented child process for the differential
// tests: each stdin line is a JSON request {"sql": "...", "settings": {...}, "database": "..."}, each stdout line the
// answer: "OK " + base64 of the TabSeparated output, or "ERR " + base64 of the engine's "Code: N. DB::Exception: ...
// (NAME)". The first line is "READY " + base64 of version(), or "FATAL " + base64 of why not. One statement at a
// time, one session, a temporary data directory. Run with NODE_PATH pointing at the node_modules that hold chdb.
const readline = require('readline');
let Session;
try {
  ({ Session } = require('chdb'));
} catch (e) {
  process.stdout.write('FATAL ' + Buffer.from('chdb is not installed: ' + e.message).toString('base64') + '\n');
  process.exit(2);
}
const session = new Session();
const ident = /^[A-Za-z_][A-Za-z0-9_]*$/;
const quote = (v) => "'" + String(v).replace(/\\/g, '\\\\').replace(/'/g, "\\'") + "'";

function answer(req) {
  const applied = [];
  try {
    for (const [k, v] of Object.entries(req.settings || {})) {
      if (!ident.test(k)) throw new Error('Code: 115. DB::Exception: bad setting name ' + k + ' (UNKNOWN_SETTING)');
      // remember the value in force: chDB's SET k = DEFAULT does not restore every default (26.7 leaves some at older values)
      const [prev, changed] = String(session.query('SELECT value, changed FROM system.settings WHERE name = ' + quote(k), 'TSV'))
        .replace(/\n$/, '').split('\t');
      session.query('SET ' + k + ' = ' + quote(v), 'TSV');
      applied.push([k, changed === '1' ? quote(prev) : 'DEFAULT']);
    }
    if (req.database) session.query('USE ' + req.database, 'TSV');
    return { ok: String(session.query(req.sql, 'TabSeparated')) };
  } catch (e) {
    const m = String((e && e.message) || e);
    const i = m.indexOf('Code: ');
    return { error: i >= 0 ? m.slice(i).trim() : m.trim() };
  } finally {
    for (const [k, prev] of applied) {
      try { session.query('SET ' + k + ' = ' + prev, 'TSV'); } catch (_) { /* the next request sets what it needs */ }
    }
    try { session.query('USE default', 'TSV'); } catch (_) { /* idem */ }
  }
}

const b64 = (t) => Buffer.from(t, 'utf8').toString('base64');
process.stdout.write('READY ' + b64(String(session.query('SELECT version()', 'TSV')).trim()) + '\n');
const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  if (!line.trim()) return;
  let out;
  try {
    out = answer(JSON.parse(line));
  } catch (e) {
    out = { error: 'bad request: ' + e.message };
  }
  process.stdout.write((out.error !== undefined ? 'ERR ' + b64(out.error) : 'OK ' + b64(out.ok)) + '\n');
});
rl.on('close', () => process.exit(0));
