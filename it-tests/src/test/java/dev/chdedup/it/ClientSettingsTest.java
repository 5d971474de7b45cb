package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.ServerException;
import com.clickhouse.client.api.query.GenericRecord;
import com.clickhouse.client.api.query.QuerySettings;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Settings the official Java client (client-v2 0.10.0) sends as query settings, which a stub with a hand-written list
 * of settings answered with Code 115: every setting of ClickHouse 26.7 is known now, so they apply, and a setting the
 * engine lacks is still UNKNOWN_SETTING.
 */
class ClientSettingsTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    private static Client client;

    @BeforeAll
    static void connect() {
        client = STUB.newClient();
    }

    @AfterAll
    static void close() {
        if (client != null) {
            client.close();
        }
    }

    @Test
    void jsonAsStringAndTimeTypeSettingsApply() {
        QuerySettings s = new QuerySettings().serverSetting("output_format_binary_write_json_as_string", "1")
            .serverSetting("allow_experimental_time_time64_type", "1").serverSetting("input_format_binary_read_json_as_string", "1")
            .serverSetting("allow_experimental_qbit_type", "1");
        List<GenericRecord> rows = client.queryAll("SELECT getSetting('output_format_binary_write_json_as_string') AS j,"
            + " getSetting('allow_experimental_time_time64_type') AS t", s);
        assertEquals(1, rows.size());
        assertEquals(true, rows.get(0).getBoolean("j"));
        assertEquals(true, rows.get(0).getBoolean("t"));
    }

    @Test
    void anUnknownSettingIsStill115() {
        ServerException e = QueryParametersTest.serverError(() -> client.queryAll("SELECT 1",
            new QuerySettings().serverSetting("no_such_setting_in_any_clickhouse", "1")));
        assertEquals(115, e.getCode());
    }
}
