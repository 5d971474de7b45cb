package dev.chdedup.stub.exec.timeseries;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * timeSeriesReplaceTag's regular expression (matched against the whole value) and replacement pattern, read as
 * Prometheus' label_replace reads it: {@code $$} is a dollar, {@code $name} and {@code ${name}} a capture group (a
 * name of at most 9 digits without a leading zero a number, else a named group; a group that does not exist is
 * nothing), any other {@code $} itself.
 */
final class TimeSeriesReplacement {
    /** A piece of the replacement: {@code text}, or the group {@code group} (a number or a name) when text is null. */
    private record Fragment(String text, Object group) {
    }

    private final Pattern pattern;
    private final List<Fragment> fragments = new ArrayList<>();

    private TimeSeriesReplacement(Pattern pattern) {
        this.pattern = pattern;
    }

    static TimeSeriesReplacement compile(String regex, String replacement) {
        String text = ByteStrings.toText(regex);
        Pattern p;
        try {
            p = Pattern.compile(text.replace("(?P<", "(?<"), Pattern.DOTALL);
        } catch (PatternSyntaxException e) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Invalid regular expression '" + text + "': " + e.getDescription());
        }
        TimeSeriesReplacement r = new TimeSeriesReplacement(p);
        r.parse(ByteStrings.toText(replacement), p.matcher("").groupCount());
        return r;
    }

    private void parse(String s, int groups) {
        StringBuilder text = new StringBuilder();
        int pos = 0;
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c != '$') {
                text.append(c);
                pos++;
                continue;
            }
            if (pos + 1 < s.length() && s.charAt(pos + 1) == '$') {
                text.append('$');
                pos += 2;
                continue;
            }
            boolean brace = pos + 1 < s.length() && s.charAt(pos + 1) == '{';
            int start = pos + 1 + (brace ? 1 : 0);
            int end = start;
            while (end < s.length() && (Character.isLetterOrDigit(s.charAt(end)) && s.charAt(end) < 128 || s.charAt(end) == '_')) {
                end++;
            }
            if (end == start || brace && (end >= s.length() || s.charAt(end) != '}')) {
                text.append('$');
                pos++;
                continue;
            }
            String name = s.substring(start, end);
            pos = end + (brace ? 1 : 0);
            boolean numeric = name.length() <= 9 && name.chars().allMatch(ch -> ch >= '0' && ch <= '9')
                && !(name.length() > 1 && name.charAt(0) == '0');
            Object group = numeric ? (Object) Integer.parseInt(name) : name;
            if (numeric && (Integer) group > groups) {
                continue;
            }
            if (text.length() > 0) {
                fragments.add(new Fragment(text.toString(), null));
                text.setLength(0);
            }
            fragments.add(new Fragment(null, group));
        }
        if (text.length() > 0) {
            fragments.add(new Fragment(text.toString(), null));
        }
    }

    /** The replacement for {@code value} (a byte string), or null when the expression does not match all of it. */
    String replace(String value) {
        Matcher m = pattern.matcher(ByteStrings.toText(value));
        if (!m.matches()) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (Fragment f : fragments) {
            if (f.text() != null) {
                sb.append(f.text());
                continue;
            }
            String g;
            try {
                g = f.group() instanceof Integer i ? m.group(i) : m.group((String) f.group());
            } catch (IllegalArgumentException e) {
                g = null; // no group of that name
            }
            if (g != null) {
                sb.append(g);
            }
        }
        return ByteStrings.fromText(sb.toString());
    }
}
