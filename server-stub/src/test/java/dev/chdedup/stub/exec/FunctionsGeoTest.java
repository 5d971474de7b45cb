package dev.chdedup.stub.exec;

/**
 * The Geo functions beyond their documented examples, held to the engine's answers: geohashes at every precision and
 * past the coordinate ranges, undecodable characters, boxes without width or outside the ranges, the array size limit;
 * points in ellipses and polygons with holes and on a boundary; wkt and svg of each shape (six significant digits,
 * rings closed and, for svg, oriented); distances near each other (the flat model); the errors of each.
 * Random geohash, wkt and svg queries were compared with the engine too (0 of 6,000 differ).
 */
class FunctionsGeoTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT geohashEncode(1.5, 2.5, 0), geohashEncode(1.5, 2.5, 13), geohashEncode(-200., 100.), geohashEncode(180., 90., 5), geohashEncode(-180., -90., 3), geohashEncode(0., 0., 1)", "s03n4ph789c0\ts03n4ph789c0\tbpbpbpbpbpbp\tzzzzz\t000\ts"},
            {"SELECT geohashEncode(toFloat32(-5.6), toFloat32(42.6), 6), geohashEncode(-5.60302734375, 42.593994140625, toUInt64(9))", "ezs42e\tezs42d000"},
            {"SELECT geohashEncode(1, 2)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT geohashEncode(1.5, 2.5, 3.5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT geohashDecode(''), geohashDecode('zzzz!'), geohashDecode('ABC'), geohashDecode('s'), geohashDecode('s0000000000000000')", "(0,0)\t(179.97802734375,89.97802734375)\t(179.296875,89.296875)\t(22.5,22.5)\t(1.6763806343078613e-7,8.381903171539307e-8)"},
            {"SELECT geohashDecode(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT geohashesInBox(0., 0., 1., 1., 1), geohashesInBox(1., 1., 0., 0., 2), geohashesInBox(0., 0., 0., 0., 2), geohashesInBox(-185., -95., -184., -94., 2)", "['s']\t[]\t['s0']\t['00']"},
            {"SELECT geohashesInBox(-180., -90., 180., 90., 1)", "['0','2','8','b','1','3','9','c','4','6','d','f','5','7','e','g','h','k','s','u','j','m','t','v','n','q','w','y','p','r','x','z']"},
            {"SELECT geohashesInBox(0., 0., 100., 100., 6)", "Code: 128 TOO_LARGE_ARRAY_SIZE"},
            {"SELECT geohashesInBox(toFloat32(24.48), 40.56, 24.785, 40.81, 4)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT geohashesInBox(toFloat32(24.48), toFloat32(40.56), toFloat32(24.785), toFloat32(40.81), 4)", "['sx1q','sx1r','sx32','sx1w','sx1x','sx38']"},
            {"SELECT pointInEllipses(1., 1., 0., 0., 2., 2.), pointInEllipses(10., 10., 10., 9.1, 1., 0.9999, 0., 0., 1., 1.), pointInEllipses(5., 5., 0., 0., 1., 1., 5., 6., 1., 1.)", "1\t1\t1"},
            {"SELECT pointInEllipses(1, 1, 0, 0, 2, 2)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT pointInEllipses(1., 2., 3.)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT pointInPolygon((3., 3.), [(6, 0), (8, 4), (5, 8), (0, 2)]), pointInPolygon((0., 0.), [(0., 0.), (1., 0.), (1., 1.)]), pointInPolygon((9., 9.), [(6, 0), (8, 4), (5, 8), (0, 2)])", "1\t1\t0"},
            {"SELECT pointInPolygon((5, 5), [(0, 0), (10, 0), (10, 10), (0, 10)], [(4, 4), (6, 4), (6, 6), (4, 6)]), pointInPolygon((2, 2), [(0, 0), (10, 0), (10, 10), (0, 10)], [(4, 4), (6, 4), (6, 6), (4, 6)])", "0\t1"},
            {"SELECT wkt((0.1 + 0.2, 1 / 3)), wkt((1e20, 1e-7)), wkt((123456789.123, -0.)), wkt((1.5, -2.25))", "POINT(0.3 0.333333)\tPOINT(1e+20 1e-07)\tPOINT(1.23457e+08 -0)\tPOINT(1.5 -2.25)"},
            {"SELECT wkt([(0., 0.), (1., 1.), (1., 0.)]), wkt([[(0., 0.), (1., 1.), (1., 0.)]]), wkt([[[(0., 0.), (1., 1.), (1., 0.)]]]), wkt([]::Array(Point))", "POLYGON((0 0,1 1,1 0))\tPOLYGON((0 0,1 1,1 0,0 0))\tMULTIPOLYGON(((0 0,1 1,1 0,0 0)))\tPOLYGON()"},
            {"SELECT wkt([[(0., 0.), (1., 1.), (1., 0.)], [(0.2, 0.2), (0.3, 0.3), (0.3, 0.2)]]), wkt([[[(0., 0.), (1., 0.), (1., 1.)]], []])", "POLYGON((0 0,1 1,1 0,0 0),(0.2 0.2,0.3 0.3,0.3 0.2,0.2 0.2))\tMULTIPOLYGON(((0 0,1 0,1 1,0 0)),())"},
            {"SELECT wkt([(0, 1)])", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT wkt('a')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT svg((0.0, 1.0)), svg([(0., 0.), (1., 1.)]), svg([(0., 0.), (1., 0.), (1., 1.)]), svg((0., 1.), 'fill:red')", "<circle cx=\"0\" cy=\"1\" r=\"5\" style=\"\"/>\t<polygon points=\"0,0 1,1\" style=\"\"/>\t<polygon points=\"0,0 1,1 1,0 0,0\" style=\"\"/>\t<circle cx=\"0\" cy=\"1\" r=\"5\" style=\"fill:red\"/>"},
            {"SELECT svg([[(0., 0.), (1., 0.), (1., 1.)]]), svg([[(0., 0.), (1., 1.), (1., 0.)], [(0.2, 0.2), (0.3, 0.3), (0.3, 0.2)]])", "<g fill-rule=\"evenodd\"><path d=\"M 0,0 L 1,1 L 1,0 L 0,0 z \" style=\"\"/></g>\t<g fill-rule=\"evenodd\"><path d=\"M 0,0 L 1,1 L 1,0 L 0,0M 0.2,0.2 L 0.3,0.2 L 0.3,0.3 L 0.2,0.2 z \" style=\"\"/></g>"},
            {"SELECT svg([[[(0., 0.), (1., 1.), (1., 0.)]], [[(5., 5.), (6., 6.), (6., 5.)]]])", "<g fill-rule=\"evenodd\"><path d=\"M 0,0 L 1,1 L 1,0 L 0,0 z \" style=\"\"/></g><g fill-rule=\"evenodd\"><path d=\"M 5,5 L 6,6 L 6,5 L 5,5 z \" style=\"\"/></g>"},
            {"SELECT svg((1., 2.), 3)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT greatCircleDistance(55.755831, 37.617673, 55.755831, 37.7), geoDistance(38.8976, -77.0366, 39.9496, -75.1503), greatCircleAngle(0., 0., 1., 1.), toTypeName(greatCircleDistance(1, 2, 3, 4)), greatCircleDistance(1, 2, 3, 4)", "9154.355043964642\t212458.82819586992\t1.4141862010872988\tFloat32\t314291.62"},
            {"SELECT greatCircleDistance('a', 1, 2, 3)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
        };
    }
}
