package dev.chdedup.driver;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.SQLException;
import java.sql.Wrapper;

/**
 * Building blocks of the wrappers: proxies that pass every call to their delegate unless a handler intercepts it,
 * with {@code unwrap}/{@code isWrapperFor} reaching the delegate and {@code toString} saying what wraps what.
 */
final class Proxies {
    private Proxies() {
    }

    @SuppressWarnings("unchecked")
    static <T> T create(Class<T> iface, Class<?>[] extra, InvocationHandler h) {
        Class<?>[] all = new Class<?>[extra.length + 1];
        all[0] = iface;
        System.arraycopy(extra, 0, all, 1, extra.length);
        return (T) Proxy.newProxyInstance(Proxies.class.getClassLoader(), all, h);
    }

    /** Calls {@code m} on {@code target}, unwrapping the reflection wrapper of what it throws. */
    static Object invoke(Object target, Method m, Object[] args) throws Throwable {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** Handles unwrap/isWrapperFor/toString/equals/hashCode for a proxy over {@code delegate}; null if not one of them. */
    static Object common(Object proxy, Object delegate, Method m, Object[] args, String label) throws SQLException {
        switch (m.getName()) {
            case "unwrap": {
                Class<?> c = (Class<?>) args[0];
                if (c.isInstance(proxy)) {
                    return proxy;
                }
                if (c.isInstance(delegate)) {
                    return delegate;
                }
                if (delegate instanceof Wrapper) {
                    return ((Wrapper) delegate).unwrap(c);
                }
                throw new SQLException("Cannot unwrap to " + c.getName());
            }
            case "isWrapperFor": {
                Class<?> c = (Class<?>) args[0];
                return c.isInstance(proxy) || c.isInstance(delegate) || delegate instanceof Wrapper && ((Wrapper) delegate).isWrapperFor(c);
            }
            case "toString":
                return args == null ? label + " wrapping " + delegate : null;
            case "hashCode":
                return args == null ? System.identityHashCode(proxy) : null;
            case "equals":
                return args != null && args.length == 1 ? proxy == args[0] : null;
            default:
                return null;
        }
    }

    /** Update counts as {@code executeBatch} returns them: ints, capped (negative codes such as -2 kept). */
    static int[] narrow(long[] counts) {
        int[] out = new int[counts.length];
        for (int i = 0; i < counts.length; i++) {
            out[i] = (int) Math.min(Integer.MAX_VALUE, counts[i]);
        }
        return out;
    }

    static boolean isCommon(Method m) {
        switch (m.getName()) {
            case "unwrap": case "isWrapperFor":
                return m.getParameterCount() == 1;
            case "toString": case "hashCode":
                return m.getParameterCount() == 0;
            case "equals":
                return m.getParameterCount() == 1;
            default:
                return false;
        }
    }
}
