package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import org.junit.jupiter.api.Test;

/**
 * SHOW USERS, ROLES, CURRENT ROLES, ENABLED ROLES, SETTINGS PROFILES, QUOTAS and GRANTS, SET ROLE and SET DEFAULT
 * ROLE. The engine as a library has no roles and refuses its default user SHOW USERS and the like (ACCESS_DENIED),
 * so it answers for the columns, the default user's grants and the errors of roles that do not exist; what a granted
 * role gives is held to ClickHouse's server behaviour (InterpreterShowAccessEntitiesQuery's SELECTs,
 * InterpreterSetRoleQuery: a role that is not granted is SET_NON_GRANTED_ROLE, SET ROLE holds for the session).
 */
class AccessStatementsTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SHOW CURRENT ROLES FORMAT TSVWithNamesAndTypes", "role_name\twith_admin_option\tis_default\nString\tUInt8\tUInt8"},
            {"SHOW ENABLED ROLES FORMAT TSVWithNamesAndTypes", "role_name\twith_admin_option\tis_current\tis_default\nString\tUInt8\tUInt8\tUInt8"},
            {"SHOW GRANTS FORMAT TSVWithNamesAndTypes", "GRANTS FORMAT TSVWithNamesAndTypes\nString\nGRANT SOURCES ON *.* TO default\nGRANT TABLE ENGINE ON * TO default\nGRANT CHECK, SHOW, SELECT, INSERT, ALTER, CREATE, DROP, UNDROP TABLE, TRUNCATE, OPTIMIZE, BACKUP, KILL QUERY, KILL TRANSACTION, MOVE PARTITION BETWEEN SHARDS, SYSTEM, dictGet, displaySecretsInShowAndSelect, INTROSPECTION, CLUSTER, FILE, URL, REMOTE, MONGO, REDIS, MYSQL, POSTGRES, SQLITE, ODBC, JDBC, HDFS, S3, HIVE, AZURE, KAFKA, NATS, RABBITMQ, YTSAURUS, ARROW FLIGHT, SOURCES ON *.* TO default\nGRANT SET DEFINER ON * TO default\nGRANT ALTER NAMED COLLECTION, CREATE NAMED COLLECTION, DROP NAMED COLLECTION, SHOW NAMED COLLECTIONS, NAMED COLLECTION ON * TO default"},
            {"SHOW GRANTS FOR default FORMAT TSVWithNames", "GRANTS FOR default FORMAT TSVWithNames\nGRANT SOURCES ON *.* TO default\nGRANT TABLE ENGINE ON * TO default\nGRANT CHECK, SHOW, SELECT, INSERT, ALTER, CREATE, DROP, UNDROP TABLE, TRUNCATE, OPTIMIZE, BACKUP, KILL QUERY, KILL TRANSACTION, MOVE PARTITION BETWEEN SHARDS, SYSTEM, dictGet, displaySecretsInShowAndSelect, INTROSPECTION, CLUSTER, FILE, URL, REMOTE, MONGO, REDIS, MYSQL, POSTGRES, SQLITE, ODBC, JDBC, HDFS, S3, HIVE, AZURE, KAFKA, NATS, RABBITMQ, YTSAURUS, ARROW FLIGHT, SOURCES ON *.* TO default\nGRANT SET DEFINER ON * TO default\nGRANT ALTER NAMED COLLECTION, CREATE NAMED COLLECTION, DROP NAMED COLLECTION, SHOW NAMED COLLECTIONS, NAMED COLLECTION ON * TO default"},
            {"SHOW GRANTS FOR CURRENT_USER FORMAT TSVWithNames", "GRANTS FORMAT TSVWithNames\nGRANT SOURCES ON *.* TO default\nGRANT TABLE ENGINE ON * TO default\nGRANT CHECK, SHOW, SELECT, INSERT, ALTER, CREATE, DROP, UNDROP TABLE, TRUNCATE, OPTIMIZE, BACKUP, KILL QUERY, KILL TRANSACTION, MOVE PARTITION BETWEEN SHARDS, SYSTEM, dictGet, displaySecretsInShowAndSelect, INTROSPECTION, CLUSTER, FILE, URL, REMOTE, MONGO, REDIS, MYSQL, POSTGRES, SQLITE, ODBC, JDBC, HDFS, S3, HIVE, AZURE, KAFKA, NATS, RABBITMQ, YTSAURUS, ARROW FLIGHT, SOURCES ON *.* TO default\nGRANT SET DEFINER ON * TO default\nGRANT ALTER NAMED COLLECTION, CREATE NAMED COLLECTION, DROP NAMED COLLECTION, SHOW NAMED COLLECTIONS, NAMED COLLECTION ON * TO default"},
            {"SHOW GRANTS FOR nobody", "Code: 511 UNKNOWN_ROLE"},
            {"SET ROLE NONE", ""},
            {"SELECT currentRoles(), enabledRoles(), defaultRoles()", "[]\t[]\t[]"},
            {"SET ROLE DEFAULT", ""},
            {"SET ROLE ALL", ""},
            {"SET ROLE r1", "Code: 511 UNKNOWN_ROLE"},
            {"SET ROLE r1, r2", "Code: 511 UNKNOWN_ROLE"},
            {"SET ROLE ALL EXCEPT r1", "Code: 511 UNKNOWN_ROLE"},
            {"SET DEFAULT ROLE", "Code: 62 SYNTAX_ERROR"},
            {"SELECT name, type FROM system.columns WHERE database = 'system' AND table = 'current_roles' ORDER BY position", "role_name\tString\nwith_admin_option\tUInt8\nis_default\tUInt8"},
            {"SELECT name, type FROM system.columns WHERE database = 'system' AND table = 'enabled_roles' ORDER BY position", "role_name\tString\nwith_admin_option\tUInt8\nis_current\tUInt8\nis_default\tUInt8"},
            {"SELECT name, type FROM system.columns WHERE database = 'system' AND table = 'quotas' ORDER BY position", "name\tString\nid\tUUID\nstorage\tString\nkeys\tArray(Enum8(\\'user_name\\' = 1, \\'ip_address\\' = 2, \\'forwarded_ip_address\\' = 3, \\'client_key\\' = 4, \\'normalized_query_hash\\' = 7))\ndurations\tArray(UInt32)\napply_to_all\tUInt8\napply_to_list\tArray(String)\napply_to_except\tArray(String)\nipv4_prefix_bits\tNullable(UInt8)\nipv6_prefix_bits\tNullable(UInt8)"},
            {"SELECT * FROM system.current_roles", ""},
            {"SELECT * FROM system.enabled_roles", ""},
        };
    }

    @Test
    void showListsTheAccessEntitiesAndSetRoleChoosesTheSessionsRoles() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            for (String sql : new String[] {"CREATE ROLE r1", "CREATE ROLE r2", "CREATE ROLE r3", "CREATE ROLE r0", "CREATE USER u1",
                "CREATE SETTINGS PROFILE p1", "GRANT r3 TO r1", "GRANT r1, r2 TO u1", "GRANT SELECT, INSERT ON default.* TO u1",
                "GRANT SELECT ON system.one TO u1"}) {
                assertEquals("", answer(s, sql));
            }
            assertEquals("name\ndefault\nu1", answer(s, "SHOW USERS FORMAT TSVWithNames"));
            assertEquals("name\nr0\nr1\nr2\nr3", answer(s, "SHOW ROLES FORMAT TSVWithNames"));
            assertEquals("p1", answer(s, "SHOW SETTINGS PROFILES"));
            assertEquals("p1", answer(s, "SHOW PROFILES"));
            assertEquals("name", answer(s, "SHOW QUOTAS FORMAT TSVWithNames"));
            assertEquals("GRANTS FOR u1 FORMAT TSVWithNames\nGRANT SELECT, INSERT ON default.* TO u1\nGRANT SELECT ON system.one TO u1\n"
                + "GRANT r1, r2 TO u1", answer(s, "SHOW GRANTS FOR u1 FORMAT TSVWithNames"));
            assertEquals("r1\t0\t1\nr2\t0\t1", answer(s, "user=u1", "SHOW CURRENT ROLES"));
            assertEquals("r1\t0\t1\t1\nr2\t0\t1\t1\nr3\t0\t0\t0", answer(s, "user=u1", "SHOW ENABLED ROLES"));

            String session = "user=u1&session_id=roles1";
            assertEquals("", answer(s, session, "SET ROLE r1"));
            assertEquals("['r1']\t['r1','r3']\t['r1','r2']", answer(s, session, "SELECT currentRoles(), enabledRoles(), defaultRoles()"));
            assertEquals("r1\t0\t1", answer(s, session, "SHOW CURRENT ROLES"));
            assertEquals("Code: 512 SET_NON_GRANTED_ROLE", answer(s, session, "SET ROLE r3"));
            assertEquals("Code: 512 SET_NON_GRANTED_ROLE", answer(s, session, "SET ROLE r1, r0"));
            assertEquals("Code: 511 UNKNOWN_ROLE", answer(s, session, "SET ROLE nope"));
            assertEquals("['r1']", answer(s, session, "SELECT currentRoles()"), "a failed SET ROLE changes nothing");
            assertEquals("", answer(s, session, "SET ROLE NONE"));
            assertEquals("[]\t[]", answer(s, session, "SELECT currentRoles(), enabledRoles()"));
            assertEquals("", answer(s, session, "SET ROLE ALL EXCEPT r2"));
            assertEquals("['r1']\t['r1','r3']", answer(s, session, "SELECT currentRoles(), enabledRoles()"));
            assertEquals("['r1','r2']", answer(s, "user=u1", "SELECT currentRoles()"), "another query without the session has its default roles");
            assertEquals("", answer(s, session, "SET ROLE DEFAULT"));
            assertEquals("['r1','r2']", answer(s, session, "SELECT currentRoles()"));
            assertEquals("", answer(s, "user=u1", "SET ROLE r2"));
            assertEquals("['r1','r2']", answer(s, "user=u1", "SELECT currentRoles()"), "without a session SET ROLE holds for itself");

            assertEquals("", answer(s, "SET DEFAULT ROLE r2 TO u1"));
            assertEquals("['r2']\t['r2']", answer(s, "user=u1", "SELECT currentRoles(), defaultRoles()"));
            assertEquals("Code: 512 SET_NON_GRANTED_ROLE", answer(s, "SET DEFAULT ROLE r3 TO u1"));
            assertEquals("Code: 511 UNKNOWN_ROLE", answer(s, "SET DEFAULT ROLE nope TO u1"));
            assertEquals("Code: 192 UNKNOWN_USER", answer(s, "SET DEFAULT ROLE r2 TO nobody"));
            assertEquals("Code: 495 ACCESS_STORAGE_READONLY", answer(s, "SET DEFAULT ROLE NONE TO default"));
            assertEquals("", answer(s, "SET DEFAULT ROLE NONE TO u1"));
            assertEquals("[]\t[]", answer(s, "user=u1", "SELECT currentRoles(), defaultRoles()"));
            assertEquals("", answer(s, "SET DEFAULT ROLE ALL EXCEPT r1 TO u1"));
            assertEquals("r1\t0\t1\t0\nr2\t0\t1\t1\nr3\t0\t0\t0", answer(s, "user=u1&session_id=roles2", "SET ROLE ALL")
                + answer(s, "user=u1&session_id=roles2", "SHOW ENABLED ROLES"));
        }
    }
}
