package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * ClickHouse's sqid.cpp (category Encoding): sqidEncode (alias sqid) turns UInt numbers into a Sqid and sqidDecode
 * turns one back into an Array(UInt64), with the Sqids defaults: the alphabet a-z A-Z 0-9, no minimum length, and
 * the default blocklist ({@code /functions/sqids_blocklist.txt}); an ID that shows a blocked word is generated again
 * from the next offset. Numbers are unsigned 64-bit; a string with a character outside the alphabet decodes to [].
 */
final class FunctionSqid {
    private static final String CATEGORY = "Encoding";
    private static final String ALPHABET = shuffle("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
    private static final List<String> BLOCKLIST = blocklist();

    private FunctionSqid() {
    }

    static void register(FunctionFactory f) {
        f.register("sqidEncode", CATEGORY, (args, ctx) -> encoder(args));
        f.registerAlias("sqid", "sqidEncode", false);
        f.register("sqidDecode", CATEGORY, (args, ctx) -> decoder(args));
    }

    private static List<String> blocklist() {
        List<String> words = new ArrayList<>();
        try (InputStream in = FunctionSqid.class.getResourceAsStream("/functions/sqids_blocklist.txt");
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String lower = ALPHABET.toLowerCase();
            for (String w; (w = r.readLine()) != null; ) {
                String word = w.toLowerCase();
                if (word.length() >= 3 && word.chars().allMatch(c -> lower.indexOf(c) >= 0)) {
                    words.add(word);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.copyOf(words);
    }

    private static Evaluator encoder(List<Evaluator> args) {
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function sqidEncode requires at least one argument.");
        }
        for (int i = 0; i < args.size(); i++) {
            DataType t = args.get(i).type().unwrap();
            if (!(t instanceof IntType) || ((IntType) t).signed || Functions.isNothing(args.get(i))) {
                if (Functions.isNothing(args.get(i))) {
                    continue;
                }
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument " + i + " for function sqidEncode must have datatype UInt*, given type: "
                    + args.get(i).type().name() + ".");
            }
        }
        return Functions.defaultForNulls(DataTypes.STRING, args, v -> {
            long[] numbers = new long[v.length];
            for (int i = 0; i < v.length; i++) {
                numbers[i] = ((Number) v[i]).longValue();
            }
            return encode(numbers, 0);
        });
    }

    private static Evaluator decoder(List<Evaluator> args) {
        Functions.arity("sqidDecode", args, 1);
        Evaluator a = args.get(0);
        if (Functions.isNothing(a)) {
            return Evaluator.of(DataTypes.nullable(DataTypes.NOTHING), r -> null);
        }
        DataType t = a.type().unwrap();
        if (!(t instanceof StringType) || ((StringType) t).fixedLength > 0) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "sqid", "sqidDecode", "String", a.type());
        }
        return Evaluator.of(DataTypes.array(DataTypes.UINT64), r -> {
            Object v = a.eval(r);
            return v == null ? List.of() : decode((String) v);
        });
    }

    static String encode(long[] numbers, int increment) {
        int n = ALPHABET.length();
        if (increment > n) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Reached max attempts to re-generate the ID");
        }
        long a = numbers.length;
        for (int i = 0; i < numbers.length; i++) {
            a += ALPHABET.charAt((int) Long.remainderUnsigned(numbers[i], n)) + i;
        }
        int offset = (int) ((Long.remainderUnsigned(a, n) + increment) % n);
        String rotated = ALPHABET.substring(offset) + ALPHABET.substring(0, offset);
        char prefix = rotated.charAt(0);
        String alphabet = new StringBuilder(rotated).reverse().toString();
        StringBuilder id = new StringBuilder().append(prefix);
        for (int i = 0; i < numbers.length; i++) {
            id.append(toId(numbers[i], alphabet.substring(1)));
            if (i < numbers.length - 1) {
                id.append(alphabet.charAt(0));
                alphabet = shuffle(alphabet);
            }
        }
        String s = id.toString();
        return blocked(s) ? encode(numbers, increment + 1) : s;
    }

    /** The numbers of {@code id} (a byte string), or none when a character is outside the alphabet. */
    static List<Object> decode(String id) {
        List<Object> out = new ArrayList<>();
        if (id.isEmpty() || id.chars().anyMatch(c -> ALPHABET.indexOf(c) < 0)) {
            return out;
        }
        int offset = ALPHABET.indexOf(id.charAt(0));
        String alphabet = new StringBuilder(ALPHABET.substring(offset) + ALPHABET.substring(0, offset)).reverse().toString();
        String rest = id.substring(1);
        while (!rest.isEmpty()) {
            char separator = alphabet.charAt(0);
            int sep = rest.indexOf(separator);
            String chunk = sep < 0 ? rest : rest.substring(0, sep);
            if (chunk.isEmpty()) {
                return out;
            }
            out.add(toNumber(chunk, alphabet.substring(1)));
            if (sep >= 0) {
                alphabet = shuffle(alphabet);
            }
            rest = sep < 0 ? "" : rest.substring(sep + 1);
        }
        return out;
    }

    private static String shuffle(String alphabet) {
        char[] c = alphabet.toCharArray();
        for (int i = 0, j = c.length - 1; j > 0; i++, j--) {
            int r = (i * j + c[i] + c[j]) % c.length;
            char t = c[i];
            c[i] = c[r];
            c[r] = t;
        }
        return new String(c);
    }

    private static String toId(long number, String alphabet) {
        StringBuilder id = new StringBuilder();
        int n = alphabet.length();
        long rest = number;
        do {
            id.append(alphabet.charAt((int) Long.remainderUnsigned(rest, n)));
            rest = Long.divideUnsigned(rest, n);
        } while (rest != 0);
        return id.reverse().toString();
    }

    private static long toNumber(String id, String alphabet) {
        long a = 0;
        for (int i = 0; i < id.length(); i++) {
            a = a * alphabet.length() + alphabet.indexOf(id.charAt(i));
        }
        return a;
    }

    private static boolean blocked(String id) {
        String lower = id.toLowerCase();
        for (String word : BLOCKLIST) {
            if (word.length() > lower.length()) {
                continue;
            }
            if (lower.length() <= 3 || word.length() <= 3) {
                if (lower.equals(word)) {
                    return true;
                }
            } else if (word.chars().anyMatch(Character::isDigit)) {
                if (lower.startsWith(word) || lower.endsWith(word)) {
                    return true;
                }
            } else if (lower.contains(word)) {
                return true;
            }
        }
        return false;
    }
}
