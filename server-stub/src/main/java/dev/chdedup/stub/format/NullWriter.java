package dev.chdedup.stub.format;

import java.io.IOException;
import java.io.OutputStream;

/** The Null output format: consumes rows and writes nothing at all (used to time a query without output). */
final class NullWriter implements RowWriter {
    private final OutputStream os;

    NullWriter(OutputStream os) {
        this.os = os;
    }

    @Override
    public void writeRow(Object[] row) {
        // rows are discarded
    }

    @Override
    public void finish() throws IOException {
        os.flush();
    }
}
