package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * printf(format, arg, ...) (ClickHouse's printf): C's printf over native numbers and strings. Each conversion takes one
 * argument of its kind (d i u o x X c an integer, as a 64-bit one; f F e E g G a A a float; s a string), BAD_ARGUMENTS
 * for another kind, NUMBER_OF_ARGUMENTS_DOESNT_MATCH when the counts differ. Floats round half to even on their exact
 * binary value, as C's printf does.
 */
final class FunctionPrintf {
    private FunctionPrintf() {
    }

    /** A piece of the format: literal text, or a conversion with its flags, width and precision (-1 when absent). */
    private record Spec(String literal, String flags, int width, int precision, char conversion, String text) {
    }

    static void register(FunctionFactory f) {
        f.register("printf", "String Replacement", (args, ctx) -> build(args));
    }

    private static Evaluator build(List<Evaluator> args) {
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function printf doesn't match: passed 0");
        }
        for (int i = 1; i < args.size(); i++) {
            DataType t = TypeRules.stripNullable(args.get(i).type());
            if (!(t instanceof IntType || t instanceof FloatType || t instanceof StringType) && !StringArguments.isNull(t)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 2, "sub", "printf", "Native number or String", args.get(i).type());
            }
        }
        String format = ByteStrings.toText((String) StringArguments.constant("printf", args, 0));
        List<Spec> specs = parse(format);
        long conversions = specs.stream().filter(s -> s.literal() == null).count();
        if (conversions != args.size() - 1) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function printf doesn't match: passed "
                + args.size() + ", but format is " + format);
        }
        for (int i = 0, k = 1; i < specs.size(); i++) {
            Spec s = specs.get(i);
            if (s.literal() == null) {
                DataType t = TypeRules.stripNullable(args.get(k++).type());
                boolean ok = "diouxXc".indexOf(s.conversion()) >= 0 ? t instanceof IntType
                    : "fFeEgGaA".indexOf(s.conversion()) >= 0 ? t instanceof FloatType
                    : s.conversion() == 's' ? t instanceof StringType : false;
                if (!ok && !StringArguments.isNull(t)) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Bad format " + s.text() + " in function printf, reason: invalid format specifier");
                }
            }
        }
        return Functions.defaultForNulls(DataTypes.STRING, args, v -> {
            StringBuilder sb = new StringBuilder();
            int k = 1;
            for (Spec s : specs) {
                if (s.literal() != null) {
                    sb.append(s.literal());
                } else {
                    Object value = v[k];
                    DataType t = TypeRules.stripNullable(args.get(k++).type());
                    sb.append(convert(s, value, t));
                }
            }
            return sb.toString();
        });
    }

    /** The format's literal text (as bytes, %% as %) and conversions. */
    private static List<Spec> parse(String format) {
        List<Spec> out = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
        int i = 0;
        while (i < format.length()) {
            char c = format.charAt(i);
            if (c != '%') {
                lit.append(c);
                i++;
                continue;
            }
            if (i + 1 < format.length() && format.charAt(i + 1) == '%') {
                lit.append('%');
                i += 2;
                continue;
            }
            if (lit.length() > 0) {
                out.add(new Spec(ByteStrings.fromText(lit.toString()), null, 0, 0, ' ', null));
                lit.setLength(0);
            }
            int start = i++;
            int f = i;
            while (i < format.length() && "-+ #0".indexOf(format.charAt(i)) >= 0) {
                i++;
            }
            String flags = format.substring(f, i);
            int w = i;
            while (i < format.length() && Character.isDigit(format.charAt(i))) {
                i++;
            }
            int width = i > w ? Integer.parseInt(format.substring(w, i)) : 0;
            int precision = -1;
            if (i < format.length() && format.charAt(i) == '.') {
                int p = ++i;
                while (i < format.length() && Character.isDigit(format.charAt(i))) {
                    i++;
                }
                precision = i > p ? Integer.parseInt(format.substring(p, i)) : 0;
            }
            while (i < format.length() && "hlLqjzt".indexOf(format.charAt(i)) >= 0) {
                i++;
            }
            if (i >= format.length()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Bad format " + format.substring(start) + " in function printf, reason: invalid format string");
            }
            char conversion = format.charAt(i++);
            out.add(new Spec(null, flags, width, precision, conversion, format.substring(start, i)));
        }
        if (lit.length() > 0) {
            out.add(new Spec(ByteStrings.fromText(lit.toString()), null, 0, 0, ' ', null));
        }
        return out;
    }

    private static String convert(Spec s, Object value, DataType t) {
        char c = s.conversion();
        String flags = s.flags();
        if (c == 's') {
            String str = (String) value;
            return pad(s.precision() >= 0 && s.precision() < str.length() ? str.substring(0, s.precision()) : str, "", s, false);
        }
        if (c == 'c') {
            return pad(String.valueOf((char) (StringArguments.toLong(value, t) & 0xFF)), "", s, false);
        }
        if ("diouxX".indexOf(c) >= 0) {
            long n = StringArguments.toLong(value, t);
            String sign = "";
            String digits;
            String prefix = "";
            if (c == 'd' || c == 'i') {
                digits = n < 0 ? Long.toString(n).substring(1) : Long.toString(n);
                sign = n < 0 ? "-" : flags.contains("+") ? "+" : flags.contains(" ") ? " " : "";
            } else {
                digits = c == 'u' ? Long.toUnsignedString(n) : c == 'o' ? Long.toOctalString(n) : Long.toHexString(n);
                if (c == 'X') {
                    digits = digits.toUpperCase(java.util.Locale.ROOT);
                }
                if (flags.contains("#") && n != 0) {
                    prefix = c == 'o' ? "0" : c == 'x' ? "0x" : c == 'X' ? "0X" : "";
                }
            }
            if (s.precision() >= 0) {
                digits = digits.length() < s.precision() ? "0".repeat(s.precision() - digits.length()) + digits : digits;
            }
            return pad(digits, sign + prefix, s, s.precision() < 0);
        }
        double d = ((Number) value).doubleValue();
        String sign = d < 0 || d == 0 && 1 / d < 0 ? "-" : flags.contains("+") ? "+" : flags.contains(" ") ? " " : "";
        boolean upper = Character.isUpperCase(c);
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            String word = Double.isNaN(d) ? "nan" : "inf";
            return pad(upper ? word.toUpperCase(java.util.Locale.ROOT) : word, Double.isNaN(d) ? "" : sign, s, false);
        }
        double abs = Math.abs(d);
        int p = s.precision() < 0 ? 6 : s.precision();
        boolean alt = flags.contains("#");
        String body;
        switch (Character.toLowerCase(c)) {
            case 'f':
                body = fixed(abs, p, alt);
                break;
            case 'e':
                body = exponential(abs, p, alt);
                break;
            case 'g':
                body = general(abs, p == 0 ? 1 : p, alt);
                break;
            default:
                body = hexFloat(abs);
                break;
        }
        return pad(upper ? body.toUpperCase(java.util.Locale.ROOT) : body, sign, s, true);
    }

    private static String fixed(double v, int p, boolean alt) {
        String r = new BigDecimal(v).setScale(p, RoundingMode.HALF_EVEN).toPlainString();
        return alt && p == 0 ? r + "." : r;
    }

    private static String exponential(double v, int p, boolean alt) {
        if (v == 0) {
            return (p > 0 ? "0." + "0".repeat(p) : alt ? "0." : "0") + "e+00";
        }
        BigDecimal r = new BigDecimal(v).round(new MathContext(p + 1, RoundingMode.HALF_EVEN));
        int exp = r.precision() - r.scale() - 1;
        String digits = r.unscaledValue().toString();
        digits = digits.length() < p + 1 ? digits + "0".repeat(p + 1 - digits.length()) : digits.substring(0, p + 1);
        String mantissa = digits.charAt(0) + (p > 0 ? "." + digits.substring(1) : alt ? "." : "");
        return mantissa + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
    }

    private static String general(double v, int p, boolean alt) {
        int exp = v == 0 ? 0 : new BigDecimal(v).round(new MathContext(p, RoundingMode.HALF_EVEN)).precision()
            - new BigDecimal(v).round(new MathContext(p, RoundingMode.HALF_EVEN)).scale() - 1;
        String r = p > exp && exp >= -4 ? fixed(v, p - 1 - exp, alt) : exponential(v, p - 1, alt);
        if (alt) {
            return r;
        }
        int e = r.indexOf('e');
        String mantissa = e < 0 ? r : r.substring(0, e);
        if (mantissa.contains(".")) {
            mantissa = mantissa.replaceAll("0+$", "");
            mantissa = mantissa.endsWith(".") ? mantissa.substring(0, mantissa.length() - 1) : mantissa;
        }
        return e < 0 ? mantissa : mantissa + r.substring(e);
    }

    /** C's %a: 0x1.hhhp+e, trailing zero digits dropped. */
    private static String hexFloat(double v) {
        String h = Double.toHexString(v);
        int p = h.indexOf('p');
        String mantissa = h.substring(0, p).replaceAll("0+$", "");
        mantissa = mantissa.endsWith(".") ? mantissa.substring(0, mantissa.length() - 1) : mantissa;
        String exp = h.substring(p + 1);
        return mantissa + "p" + (exp.startsWith("-") ? exp : "+" + exp);
    }

    /** {@code body} after its sign or prefix, padded to the width: spaces before or after, or zeros between. */
    private static String pad(String body, String prefix, Spec s, boolean zeroPadding) {
        int missing = s.width() - body.length() - prefix.length();
        if (missing <= 0) {
            return prefix + body;
        }
        if (s.flags().contains("-")) {
            return prefix + body + " ".repeat(missing);
        }
        if (zeroPadding && s.flags().contains("0")) {
            return prefix + "0".repeat(missing) + body;
        }
        return " ".repeat(missing) + prefix + body;
    }
}
