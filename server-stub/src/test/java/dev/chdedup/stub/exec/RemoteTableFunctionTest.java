package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import org.junit.jupiter.api.Test;

/**
 * remote, remoteSecure, cluster and clusterAllReplicas: their arguments and address patterns read as the engine reads
 * them (with its errors), an address nothing answers on failing as the engine fails to reach it, and an address of this
 * server (localhost, a loopback address, no port, a default port or the server's own port) reading the local table, as
 * cluster('default', ...) does when no cluster default is defined. The engine as a library listens on no port, so it
 * answers only for the failures; reads over several servers are ReadFromRemoteTest's.
 */
class RemoteTableFunctionTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT * FROM remote('127.0.0.1:1', system.one)", "Code: 519 NO_REMOTE_SHARD_AVAILABLE"},
            {"SELECT * FROM remote('127.0.0.1:1', 'system', 'one')", "Code: 519 NO_REMOTE_SHARD_AVAILABLE"},
            {"SELECT * FROM remote('127.0.0.1:1', system, one)", "Code: 519 NO_REMOTE_SHARD_AVAILABLE"},
            {"SELECT * FROM remote('127.0.0.1:1', system.one, 'default', '')", "Code: 519 NO_REMOTE_SHARD_AVAILABLE"},
            {"SELECT * FROM remoteSecure('127.0.0.1:1', system.one)", "Code: 519 NO_REMOTE_SHARD_AVAILABLE"},
            {"SELECT * FROM remote('nonexistent.invalid:9000', system.one)", "Code: 519 NO_REMOTE_SHARD_AVAILABLE"},
            {"SELECT * FROM remote()", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT * FROM cluster('nope', system.one)", "Code: 701 CLUSTER_DOESNT_EXIST"},
            {"SELECT * FROM clusterAllReplicas('nope', system.one)", "Code: 701 CLUSTER_DOESNT_EXIST"},
            {"SELECT * FROM remote('127.0.0.1:1|127.0.0.1:2', system.one)", "Code: 519 NO_REMOTE_SHARD_AVAILABLE"},
            {"SELECT * FROM remote('127.0.0.{1..2}:1', system.one)", "Code: 519 NO_REMOTE_SHARD_AVAILABLE"},
            {"SELECT * FROM remote('127.0.0.{1..}:1', system.one)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT * FROM remote('127.0.0.{1:1', system.one)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT * FROM remote('{1..2000}', system.one)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT * FROM remote('', system.one)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT * FROM remote('[::1', system.one)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT * FROM remote('a:b', system.one)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT * FROM remote('a:70000', system.one)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT * FROM remote('[::1]x', system.one)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT * FROM remote(concat('a', 'b'), system.one)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT * FROM remote('a', system.one, 1, 2, 3)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT * FROM remote('a', system.one, 'u', 'p', rand(), 1)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT * FROM remote('a', 't')", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT * FROM remote('a', '')", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT * FROM remote('a', 'a.b.c')", "Code: 62 SYNTAX_ERROR"},
            {"SELECT * FROM remote('a', '.b')", "Code: 62 SYNTAX_ERROR"},
            {"SELECT * FROM remote('a', 'db.')", "Code: 62 SYNTAX_ERROR"},
            {"SELECT * FROM remote('a', 1)", "Code: 170 BAD_GET"},
            {"SELECT * FROM remote('a', db, 1)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT * FROM remote('a', db, '')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT * FROM cluster(1, system.one)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT * FROM cluster('x', system.one, 1, 2)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT * FROM cluster('x', 'db', 't', rand())", "Code: 701 CLUSTER_DOESNT_EXIST"},
            {"SELECT shardNum(), shardCount()", "0\t0"},
            {"SELECT shardNum(), shardCount() FROM (SELECT 1)", "0\t0"}
        };
    }

    @Test
    void anAddressOfThisServerReadsItsOwnTable() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            assertEquals("", answer(s, "CREATE TABLE t (a UInt8) ENGINE = MergeTree ORDER BY a"));
            assertEquals("", answer(s, "INSERT INTO t VALUES (1), (2)"));
            String own = "'127.0.0.1:" + s.port() + "'";
            assertEquals("3", answer(s, "SELECT sum(a) FROM remote(" + own + ", default.t)"));
            assertEquals("2", answer(s, "SELECT count() FROM remote(" + own + ", 'default', 't', 'default', '')"));
            assertEquals("1\t2", answer(s, "SELECT min(a), max(a) FROM remote('localhost', default, t) FORMAT TSV"));
            assertEquals("0", answer(s, "SELECT * FROM remoteSecure('localhost:9440', 'system.one')"));
            assertEquals("0", answer(s, "SELECT * FROM remote('127.0.0.1', system.one)"));
            assertEquals("2", answer(s, "SELECT count() FROM cluster('default', default.t)"));
            assertEquals("2", answer(s, "SELECT count() FROM clusterAllReplicas('default', default, t)"));
        }
    }
}
