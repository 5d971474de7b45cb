package dev.chdedup.stub.exec.geo;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.FunctionFactory;
import dev.chdedup.stub.exec.Functions;
import dev.chdedup.stub.exec.TypeRules;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.Values;
import java.util.List;

/**
 * UTM and MGRS on the WGS84 ellipsoid, as ClickHouse's UTMCoordinates.cpp and its functions geoToUTM, UTMToGeo,
 * geoToMGRS and MGRSToGeo: the truncated Snyder series of the transverse Mercator projection (zone 1..60 from the
 * longitude with the Norway and Svalbard exceptions, or forced), latitudes in [-80, 84]; MGRS strings are zone, band
 * letter, the 100 km square's two letters (proj4js/mgrs lettering) and 0 to 5 digits each of easting and northing,
 * decoded to the centre of the square they name. The arithmetic keeps the engine's order of operations.
 */
public final class FunctionsUTM {
    private static final String CATEGORY = "Geo";
    private static final double A = 6378137.0;
    private static final double E2 = 0.0066943799901413165;
    private static final double K0 = 0.9996;
    private static final double FALSE_EASTING = 500000.0;
    private static final double FALSE_NORTHING = 10000000.0;
    private static final double DEG_TO_RAD = Math.PI / 180.0;
    private static final double RAD_TO_DEG = 180.0 / Math.PI;
    private static final String BANDS = "CDEFGHJKLMNPQRSTUVWX";
    private static final String SET_COLUMN_ORIGINS = "AJSAJS";
    private static final String SET_ROW_ORIGINS = "AFAFAF";
    /** The least northing of each band letter of {@link #BANDS}, for the 2000 km cycle a row letter repeats in. */
    private static final double[] BAND_MIN_NORTHING = {1100000, 2000000, 2800000, 3700000, 4600000, 5500000, 6400000,
        7300000, 8200000, 9100000, 0, 800000, 1700000, 2600000, 3500000, 4400000, 5300000, 6200000, 7000000, 7900000};

    private static final DataType UTM = DataTypes.parse("Tuple(easting Float64, northing Float64, zone UInt8, band FixedString(1))");
    private static final DataType LON_LAT = DataTypes.parse("Tuple(longitude Float64, latitude Float64)");

    private FunctionsUTM() {
    }

    public static void register(FunctionFactory f) {
        f.register("geoToUTM", CATEGORY, (args, ctx) -> geoToUTM(args));
        f.register("UTMToGeo", CATEGORY, (args, ctx) -> utmToGeo(args));
        f.register("geoToMGRS", CATEGORY, (args, ctx) -> geoToMGRS(args));
        f.register("MGRSToGeo", CATEGORY, (args, ctx) -> mgrsToGeo(args));
    }

    // ---- argument checks, as validateFunctionArguments words them ----

    private static void check(String fn, List<Evaluator> args, int i, String name, boolean ok, String expected) {
        if (!ok && !Functions.isNothing(args.get(i))) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, name, fn, expected, args.get(i).type());
        }
    }

    private static double asDouble(Object v, Evaluator e) {
        return Values.toNumber(v, e.type()).doubleValue();
    }

    private static long asLong(Object v, Evaluator e) {
        return Values.toLong(Values.toNumber(v, e.type()));
    }

    /** The longitude and latitude of geoToUTM and geoToMGRS: finite, latitude in [-80, 84], longitude in [-180, 180]. */
    private static void checkDomain(String fn, double lon, double lat) {
        if (!Double.isFinite(lon) || !Double.isFinite(lat)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Arguments of function " + fn + " must be finite numbers");
        }
        if (lat < -80.0 || lat > 84.0) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Latitude " + number(lat) + " is out of the UTM domain [-80, 84] in function " + fn);
        }
        if (lon < -180.0 || lon > 180.0) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Longitude " + number(lon) + " is out of range [-180, 180] in function " + fn);
        }
    }

    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    private static int zone(String fn, long zone) {
        if (zone < 1 || zone > 60) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "UTM zone " + zone + " is out of range [1, 60] in function " + fn);
        }
        return (int) zone;
    }

    private static void coordinates(String fn, List<Evaluator> args, String optionalName) {
        Functions.argumentCount(fn, args, 2, 1);
        check(fn, args, 0, "longitude", args.get(0).type().unwrap() instanceof FloatType, "Float*");
        check(fn, args, 1, "latitude", args.get(1).type().unwrap() instanceof FloatType, "Float*");
        if (args.size() == 3) {
            check(fn, args, 2, optionalName, TypeRules.isInteger(args.get(2).type()), "(U)Int*");
        }
    }

    // ---- the functions ----

    private static Evaluator geoToUTM(List<Evaluator> args) {
        String fn = "geoToUTM";
        coordinates(fn, args, "zone");
        return Functions.defaultForNulls(UTM, args, v -> {
            double lon = asDouble(v[0], args.get(0));
            double lat = asDouble(v[1], args.get(1));
            checkDomain(fn, lon, lat);
            int forced = v.length == 3 ? zone(fn, asLong(v[2], args.get(2))) : 0;
            double[] utm = toUTM(lon, lat, forced);
            return List.of(utm[0], utm[1], (long) utm[2], ByteStrings.fromText(String.valueOf(band(lat))));
        });
    }

    private static Evaluator utmToGeo(List<Evaluator> args) {
        String fn = "UTMToGeo";
        Functions.arity(fn, args, 4);
        check(fn, args, 0, "easting", TypeRules.isNumeric(args.get(0).type()), "Number");
        check(fn, args, 1, "northing", TypeRules.isNumeric(args.get(1).type()), "Number");
        check(fn, args, 2, "zone", TypeRules.isInteger(args.get(2).type()), "(U)Int*");
        check(fn, args, 3, "is_north", TypeRules.isInteger(args.get(3).type()), "(U)Int*");
        return Functions.defaultForNulls(LON_LAT, args, v -> {
            double easting = asDouble(v[0], args.get(0));
            double northing = asDouble(v[1], args.get(1));
            if (!Double.isFinite(easting) || !Double.isFinite(northing)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Easting and northing arguments of function " + fn
                    + " must be finite numbers");
            }
            int zone = zone(fn, asLong(v[2], args.get(2)));
            long north = asLong(v[3], args.get(3));
            if (north != 0 && north != 1) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Argument is_north of function " + fn + " must be 0 or 1, but got " + north);
            }
            double[] p = fromUTM(easting, northing, zone, north == 1);
            return List.of(p[0], p[1]);
        });
    }

    private static Evaluator geoToMGRS(List<Evaluator> args) {
        String fn = "geoToMGRS";
        coordinates(fn, args, "precision");
        return Functions.defaultForNulls(DataTypes.STRING, args, v -> {
            double lon = asDouble(v[0], args.get(0));
            double lat = asDouble(v[1], args.get(1));
            checkDomain(fn, lon, lat);
            int precision = 5;
            if (v.length == 3) {
                long p = asLong(v[2], args.get(2));
                if (p < 0 || p > 5) {
                    throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Precision " + p + " is out of range [0, 5] in function " + fn);
                }
                precision = (int) p;
            }
            return ByteStrings.fromText(mgrsEncode(lon, lat, precision));
        });
    }

    private static Evaluator mgrsToGeo(List<Evaluator> args) {
        String fn = "MGRSToGeo";
        Functions.arity(fn, args, 1);
        check(fn, args, 0, "mgrs", args.get(0).type().unwrap() instanceof StringType, "String or FixedString");
        return Functions.defaultForNulls(LON_LAT, args, v -> {
            double[] p = mgrsDecode(ByteStrings.toText((String) v[0]));
            return List.of(p[0], p[1]);
        });
    }

    // ---- the projection ----

    static char band(double lat) {
        if (lat >= 72.0 && lat <= 84.0) {
            return 'X';
        }
        return lat >= -80.0 && lat < 72.0 ? BANDS.charAt((int) Math.floor((lat + 80.0) / 8.0)) : 0;
    }

    private static int autoZone(double lon, double lat) {
        int zone = Math.max(1, Math.min(60, (int) Math.floor((lon + 180.0) / 6.0) + 1));
        if (lat >= 56.0 && lat < 64.0 && lon >= 3.0 && lon < 12.0) {
            zone = 32;
        }
        if (lat >= 72.0 && lat <= 84.0) {
            if (lon >= 0.0 && lon < 9.0) {
                zone = 31;
            } else if (lon >= 9.0 && lon < 21.0) {
                zone = 33;
            } else if (lon >= 21.0 && lon < 33.0) {
                zone = 35;
            } else if (lon >= 33.0 && lon < 42.0) {
                zone = 37;
            }
        }
        return zone;
    }

    /** {easting, northing, zone} of a point, in the zone {@code forced} (1..60) or the point's own (0). */
    static double[] toUTM(double lon, double lat, int forced) {
        double phi = lat * DEG_TO_RAD;
        double lambda = lon * DEG_TO_RAD;
        int zone = forced >= 1 && forced <= 60 ? forced : autoZone(lon, lat);
        double lambda0 = ((zone - 1) * 6.0 - 180.0 + 3.0) * DEG_TO_RAD;
        double ep2 = E2 / (1.0 - E2);
        double sin = Math.sin(phi);
        double cos = Math.cos(phi);
        double tan = Math.tan(phi);
        double n = A / Math.sqrt(1.0 - E2 * sin * sin);
        double t = tan * tan;
        double c = ep2 * cos * cos;
        double a = cos * (lambda - lambda0);
        double m = A * ((1.0 - E2 / 4.0 - 3.0 * E2 * E2 / 64.0 - 5.0 * E2 * E2 * E2 / 256.0) * phi
            - (3.0 * E2 / 8.0 + 3.0 * E2 * E2 / 32.0 + 45.0 * E2 * E2 * E2 / 1024.0) * Math.sin(2.0 * phi)
            + (15.0 * E2 * E2 / 256.0 + 45.0 * E2 * E2 * E2 / 1024.0) * Math.sin(4.0 * phi)
            - (35.0 * E2 * E2 * E2 / 3072.0) * Math.sin(6.0 * phi));
        double easting = K0 * n * (a + (1.0 - t + c) * a * a * a / 6.0
            + (5.0 - 18.0 * t + t * t + 72.0 * c - 58.0 * ep2) * a * a * a * a * a / 120.0) + FALSE_EASTING;
        double northing = K0 * (m + n * tan * (a * a / 2.0 + (5.0 - t + 9.0 * c + 4.0 * c * c) * a * a * a * a / 24.0
            + (61.0 - 58.0 * t + t * t + 600.0 * c - 330.0 * ep2) * a * a * a * a * a * a / 720.0));
        if (lat < 0.0) {
            northing += FALSE_NORTHING;
        }
        return new double[] {easting, northing, zone};
    }

    /** {longitude, latitude} of a UTM position. */
    static double[] fromUTM(double easting, double northing, int zone, boolean north) {
        double e1 = (1.0 - Math.sqrt(1.0 - E2)) / (1.0 + Math.sqrt(1.0 - E2));
        double x = easting - FALSE_EASTING;
        double y = north ? northing : northing - FALSE_NORTHING;
        double lambda0 = (zone - 1) * 6.0 - 180.0 + 3.0;
        double ep2 = E2 / (1.0 - E2);
        double mu = y / K0 / (A * (1.0 - E2 / 4.0 - 3.0 * E2 * E2 / 64.0 - 5.0 * E2 * E2 * E2 / 256.0));
        double phi1 = mu + (3.0 * e1 / 2.0 - 27.0 * e1 * e1 * e1 / 32.0) * Math.sin(2.0 * mu)
            + (21.0 * e1 * e1 / 16.0 - 55.0 * e1 * e1 * e1 * e1 / 32.0) * Math.sin(4.0 * mu)
            + (151.0 * e1 * e1 * e1 / 96.0) * Math.sin(6.0 * mu);
        double sin = Math.sin(phi1);
        double cos = Math.cos(phi1);
        double tan = Math.tan(phi1);
        double n1 = A / Math.sqrt(1.0 - E2 * sin * sin);
        double t1 = tan * tan;
        double c1 = ep2 * cos * cos;
        double r1 = A * (1.0 - E2) / Math.pow(1.0 - E2 * sin * sin, 1.5);
        double d = x / (n1 * K0);
        double phi = phi1 - (n1 * tan / r1) * (d * d / 2.0
            - (5.0 + 3.0 * t1 + 10.0 * c1 - 4.0 * c1 * c1 - 9.0 * ep2) * d * d * d * d / 24.0
            + (61.0 + 90.0 * t1 + 298.0 * c1 + 45.0 * t1 * t1 - 252.0 * ep2 - 3.0 * c1 * c1) * d * d * d * d * d * d / 720.0);
        double lambda = (d - (1.0 + 2.0 * t1 + c1) * d * d * d / 6.0
            + (5.0 - 2.0 * c1 + 28.0 * t1 - 3.0 * c1 * c1 + 8.0 * ep2 + 24.0 * t1 * t1) * d * d * d * d * d / 120.0) / cos;
        return new double[] {lambda0 + lambda * RAD_TO_DEG, phi * RAD_TO_DEG};
    }

    // ---- MGRS ----

    private static int set(int zone) {
        int s = zone % 6;
        return s == 0 ? 6 : s;
    }

    /** A letter {@code steps} after {@code origin}, skipping I and O, wrapping after {@code last}. */
    private static char letter(char origin, int steps, char last) {
        char c = origin;
        for (int i = 0; i < steps; i++) {
            c = next(c, last);
        }
        return c;
    }

    private static char next(char c, char last) {
        c++;
        if (c == 'I') {
            c++;
        }
        if (c == 'O') {
            c++;
        }
        return c > last ? 'A' : c;
    }

    static String mgrsEncode(double lon, double lat, int precision) {
        double[] utm = toUTM(lon, lat, 0);
        long easting = (long) Math.floor(utm[0]);
        long northing = (long) Math.floor(utm[1]);
        int zone = (int) utm[2];
        int s = set(zone);
        int column = (int) Math.floor(easting / 100000.0);
        int row = (int) Math.floor(northing / 100000.0) % 20;
        StringBuilder out = new StringBuilder().append(zone).append(band(lat));
        out.append(letter(SET_COLUMN_ORIGINS.charAt(s - 1), column - 1, 'Z'));
        out.append(letter(SET_ROW_ORIGINS.charAt(s - 1), row, 'V'));
        if (precision > 0) {
            out.append(digits(easting, precision)).append(digits(northing, precision));
        }
        return out.toString();
    }

    private static String digits(long value, int precision) {
        long within = Math.floorMod(value, 100000L);
        return String.format("%05d", within).substring(0, precision);
    }

    private static ChException bad(String message) {
        return new ChException(ErrorCode.BAD_ARGUMENTS, message);
    }

    /** The centre {longitude, latitude} of the square an MGRS string names; spaces are ignored, letters any case. */
    static double[] mgrsDecode(String mgrs) {
        StringBuilder sb = new StringBuilder();
        for (char ch : mgrs.toCharArray()) {
            if (ch != ' ' && (ch < '\t' || ch > '\r')) {
                sb.append(ch >= 'a' && ch <= 'z' ? (char) (ch - 32) : ch);
            }
        }
        String s = sb.toString();
        int i = 0;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
            if (i > 2) {
                throw bad("Invalid MGRS string '" + mgrs + "': zone designator must be one or two digits");
            }
        }
        if (i == 0) {
            throw bad("Invalid MGRS string '" + mgrs + "': missing zone number");
        }
        int zone = Integer.parseInt(s.substring(0, i));
        if (zone < 1 || zone > 60) {
            throw bad("Invalid MGRS zone number " + zone + " in string '" + mgrs + "'");
        }
        if (i + 3 > s.length()) {
            throw bad("Invalid MGRS string '" + mgrs + "': too short");
        }
        char band = s.charAt(i++);
        int bandIndex = BANDS.indexOf(band);
        if (bandIndex < 0) {
            throw bad("Invalid MGRS latitude band '" + band + "' in string '" + mgrs + "'");
        }
        if (band == 'X' && (zone == 32 || zone == 34 || zone == 36)) {
            throw bad("MGRS zone " + zone + " does not exist in the X band in string '" + mgrs + "'");
        }
        char columnLetter = s.charAt(i++);
        char rowLetter = s.charAt(i++);
        int set = set(zone);
        double easting = 100000.0 * (1 + steps(SET_COLUMN_ORIGINS.charAt(set - 1), columnLetter, 'Z', "column"));
        if (easting > 800000.0) {
            throw bad("MGRS 100km column letter '" + columnLetter + "' is out of range for the zone");
        }
        if (rowLetter > 'V') {
            throw bad("Invalid MGRS 100km row letter '" + rowLetter + "'");
        }
        double northing = 100000.0 * steps(SET_ROW_ORIGINS.charAt(set - 1), rowLetter, 'V', "row");
        while (northing < BAND_MIN_NORTHING[bandIndex]) {
            northing += 2000000.0;
        }
        int remainder = s.length() - i;
        if (remainder % 2 != 0) {
            throw bad("Invalid MGRS string '" + mgrs + "': odd number of location digits");
        }
        int per = remainder / 2;
        if (per > 5) {
            throw bad("Invalid MGRS string '" + mgrs + "': more than five digits per coordinate");
        }
        double cell = 100000.0;
        if (per > 0) {
            for (int k = i; k < s.length(); k++) {
                if (s.charAt(k) < '0' || s.charAt(k) > '9') {
                    throw bad("Invalid MGRS string '" + mgrs + "': non-digit in location");
                }
            }
            cell = 100000.0 / Math.pow(10.0, per);
            easting += Double.parseDouble(s.substring(i, i + per)) * cell;
            northing += Double.parseDouble(s.substring(i + per)) * cell;
        }
        easting += cell / 2.0;
        northing += cell / 2.0;
        double[] p = fromUTM(easting, northing, zone, band >= 'N');
        double bandMin = -80.0 + 8.0 * bandIndex;
        double bandMax = band == 'X' ? 84.0 : bandMin + 8.0;
        if (p[1] < bandMin - 1.0 || p[1] > bandMax + 1.0) {
            throw bad("MGRS 100km square does not intersect latitude band '" + band + "' in string '" + mgrs + "'");
        }
        return p;
    }

    /** How many letters (I and O skipped, wrapping once after {@code last}) {@code letter} is after {@code origin}. */
    private static int steps(char origin, char letter, char last, String what) {
        char c = origin;
        int n = 0;
        boolean wrapped = false;
        while (c != letter) {
            c++;
            if (c == 'I') {
                c++;
            }
            if (c == 'O') {
                c++;
            }
            if (c > last) {
                if (wrapped) {
                    throw bad("Invalid MGRS 100km " + what + " letter '" + letter + "'");
                }
                c = 'A';
                wrapped = true;
            }
            n++;
        }
        return n;
    }
}
