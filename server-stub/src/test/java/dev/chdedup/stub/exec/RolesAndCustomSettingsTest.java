package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import org.junit.jupiter.api.Test;

/**
 * currentRoles, enabledRoles and defaultRoles, currentUser and its aliases, and getSetting of custom settings. The
 * engine as a library has no users, roles or custom_settings_prefixes, so it answers only for the user without roles
 * and for the errors; what a granted role and a custom setting give is held to ClickHouse's server behaviour
 * (a role granted to a user is current and default, a role granted to that role enabled too; a custom setting is the
 * Field its literal made).
 */
class RolesAndCustomSettingsTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT currentRoles(), toTypeName(currentRoles()), enabledRoles(), toTypeName(enabledRoles()), defaultRoles(), toTypeName(defaultRoles()) FORMAT TSV", "[]\tArray(String)\t[]\tArray(String)\t[]\tArray(String)"},
            {"SELECT currentUser(), toTypeName(currentUser()), current_user(), user(), CURRENT_USER() FORMAT TSV", "default\tString\tdefault\tdefault\tdefault"},
            {"SELECT currentRoles(1)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT enabledRoles(1)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT length(defaultRoles()) FROM numbers(2) FORMAT TSV", "0\n0"},
            {"SELECT name, case_insensitive, alias_to FROM system.functions WHERE name ILIKE '%roles%' OR name ILIKE 'current_user' OR name = 'currentUser' OR name = 'user' ORDER BY name FORMAT TSV", "currentRoles\t0\t\ncurrentUser\t0\t\ncurrent_user\t1\tcurrentUser\ndefaultRoles\t0\t\nenabledRoles\t0\t\nuser\t1\tcurrentUser"},
            {"SELECT getSetting('custom_nope')", "Code: 115 UNKNOWN_SETTING"},
            {"SELECT getSetting('nope_x')", "Code: 115 UNKNOWN_SETTING"},
            {"SELECT getSetting(c1) FROM values('c1 String', 'max_threads')", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT getSetting('max_block_size'), toTypeName(getSetting('max_block_size')) FORMAT TSV", "65409\tUInt16"}
        };
    }

    @Test
    void aUsersRolesAreThoseGrantedToItAndToThem() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            for (String sql : new String[] {"CREATE ROLE r1", "CREATE ROLE r2", "CREATE ROLE r0", "CREATE USER u1", "GRANT r2 TO r1",
                "GRANT r1, r0 TO u1"}) {
                assertEquals("", answer(s, sql));
            }
            assertEquals("['r0','r1']\t['r0','r1','r2']\t['r0','r1']\tu1",
                answer(s, "user=u1", "SELECT currentRoles(), enabledRoles(), defaultRoles(), currentUser() FORMAT TSV"));
            assertEquals("[]\t[]", answer(s, "SELECT currentRoles(), enabledRoles() FORMAT TSV"));
        }
    }

    @Test
    void aQuotedRoleNameMayHoldACommaAndAnyCharacter() throws Exception {
        // ParserGrantQuery reads role names as identifiers: a quoted one is one name whatever it holds
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            for (String sql : new String[] {"CREATE ROLE \"q1\", \"q2,\u263a\"", "CREATE USER u2", "GRANT \"q1\", `q2,\u263a` TO u2"}) {
                assertEquals("", answer(s, sql));
            }
            assertEquals("['q1','q2,\u263a']", answer(s, "user=u2&role=q1&role=q2%2C%E2%98%BA",
                "SELECT arraySort(currentRoles()) FORMAT TSV"));
            assertEquals("Code: 62 SYNTAX_ERROR", answer(s, "GRANT q1 q2 TO u2"));
        }
    }

    @Test
    void aCustomSettingIsTheValueItWasSetTo() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            assertEquals("", answer(s, "session_id=c1", "SET custom_x = 'v'"));
            assertEquals("v\tString", answer(s, "session_id=c1", "SELECT getSetting('custom_x'), toTypeName(getSetting('custom_x'))"));
            String typed = "SELECT getSetting('custom_y'), toTypeName(getSetting('custom_y')) FORMAT TSV SETTINGS custom_y = ";
            assertEquals("5\tUInt8", answer(s, typed + "5"));
            assertEquals("5\tString", answer(s, typed + "'5'"));
            assertEquals("-300\tInt16", answer(s, typed + "-300"));
            assertEquals("1.5\tFloat64", answer(s, typed + "1.5"));
            assertEquals("true\tBool", answer(s, typed + "true"));
            assertEquals("it\\'s\tString", answer(s, typed + "'it''s'"));
            assertEquals("abc\tString", answer(s, "custom_y=abc", "SELECT getSetting('custom_y'), toTypeName(getSetting('custom_y'))"));
            assertEquals("Code: 115 UNKNOWN_SETTING", answer(s, "SELECT getSetting('custom_z')"));
        }
    }
}
