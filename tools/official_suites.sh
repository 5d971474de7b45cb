#!/usr/bin/env bash
# Runs the official clickhouse-java integration suites (jdbc-v2 and client-v2) with the stub as their server and prints
# passed / failed / skipped and the pass rate of each.
#
#   tools/official_suites.sh CLICKHOUSE_JAVA_DIR [client-v2] [jdbc-v2]
#
# CLICKHOUSE_JAVA_DIR is a checkout of github.com/ClickHouse/clickhouse-java at the release the project uses (the
# clickhouse-jdbc.version of pom.xml, tag v0.10.0). Nothing is fetched here: the checkout's Maven build runs offline,
# so its plugins and dependencies must already be in ~/.m2 (one online `mvn -Dj8 -DskipTests install -pl
# client-v2,jdbc-v2 -am` in the checkout brings them). The stub jar is built beforehand:
# `mvn -o -q -B package -pl server-stub -DskipTests -am`.
#
# The suites' external-server mode (ClickHouseServerForTest: -DclickhouseServer, -DclickhouseHTTPPort, TEST_DB_NAME)
# is what they run in: the stub gets the users of the suites' container configuration (users.d/users.xml), its TLS
# certificate (certs/localhost.crt and .key) on the HTTPS port, and the test database is created before the run, as
# the suites' CI does for an external server. The container's user_files directory, /var/lib/clickhouse/user_files,
# is the stub's --user-files-path with the suites' empty.csv in it, as the container mounts it (made for the run and
# removed after it, unless it existed).
#
# Environment: HTTP_PORT (18310), HTTPS_PORT (18311), STUB_JAR (server-stub/target/server-stub.jar), SUITE_TIMEOUT
# (seconds per suite, 3600), USER_FILES (/var/lib/clickhouse/user_files), JAVA_HOME (the running java's).
# Only the integration group is counted (the failsafe run; the suites' unit tests need no server and are skipped).
# Pass rate = passed / (passed + failed + skipped). Reports stay in each module's target/failsafe-reports, the tests
# that did not pass are listed in target/official-suites-not-passed.txt, Maven's output in target/official-suites.log.
set -euo pipefail

CHJAVA=${1:?usage: $0 CLICKHOUSE_JAVA_DIR [client-v2] [jdbc-v2]}
CHJAVA=$(cd "$CHJAVA" && pwd)
shift
SUITES=("$@")
[ ${#SUITES[@]} -gt 0 ] || SUITES=(client-v2 jdbc-v2)
HERE=$(cd "$(dirname "$0")/.." && pwd)
HTTP_PORT=${HTTP_PORT:-18310}
HTTPS_PORT=${HTTPS_PORT:-18311}
STUB_JAR=${STUB_JAR:-$HERE/server-stub/target/server-stub.jar}
SUITE_TIMEOUT=${SUITE_TIMEOUT:-3600}
USER_FILES=${USER_FILES:-/var/lib/clickhouse/user_files}
JAVA_HOME=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}
export JAVA_HOME
CONF=$CHJAVA/clickhouse-client/src/test/resources/containers/clickhouse-server
DB=clickhouse_java_test_stub
WORK=$(mktemp -d /tmp/official-suites.XXXXXX)

for f in "$STUB_JAR" "$CONF/users.d/users.xml" "$CONF/certs/localhost.crt" "$CONF/certs/localhost.key"; do
    [ -f "$f" ] || { echo "missing: $f" >&2; exit 2; }
done

# the users of the suites' users.xml that have a password element, as name:password
USERS=$(python3 - "$CONF/users.d/users.xml" <<'EOF'
import sys, xml.etree.ElementTree as ET
for u in ET.parse(sys.argv[1]).getroot().find('users'):
    p = u.find('password')
    if p is not None:
        print('--user=%s:%s' % (u.tag, p.text or ''))
EOF
)

MADE_USER_FILES=
if [ ! -d "$USER_FILES" ]; then
    mkdir -p "$USER_FILES"
    MADE_USER_FILES=yes
fi
MADE_EMPTY_CSV=
if [ ! -e "$USER_FILES/empty.csv" ]; then
    cp "$CHJAVA/clickhouse-client/src/test/resources/empty.csv" "$USER_FILES/empty.csv"
    MADE_EMPTY_CSV=yes
fi

STUB_PID=
cleanup() {
    if [ -n "$STUB_PID" ]; then
        kill "$STUB_PID" 2>/dev/null || true
        wait "$STUB_PID" 2>/dev/null || true
    fi
    [ -z "$MADE_EMPTY_CSV" ] || rm -f "$USER_FILES/empty.csv"
    [ -z "$MADE_USER_FILES" ] || rmdir "$USER_FILES" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# shellcheck disable=SC2086
java -jar "$STUB_JAR" --http-port="$HTTP_PORT" --https-port="$HTTPS_PORT" --data-dir="$WORK/data" \
    --https-certificate="$CONF/certs/localhost.crt" --https-private-key="$CONF/certs/localhost.key" \
    --user-files-path="$USER_FILES" $USERS > "$WORK/stub.log" 2>&1 &
STUB_PID=$!
for _ in $(seq 1 120); do
    grep -q '^Ready:' "$WORK/stub.log" && break
    kill -0 "$STUB_PID" 2>/dev/null || { cat "$WORK/stub.log" >&2; exit 1; }
    sleep 0.5
done
grep -q '^Ready:' "$WORK/stub.log" || { echo "the stub did not start" >&2; exit 1; }
curl -sf -u default:test_default_password "http://127.0.0.1:$HTTP_PORT/" --data-binary "CREATE DATABASE IF NOT EXISTS $DB" > /dev/null

echo "building the suites (offline)..."
(cd "$CHJAVA" && mvn -o -q -B -T1 -Dj8 -Dmaven.javadoc.skip=true -DskipTests install -pl client-v2,jdbc-v2 -am) > "$WORK/build.log" 2>&1 \
    || { tail -50 "$WORK/build.log" >&2; exit 1; }

SUMMARY=""
for suite in "${SUITES[@]}"; do
    echo "running $suite against the stub on port $HTTP_PORT..."
    rm -rf "$CHJAVA/$suite/target/failsafe-reports"
    RC=0
    (cd "$CHJAVA" && TEST_DB_NAME=$DB timeout "$SUITE_TIMEOUT" mvn -o -B -T1 -Dj8 -Dmaven.javadoc.skip=true -DskipUTs=true \
        -Dmaven.test.failure.ignore=true -DclickhouseServer=127.0.0.1 -DclickhouseHTTPPort="$HTTP_PORT" -pl "$suite" verify) \
        > "$WORK/$suite.log" 2>&1 || RC=$?
    [ "$RC" = 0 ] || { echo "  maven ended with $RC:"; tail -5 "$WORK/$suite.log"; }
    mkdir -p "$CHJAVA/$suite/target" && cp "$WORK/$suite.log" "$CHJAVA/$suite/target/official-suites.log"
    LINE=$(python3 - "$suite" "$CHJAVA/$suite/target" <<'EOF'
import sys, os, xml.etree.ElementTree as ET
suite, target = sys.argv[1], sys.argv[2]
path = os.path.join(target, 'failsafe-reports', 'testng-results.xml')
if not os.path.exists(path):
    print('%s: no results (%s missing)' % (suite, path))
    sys.exit()
counts = {'PASS': 0, 'FAIL': 0, 'SKIP': 0}
others = []
for cls in ET.parse(path).getroot().iter('class'):
    for m in cls.iter('test-method'):
        if m.get('is-config') == 'true':
            continue
        counts[m.get('status')] = counts.get(m.get('status'), 0) + 1
        if m.get('status') != 'PASS':
            params = [p.findtext('value', '').strip() for p in m.iter('param')]
            others.append('%s %s.%s(%s)' % (m.get('status'), cls.get('name'), m.get('name'), ', '.join(params)))
with open(os.path.join(target, 'official-suites-not-passed.txt'), 'w') as f:
    f.write('\n'.join(sorted(others)) + '\n')
total = sum(counts.values())
print('%s: passed %d, failed %d, skipped %d of %d: %.1f%%' % (suite, counts['PASS'], counts['FAIL'], counts['SKIP'], total,
      100.0 * counts['PASS'] / total if total else 0))
EOF
)
    echo "  $LINE"
    SUMMARY="$SUMMARY$LINE"$'\n'
done
echo
echo "$SUMMARY"
