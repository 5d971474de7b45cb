package dev.chdedup.stub.types;

/**
 * Whether the JSON type's text quotes 64-bit and larger integers ({@code output_format_json_quote_64bit_integers}) for
 * the query writing on this thread: JSON objects shown in any format (TabSeparated, Values, CSV, a CAST to String) are
 * written as the JSON formats write them. Off unless the query's settings turn it on, as ClickHouse's default is since
 * 25.8. Held per thread, as {@link SessionTimeZone} is, because a query writes its result on its request's thread.
 */
public final class JsonQuoting {
    private static final ThreadLocal<Boolean> QUOTE_64 = new ThreadLocal<>();

    private JsonQuoting() {
    }

    public static boolean quote64() {
        return Boolean.TRUE.equals(QUOTE_64.get());
    }

    /** Makes {@code quote} this thread's choice until the returned scope is closed. */
    public static SessionTimeZone.Scope use(boolean quote) {
        Boolean previous = QUOTE_64.get();
        QUOTE_64.set(quote);
        return () -> {
            if (previous == null) {
                QUOTE_64.remove();
            } else {
                QUOTE_64.set(previous);
            }
        };
    }
}
