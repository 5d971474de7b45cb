package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.Values;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.util.List;
import java.util.Locale;

/**
 * conv and convertCharset (ClickHouse's FunctionConv and convertCharset, of category String): a number's text from one
 * base to another, as MySQL's CONV, and a string's bytes from one charset to another, as ICU converts them.
 */
final class FunctionsConvert {
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    private FunctionsConvert() {
    }

    static void register(FunctionFactory f) {
        f.register("conv", FunctionsString.CATEGORY, (args, ctx) -> conv(args));
        f.register("convertCharset", FunctionsString.CATEGORY, (args, ctx) -> convertCharset(args));
    }

    /**
     * conv(number, from_base, to_base): leading whitespace skipped, an optional sign, then the digits of from_base up to
     * the first that is not one, as an unsigned 64-bit number (saturated at its maximum; negated modulo 2^64 for a
     * minus), written in to_base with upper-case digits. Bases are from 2 to 36.
     */
    private static Evaluator conv(List<Evaluator> args) {
        Functions.argumentCount("conv", args, 3, 0);
        DataType t = TypeRules.stripNullable(args.get(0).type());
        if (!(t instanceof StringType || TypeRules.isNumeric(t)) && !StringArguments.isNull(t)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "number", "conv", "String, FixedString or Number", args.get(0).type());
        }
        String[] names = {"from_base", "to_base"};
        for (int i = 1; i < 3; i++) {
            if (!TypeRules.isInteger(args.get(i).type()) && !Functions.isNothing(args.get(i))) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, names[i - 1], "conv", "Integer", args.get(i).type());
            }
        }
        return Functions.strict(DataTypes.STRING, args, v -> {
            String text = v[0] instanceof String ? (String) v[0] : Values.text(v[0], t);
            long from = StringArguments.toLong(v[1], args.get(1).type());
            long to = StringArguments.toLong(v[2], args.get(2).type());
            if (from < 2 || from > 36 || to < 2 || to > 36) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Base is less than 2 or greater than 36 which is not supported");
            }
            if (text.isEmpty()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Number for conversion is empty");
            }
            int i = 0;
            while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            boolean negative = false;
            if (i < text.length() && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
                negative = text.charAt(i) == '-';
                i++;
            }
            BigInteger n = BigInteger.ZERO;
            BigInteger base = BigInteger.valueOf(from);
            for (; i < text.length(); i++) {
                char c = text.charAt(i);
                int d = c < 0x80 ? Character.digit(c, (int) from) : -1;
                if (d < 0) {
                    break;
                }
                n = n.multiply(base).add(BigInteger.valueOf(d));
                if (n.compareTo(TWO_64) >= 0) {
                    n = TWO_64.subtract(BigInteger.ONE);
                }
            }
            if (negative && n.signum() > 0) {
                n = TWO_64.subtract(n);
            }
            return n.toString((int) to).toUpperCase(Locale.ROOT);
        });
    }

    /**
     * convertCharset(s, from, to): the bytes decoded from charset {@code from} (a malformed sequence as U+FFFD) and
     * encoded in {@code to} (an unmappable character as the SUB byte 0x1A, UTF-16 and UTF-32 little-endian after a byte
     * order mark, as ICU writes them); both charsets constant.
     */
    private static Evaluator convertCharset(List<Evaluator> args) {
        Functions.arity("convertCharset", args, 3);
        for (int i = 0; i < 3; i++) {
            DataType t = args.get(i).type().unwrap();
            if (!(t instanceof StringType && ((StringType) t).fixedLength == 0) && !StringArguments.isNull(t)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(i).type().name()
                    + " of argument of function convertCharset, must be String");
            }
        }
        if (args.stream().anyMatch(Functions::isNothing)) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        Charset from = charset(ByteStrings.toText((String) StringArguments.constant("convertCharset", args, 1)), false);
        Charset to = charset(ByteStrings.toText((String) StringArguments.constant("convertCharset", args, 2)), true);
        return Functions.strict(DataTypes.STRING, args, v -> {
            CharBuffer text;
            try {
                text = from.newDecoder().onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE)
                    .decode(ByteBuffer.wrap(Functions.bytes(v[0])));
            } catch (CharacterCodingException e) {
                throw new ChException(ErrorCode.CANNOT_CREATE_CHARSET_CONVERTER, "Cannot convert from " + from.name());
            }
            CharsetEncoder encoder = to.newEncoder().onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
            if (encoder.isLegalReplacement(new byte[] {0x1A})) {
                encoder.replaceWith(new byte[] {0x1A});
            }
            try {
                ByteBuffer out = encoder.encode(text);
                byte[] b = new byte[out.remaining()];
                out.get(b);
                return ByteStrings.of(b);
            } catch (CharacterCodingException e) {
                throw new ChException(ErrorCode.CANNOT_CREATE_CHARSET_CONVERTER, "Cannot convert to " + to.name());
            }
        });
    }

    /** The charset ICU would open for {@code name}; CANNOT_CREATE_CHARSET_CONVERTER for one it does not know. */
    private static Charset charset(String name, boolean target) {
        String n = name.toUpperCase(Locale.ROOT).replace("_", "-");
        try {
            if (target && (n.equals("UTF-16") || n.equals("UTF16"))) {
                return Charset.forName("x-UTF-16LE-BOM");
            }
            if (target && (n.equals("UTF-32") || n.equals("UTF32"))) {
                return Charset.forName("X-UTF-32LE-BOM");
            }
            return Charset.forName(n.equals("UTF8") ? "UTF-8" : n.equals("LATIN1") ? "ISO-8859-1" : n);
        } catch (IllegalArgumentException e) {
            throw new ChException(ErrorCode.CANNOT_CREATE_CHARSET_CONVERTER, "Cannot create UConverter with charset " + name
                + ", error: U_FILE_ACCESS_ERROR");
        }
    }
}
