package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The time zones ClickHouse loads by name, as DateLUT does: one of the 597 names of the engine's tz database
 * ({@code system.time_zones} of ClickHouse 26.7, recorded in {@code timezones/time_zones.txt}), spelled as there (case
 * matters; the offset forms Java also reads, such as {@code Z}, {@code +05:00} or {@code GMT+5}, are not names), or a
 * fixed offset {@code Fixed/UTC+HH:MM:SS} (two digits each, up to 24 hours; the minutes and seconds are added as
 * given, so {@code +05:60:00} is six hours). The rules are Java's; the few names Java's tz database lacks are the
 * fixed zones or links they are in the engine's. Java's offsets end at 18 hours, so a fixed zone beyond is refused as
 * not implemented.
 */
public final class TimeZones {
    private static final Pattern FIXED = Pattern.compile("Fixed/UTC([+-])(\\d\\d):(\\d\\d):(\\d\\d)");
    /** The engine's names Java's tz database lacks, as the zone they are. */
    private static final Map<String, String> ENGINE_ONLY = Map.of("EST", "-05:00", "MST", "-07:00", "HST", "-10:00",
        "GMT+0", "UTC", "GMT-0", "UTC", "Factory", "UTC", "ROC", "Asia/Taipei");
    private static final List<String> LIST = read();
    private static final Set<String> NAMES = Set.copyOf(LIST);
    private static final ConcurrentMap<String, ZoneId> LOADED = new ConcurrentHashMap<>();

    private TimeZones() {
    }

    /** The engine's time zone names, in its order. */
    public static List<String> names() {
        return LIST;
    }

    private static List<String> read() {
        try (InputStream in = TimeZones.class.getResourceAsStream("/timezones/time_zones.txt")) {
            return List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The zone {@code name} names, or null when ClickHouse would not load it. */
    public static ZoneId find(String name) {
        ZoneId z = LOADED.get(name);
        if (z != null) {
            return z;
        }
        Matcher m = FIXED.matcher(name);
        if (m.matches()) {
            int seconds = Integer.parseInt(m.group(2)) * 3600 + Integer.parseInt(m.group(3)) * 60 + Integer.parseInt(m.group(4));
            if (seconds > 24 * 3600) {
                return null;
            }
            if (seconds > 18 * 3600) {
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Time zone " + name + " is not supported by the stub: its offsets end at 18 hours");
            }
            z = ZoneOffset.ofTotalSeconds("-".equals(m.group(1)) ? -seconds : seconds);
        } else if (NAMES.contains(name)) {
            z = ZoneId.of(ENGINE_ONLY.getOrDefault(name, name));
        } else {
            return null;
        }
        LOADED.putIfAbsent(name, z);
        return z;
    }

    /** The zone a type or a function names, or the engine's BAD_ARGUMENTS. */
    public static ZoneId load(String name) {
        ZoneId z = find(name);
        if (z == null) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Cannot load time zone " + name);
        }
        return z;
    }

    /** The zone a setting ({@code session_timezone}, {@code timezone}) names, or BAD_ARGUMENTS as a setting's check words it. */
    public static ZoneId setting(String name) {
        ZoneId z = find(name);
        if (z == null) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Invalid time zone: " + name);
        }
        return z;
    }
}
