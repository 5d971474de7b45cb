package dev.chdedup.driver;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.Connection;

/** Wraps a statement that is not an INSERT: every call goes to the delegate; only getConnection answers ours. */
final class PassThroughHandler implements InvocationHandler {
    private final Object delegate;
    private final Connection connection;

    private PassThroughHandler(Object delegate, Connection connection) {
        this.delegate = delegate;
        this.connection = connection;
    }

    static <T> T wrap(T delegate, Class<T> iface, Connection connection) {
        return Proxies.create(iface, new Class<?>[0], new PassThroughHandler(delegate, connection));
    }

    @Override
    public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
        if (Proxies.isCommon(m)) {
            return Proxies.common(proxy, delegate, m, args, "DedupPassThrough");
        }
        if (m.getName().equals("getConnection") && m.getParameterCount() == 0) {
            return connection;
        }
        return Proxies.invoke(delegate, m, args);
    }
}
