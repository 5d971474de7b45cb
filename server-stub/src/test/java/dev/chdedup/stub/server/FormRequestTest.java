package dev.chdedup.stub.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A multipart/form-data request as ClickHouse's HTTP handler takes one: plain fields are parameters beside the URL's
 * (the query itself, its {@code param_x} values and settings, as client-v2 sends them with
 * {@code client.http.use_form_request_for_query}), files are external tables of their field names for that query
 * only, described by {@code NAME_structure} or {@code NAME_types} and read in {@code NAME_format}; a malformed body
 * or a file without a description is an error and runs nothing.
 */
class FormRequestTest {
    private static final String BOUNDARY = "----chdedupBoundary7MA4YWxkTrZu0gW";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static StubServer server;

    @BeforeAll
    static void start() throws Exception {
        server = StubServer.builder().port(0).build().start();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    /** A form of {name, filename or null, content} parts. */
    private static byte[] form(String[]... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (String[] p : parts) {
            String disposition = "Content-Disposition: form-data; name=\"" + p[0] + "\"" + (p[1] == null ? "" : "; filename=\"" + p[1] + "\"");
            b.writeBytes(("--" + BOUNDARY + "\r\n" + disposition + "\r\n" + (p[1] == null ? "" : "Content-Type: application/octet-stream\r\n")
                + "\r\n" + p[2] + "\r\n").getBytes(StandardCharsets.UTF_8));
        }
        b.writeBytes(("--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return b.toByteArray();
    }

    private static HttpResponse<String> post(String urlQuery, byte[] body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(server.httpUrl() + "/" + urlQuery))
            .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String plain(String sql) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(server.httpUrl() + "/")).POST(HttpRequest.BodyPublishers.ofString(sql)).build(),
            HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void fieldsAreParametersBesideTheUrls() throws Exception {
        HttpResponse<String> r = post("?param_z=7", form(new String[] {"query", null, "SELECT {x:UInt8} + {z:UInt8}, getSetting('max_result_rows')"},
            new String[] {"param_x", null, "41"}, new String[] {"max_result_rows", null, "12"}, new String[] {"param_z", null, "1000"}));
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("48\t12\n", r.body(), "a URL parameter wins over a field of the same name");
        r = post("", form(new String[] {"query", null, "SELECT 1"}, new String[] {"no_such_setting", null, "1"}));
        assertTrue(r.body().startsWith("Code: 115.") && r.body().contains("UNKNOWN_SETTING"), r.body());
    }

    @Test
    void filesAreExternalTablesOfTheQuery() throws Exception {
        String tsv = "a\t1\nb\t2\nc\t3";
        HttpResponse<String> r = post("?query=SELECT+name,+n+*+2+FROM+passwd+ORDER+BY+n&passwd_structure=name+String,+n+UInt8",
            form(new String[] {"passwd", "passwd.tsv", tsv}));
        assertEquals("a\t2\nb\t4\nc\t6\n", r.body());
        r = post("?query=SELECT+_2,+_1,+toTypeName(_2)+FROM+t+WHERE+_2+%3E+1&t_types=String,UInt8", form(new String[] {"t", "t.tsv", tsv}));
        assertEquals("2\tb\tUInt8\n3\tc\tUInt8\n", r.body());
        r = post("?query=SELECT+sum(n)+FROM+j&j_structure=n+UInt32&j_format=JSONEachRow", form(new String[] {"j", "j.json", "{\"n\":5}\n{\"n\":6}"}));
        assertEquals("11\n", r.body());
        r = post("?query=SELECT+count()+FROM+passwd", form(new String[] {"passwd", "p.tsv", tsv}));
        assertEquals(400, r.statusCode());
        assertTrue(r.body().startsWith("Code: 36.") && r.body().contains("passwd_structure or passwd_types"), r.body());
        String after = plain("SELECT count() FROM passwd");
        assertTrue(after.contains("UNKNOWN_TABLE"), "an external table lives for its query only: " + after);
    }

    @Test
    void aMalformedFormRunsNothing() throws Exception {
        plain("CREATE TABLE form_t (a UInt8) ENGINE = Memory");
        HttpResponse<String> r = post("", ("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"query\"\r\n\r\nINSERT INTO form_t VALUES (1)")
            .getBytes(StandardCharsets.UTF_8));
        assertTrue(r.body().startsWith("Code: 27.") && r.body().contains("CANNOT_PARSE_INPUT_ASSERTION_FAILED"), r.body());
        r = post("", "no boundary here".getBytes(StandardCharsets.UTF_8));
        assertTrue(r.body().startsWith("Code: 27."), r.body());
        assertEquals("0\n", plain("SELECT count() FROM form_t"));
    }

    @Test
    void aFormIsReadAsSentWhateverItsContentEncodingSays() throws Exception {
        // DynamicQueryHandler::getQuery loads the form from request.getStream(), before any Content-Encoding is
        // applied: client-v2 sends its (never compressed) form with "Content-Encoding: lz4" when compression is on
        byte[] body = form(new String[] {"query", null, "SELECT {x:UInt8} * 2"}, new String[] {"param_x", null, "21"});
        for (String encoding : new String[] {"lz4", "gzip"}) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(server.httpUrl() + "/"))
                .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY).header("Content-Encoding", encoding)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("42\n", r.body(), encoding);
        }
    }
}
