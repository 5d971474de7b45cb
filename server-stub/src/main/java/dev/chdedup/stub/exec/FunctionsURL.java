package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The URL functions (ClickHouse's src/Functions/URL): the parts of a URL (protocol, domain, topLevelDomain,
 * firstSignificantSubdomain, port, path, queryString, fragment, netloc, the URL parameters, the hierarchies), the URL
 * less a part (cutWWW, cutQueryString, cutFragment, cutURLParameter, cutToFirstSignificantSubdomain) and the percent
 * encodings. The *RFC forms find the host as RFC 3986 does ({@link URLParts}); the *Custom forms need a TLD list of the
 * server's configuration, and the stub's has none (TLD_LIST_NOT_FOUND).
 */
final class FunctionsURL {
    private static final String CATEGORY = "URL";

    private FunctionsURL() {
    }

    static void register(FunctionFactory f) {
        part(f, "protocol", URLParts::protocol);
        for (boolean rfc : new boolean[] {false, true}) {
            String sfx = rfc ? "RFC" : "";
            part(f, "domain" + sfx, s -> URLParts.domain(s, false, rfc));
            part(f, "domainWithoutWWW" + sfx, s -> URLParts.domain(s, true, rfc));
            part(f, "topLevelDomain" + sfx, s -> URLParts.topLevelDomain(s, rfc));
            part(f, "firstSignificantSubdomain" + sfx, s -> URLParts.firstSignificantSubdomain(s, true, rfc));
            part(f, "cutToFirstSignificantSubdomain" + sfx, s -> toDomainEnd(URLParts.firstSignificantSubdomain(s, true, rfc)));
            part(f, "cutToFirstSignificantSubdomainWithWWW" + sfx, s -> toDomainEnd(URLParts.firstSignificantSubdomain(s, false, rfc)));
            f.register("port" + sfx, CATEGORY, (args, ctx) -> port("port" + sfx, args, rfc));
            for (String custom : new String[] {"firstSignificantSubdomainCustom", "cutToFirstSignificantSubdomainCustom",
                "cutToFirstSignificantSubdomainCustomWithWWW"}) {
                f.register(custom + sfx, CATEGORY, (args, ctx) -> customTld(custom + sfx, args));
            }
        }
        part(f, "path", s -> path(s, false));
        part(f, "pathFull", s -> path(s, true));
        part(f, "queryString", s -> queryString(s, true));
        part(f, "fragment", s -> fragment(s, true));
        part(f, "queryStringAndFragment", s -> queryStringAndFragment(s, true));
        part(f, "netloc", URLParts::netloc);
        cut(f, "cutWWW", FunctionsURL::www);
        cut(f, "cutQueryString", s -> queryString(s, false));
        cut(f, "cutFragment", s -> fragment(s, false));
        cut(f, "cutQueryStringAndFragment", s -> queryStringAndFragment(s, false));
        stringToString(f, "decodeURLComponent", s -> decode(s, false));
        stringToString(f, "decodeURLFormComponent", s -> decode(s, true));
        stringToString(f, "encodeURLComponent", s -> encode(s, false));
        stringToString(f, "encodeURLFormComponent", s -> encode(s, true));
        f.register("extractURLParameter", CATEGORY, (args, ctx) -> extractURLParameter(args));
        f.register("cutURLParameter", CATEGORY, (args, ctx) -> cutURLParameter(args));
        stringToArray(f, "extractURLParameters", s -> URLParameters.parameters(s, false));
        stringToArray(f, "extractURLParameterNames", s -> URLParameters.parameters(s, true));
        stringToArray(f, "URLHierarchy", s -> URLParameters.hierarchy(s, false));
        stringToArray(f, "URLPathHierarchy", s -> URLParameters.hierarchy(s, true));
    }

    /** Checks the one String argument of a URL function: a FixedString is ILLEGAL_COLUMN, another type ILLEGAL_TYPE_OF_ARGUMENT. */
    static void checkUrlArgument(String name, Evaluator a) {
        DataType t = a.type().unwrap();
        if (t instanceof NothingType) {
            return;
        }
        if (!(t instanceof StringType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name() + " of argument of function " + name);
        }
        if (((StringType) t).fixedLength > 0) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Column of type FixedString is not supported by this function");
        }
    }

    private static void stringToString(FunctionFactory f, String name, Function<String, String> fn) {
        f.register(name, CATEGORY, (args, ctx) -> {
            Functions.arity(name, args, 1);
            checkUrlArgument(name, args.get(0));
            return Functions.defaultForNulls(DataTypes.STRING, args, v -> fn.apply((String) v[0]));
        });
    }

    /** A function answering the part {@code [start, end)} of the URL, or '' when {@code part} answers null. */
    private static void part(FunctionFactory f, String name, Function<String, int[]> part) {
        stringToString(f, name, s -> {
            int[] r = part.apply(s);
            return r == null ? "" : s.substring(r[0], r[1]);
        });
    }

    /** A function answering the URL without the part {@code [start, end)}. */
    private static void cut(FunctionFactory f, String name, Function<String, int[]> part) {
        stringToString(f, name, s -> {
            int[] r = part.apply(s);
            return r == null ? s : s.substring(0, r[0]) + s.substring(r[1]);
        });
    }

    private static void stringToArray(FunctionFactory f, String name, Function<String, List<Object>> fn) {
        f.register(name, CATEGORY, (args, ctx) -> {
            Functions.arity(name, args, 1);
            checkUrlArgument(name, args.get(0));
            return FunctionsStringSplitting.arrayOfStrings(args, v -> fn.apply((String) v[0]));
        });
    }

    private static int[] toDomainEnd(int[] significant) {
        return significant == null || significant[1] == significant[0] ? null : new int[] {significant[0], significant[2]};
    }

    /** The path: from the first '/' that is not the start of "//" (or the one after "//host"), to '?' or '#' unless {@code full}. */
    private static int[] path(String s, boolean full) {
        int pos = s.indexOf('/');
        if (pos < 0) {
            return null;
        }
        if (pos + 1 < s.length() && s.charAt(pos + 1) == '/') {
            pos = s.indexOf('/', pos + 2);
            if (pos < 0) {
                return null;
            }
        }
        return new int[] {pos, full ? s.length() : URLParts.find(s, pos, "?#")};
    }

    /** From '?' to '#' (after the '?' when {@code withoutMark}). */
    private static int[] queryString(String s, boolean withoutMark) {
        int pos = s.indexOf('?');
        if (pos < 0) {
            return null;
        }
        return new int[] {pos + (withoutMark ? 1 : 0), URLParts.find(s, pos, "#")};
    }

    private static int[] fragment(String s, boolean withoutMark) {
        int pos = s.indexOf('#');
        return pos < 0 ? null : new int[] {pos + (withoutMark ? 1 : 0), s.length()};
    }

    /** From '?' (after it when {@code withoutMark}) to the end; else from '#' (the '#' kept) to the end. */
    private static int[] queryStringAndFragment(String s, boolean withoutMark) {
        int pos = s.indexOf('?');
        if (pos >= 0) {
            return new int[] {pos + (withoutMark ? 1 : 0), s.length()};
        }
        pos = s.indexOf('#');
        return pos < 0 ? null : new int[] {pos, s.length()};
    }

    /** The "www." that starts the host of a URL with "//" right after its protocol (or at its start). */
    private static int[] www(String s) {
        int pos = s.indexOf('/');
        if (pos < 0) {
            return null;
        }
        if (pos != 0) {
            int[] protocol = URLParts.protocol(s);
            if (pos != (protocol == null ? 0 : protocol[1]) + 1) {
                return null;
            }
        }
        if (s.length() - pos < 2 || s.charAt(pos + 1) != '/') {
            return null;
        }
        pos += 2;
        int start = pos;
        for (; pos < s.length(); pos++) {
            char c = s.charAt(pos);
            if (c == '@') {
                start = pos + 1;
            } else if (c == ':' || c == '/' || c == '?' || c == '#') {
                break;
            }
        }
        return start + 4 < s.length() && s.startsWith("www.", start) ? new int[] {start, start + 4} : null;
    }

    /**
     * Percent-decoding as ClickHouse's decodeURL: "%XX" with two hex digits is the byte XX; a '%' without them is kept with
     * the two bytes after it, which are not read again; '+' is a space when {@code plusAsSpace}.
     */
    private static String decode(String s, boolean plusAsSpace) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '+' && plusAsSpace) {
                out.append(' ');
                i++;
            } else if (c == '%' && i + 2 <= s.length()) {
                int high = hexValue(s, i + 1);
                int low = hexValue(s, i + 2);
                if (high >= 0 && low >= 0) {
                    out.append((char) (high * 16 + low));
                } else {
                    out.append(s, i, Math.min(i + 3, s.length()));
                }
                i += 3;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static int hexValue(String s, int i) {
        if (i >= s.length()) {
            return -1;
        }
        char c = s.charAt(i);
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

    private static final String HEX = "0123456789ABCDEF";

    private static String encode(String s, boolean spaceAsPlus) {
        StringBuilder out = new StringBuilder(s.length() * 3);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (URLParts.isAlphaNumeric(c) || c == '-' || c == '_' || c == '.' || c == '~') {
                out.append(c);
            } else if (c == ' ' && spaceAsPlus) {
                out.append('+');
            } else {
                out.append('%').append(HEX.charAt(c >> 4 & 0xF)).append(HEX.charAt(c & 0xF));
            }
        }
        return out.toString();
    }

    /** port(url[, default]): the port after the host, else the default (a constant UInt16, 0 without it). */
    private static Evaluator port(String name, List<Evaluator> args, boolean rfc) {
        if (args.size() != 1 && args.size() != 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function " + name
                + " doesn't match: passed " + args.size() + ", should be 1 or 2");
        }
        DataType t = args.get(0).type();
        if (!(t.unwrap() instanceof StringType st && st.fixedLength == 0) && !(t.unwrap() instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of first argument of function " + name
                + ". Must be String");
        }
        long dflt = 0;
        if (args.size() == 2) {
            Evaluator d = args.get(1);
            if (!d.type().name().equals("UInt16")) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + d.type().name() + " of second argument of function "
                    + name + ". Must be UInt16");
            }
            if (!d.constant()) {
                throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index 1 for function " + name + " must be constant");
            }
            dflt = Functions.constLong(d);
        }
        long defaultPort = dflt;
        return Functions.defaultForNulls(DataTypes.UINT16, args.subList(0, 1), v -> portOf((String) v[0], defaultPort, rfc));
    }

    /** The digits after the host's ':' up to '/' or the end; the default when there are none, or another byte, or more than 65535. */
    private static long portOf(String s, long dflt, boolean rfc) {
        int[] host = URLParts.host(s, rfc);
        if (host == null || host[1] - host[0] == s.length()) {
            return dflt;
        }
        int p = host[1];
        if (p >= s.length() || s.charAt(p++) != ':') {
            return dflt;
        }
        long port = 0;
        int digits = p;
        for (; p < s.length(); p++) {
            char c = s.charAt(p);
            if (c == '/') {
                break;
            }
            if (!URLParts.isDigit(c)) {
                return dflt;
            }
            port = port * 10 + (c - '0');
            if (port > 65535) {
                return dflt;
            }
        }
        return p == digits ? dflt : port;
    }

    /** The *Custom functions: their TLD list comes from the server's configuration (top_level_domains_lists), empty here. */
    private static Evaluator customTld(String name, List<Evaluator> args) {
        Functions.arity(name, args, 2);
        DataType t = args.get(0).type();
        if (!(t.unwrap() instanceof StringType) && !(t.unwrap() instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of first argument of function " + name
                + ". Must be String");
        }
        Evaluator list = args.get(1);
        if (!list.constant() || !(list.type().unwrap() instanceof StringType)) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "The second argument of function " + name
                + " should be a constant string with the name of the custom TLD");
        }
        throw new ChException(ErrorCode.TLD_LIST_NOT_FOUND, "TLD list " + Functions.constString(list) + " does not exist");
    }

    /** A constant String or Array(String) argument of the URL parameter functions, as the names it holds. */
    private static List<String> parameterNames(String name, Evaluator a, boolean arrayAllowed) {
        DataType t = a.type().unwrap();
        boolean array = arrayAllowed && t instanceof ArrayType;
        if (!(t instanceof StringType) && !array) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name() + " of argument of function " + name);
        }
        if (!a.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index 1 for function " + name + " must be constant");
        }
        Object v = a.eval(new Object[0]);
        List<String> out = new ArrayList<>();
        if (array) {
            List<?> items = (List<?>) v;
            if (!items.isEmpty() && !(((ArrayType) t).element.unwrap() instanceof StringType)) {
                throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Second argument of function " + name + " must be constant array of strings");
            }
            for (Object o : items) {
                out.add(o == null ? "" : (String) o);
            }
        } else {
            out.add(v == null ? "" : (String) v);
        }
        return out;
    }

    private static Evaluator extractURLParameter(List<Evaluator> args) {
        Functions.arity("extractURLParameter", args, 2);
        FunctionsStringSearch.checkString("extractURLParameter", args.get(0), true);
        String param = parameterNames("extractURLParameter", args.get(1), false).get(0);
        return Functions.defaultForNulls(DataTypes.STRING, args.subList(0, 1), v -> URLParameters.value((String) v[0], param));
    }

    private static Evaluator cutURLParameter(List<Evaluator> args) {
        Functions.arity("cutURLParameter", args, 2);
        FunctionsStringSearch.checkString("cutURLParameter", args.get(0), true);
        List<String> names = parameterNames("cutURLParameter", args.get(1), true);
        return Functions.defaultForNulls(DataTypes.STRING, args.subList(0, 1), v -> URLParameters.cut((String) v[0], names));
    }
}
