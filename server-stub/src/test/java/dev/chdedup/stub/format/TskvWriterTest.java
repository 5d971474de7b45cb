package dev.chdedup.stub.format;

import static dev.chdedup.stub.format.FormatFixtures.cols;
import static dev.chdedup.stub.format.FormatFixtures.list;
import static dev.chdedup.stub.format.FormatFixtures.writeText;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.data.Column;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** TSKV output, byte for byte as ClickHouse writes it. */
class TskvWriterTest {

    @Test
    void namesEscapeEqualsValuesEscapeLikeTsv() throws IOException {
        List<Column> c = cols("a UInt8", "b=c String", "n Nullable(String)", "arr Array(String)");
        List<Object[]> rows = List.of(new Object[] {1L, "x=y\tz'", null, list("q")}, new Object[] {2L, "", "v", list()});
        assertEquals("a=1\tb\\=c=x=y\\tz\\'\tn=\\N\tarr=['q']\na=2\tb\\=c=\tn=v\tarr=[]\n", writeText("TSKV", c, rows));
    }
}
