package dev.chdedup.stub.exec;

/**
 * readWKB, readWKT and wkb of exec.geo.FunctionsGeometryWKB held to the engine: every geo type both ways, little- and
 * big-endian WKB, trailing bytes, empty geometries, Geometry and concrete-typed columns, NULL rows and literals, and
 * the engine's errors for bad flags, types, truncated data, unknown WKT types and malformed text.
 */
class FunctionsGeometryWKBCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT readWKT('LINESTRING (1 1, 2 2, 3 3, 1 1)'), readWKT('POINT (1 2)'), readWKT('POLYGON ((0 0, 1 0, 1 1, 0 0))'), readWKT('MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)))'), readWKT('MULTILINESTRING ((0 0, 1 1), (2 2, 3 3))'), toTypeName(readWKT('POINT (1 2)'))", "[(1,1),(2,2),(3,3),(1,1)]\t(1,2)\t[[(0,0),(1,0),(1,1),(0,0)]]\t[[[(0,0),(1,0),(1,1),(0,0)]]]\t[[(0,0),(1,1)],[(2,2),(3,3)]]\tGeometry"},
            {"SELECT readWKT('POLYGON ((0 0, 1 0, 1 1, 0 0), (0.1 0.1, 0.2 0.2, 0.1 0.1))'), readWKT('MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 6, 5 5)))'), readWKT('POLYGON ((0 0, 1 0, 1 1))'), readWKT('point(1 2)'), readWKT('  POINT  ( 1.5e1   -2 )  '), readWKT('LINESTRING EMPTY'), readWKT('MultiLineString((1 2,3 4))')", "[[(0,0),(1,0),(1,1),(0,0)],[(0.1,0.1),(0.2,0.2),(0.1,0.1)]]\t[[[(0,0),(1,0),(1,1),(0,0)]],[[(5,5),(6,6),(5,5)]]]\t[[(0,0),(1,0),(1,1)]]\t(1,2)\t(15,-2)\t[]\t[[(1,2),(3,4)]]"},
            {"SELECT readWKT(x), toTypeName(readWKT(x)) FROM (SELECT arrayJoin([toNullable('POINT (1 2)'), NULL, 'LINESTRING (0 0, -1.25 3e-5)']) AS x)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT readWKT(NULL), toTypeName(readWKT(NULL))", "\\N\tNullable(Nothing)"},
            {"SELECT readWKT('LINEARRING (0 0, 1 1)')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT readWKT('MULTIPOINT (1 2, 3 4)')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT readWKT('foo')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT readWKT('')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT readWKT(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT readWKT(toFixedString('POINT (1 2)', 11))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT readWKT('POINT (1 2 3)')", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT readWKT('POINT (1,2)')", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT readWKT('LINESTRING (1 1, 2 2) x')", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT readWKT('POINT(1 2)x')", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT readWKT('POLYGON ((0 0, 1 0, 1 1, 0 0)')", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT readWKT('POINT (a 2)')", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT readWKT('POINT (1 2)', 1)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT readWKB(unhex('010300000001000000050000000000000000000040000000000000000000000000000024400000000000000000000000000000244000000000000024400000000000000000000000000000244000000000000000400000000000000000'))", "[[(2,0),(10,0),(10,10),(0,10),(2,0)]]"},
            {"SELECT readWKB(unhex('0101000000000000000000F03F0000000000000040')), readWKB(unhex('00000000013FF00000000000004000000000000000')), readWKB(unhex('0101000000000000000000F03F00000000000000400000')), toTypeName(readWKB(unhex('0101000000000000000000F03F0000000000000040')))", "(1,2)\t(1,2)\t(1,2)\tGeometry"},
            {"SELECT readWKB(wkb([[(0.,0.),(1.,1.)]]::MultiLineString)), readWKB(wkb([[[(0.,0.),(1.,1.)]]]::MultiPolygon)), readWKB(wkb([(0.,0.),(1.,1.)]::LineString)), readWKB(wkb([]::LineString)), readWKB(wkb([[(0.,0.),(1.,1.)], [(2.5, -3.75), (1e300, -1e-300)]]::Polygon))", "[[(0,0),(1,1)]]\t[[[(0,0),(1,1)]]]\t[(0,0),(1,1)]\t[]\t[[(0,0),(1,1)],[(2.5,-3.75),(1e300,-1e-300)]]"},
            {"SELECT readWKB(wkb(readWKT('MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 6, 5 5), (1 2, 3 4)))'))), hex(wkb(readWKT('MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 6, 5 5), (1 2, 3 4)))')))", "[[[(0,0),(1,0),(1,1),(0,0)]],[[(5,5),(6,6),(5,5)],[(1,2),(3,4)]]]\t0106000000020000000103000000010000000400000000000000000000000000000000000000000000000000F03F0000000000000000000000000000F03F000000000000F03F000000000000000000000000000000000103000000020000000300000000000000000014400000000000001440000000000000184000000000000018400000000000001440000000000000144002000000000000000000F03F000000000000004000000000000008400000000000001040"},
            {"SELECT readWKB(x), toTypeName(readWKB(x)) FROM (SELECT arrayJoin([toNullable(unhex('0101000000000000000000F03F0000000000000040')), NULL]) AS x)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT readWKB(NULL), toTypeName(readWKB(NULL))", "\\N\tNullable(Nothing)"},
            {"SELECT readWKB('abc')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT readWKB('')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT readWKB(unhex('0201000000'))", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT readWKB(unhex('01'))", "Code: 33 CANNOT_READ_ALL_DATA"},
            {"SELECT readWKB(unhex('0102000000'))", "Code: 33 CANNOT_READ_ALL_DATA"},
            {"SELECT readWKB(unhex('01020000000200000000000000000000000000000000'))", "Code: 33 CANNOT_READ_ALL_DATA"},
            {"SELECT readWKB(unhex('0104000000010000000101000000000000000000F03F0000000000000040'))", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT readWKB(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT readWKB(toFixedString(unhex('0101000000000000000000F03F0000000000000040'), 21))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT toTypeName(wkb((1.,2.)::Point)), hex(wkb((1.,2.)::Point)), hex(wkb([(0.,0.),(1.,1.)]::LineString)), hex(wkb([[(0.,0.),(1.,1.)]]::MultiLineString)), hex(wkb([[(0.,0.),(1.,1.)]]::Polygon)), hex(wkb([[[(0.,0.),(1.,1.)]]]::MultiPolygon)), hex(wkb([]::LineString)), hex(wkb([[]]::Polygon))", "String\t0101000000000000000000F03F0000000000000040\t01020000000200000000000000000000000000000000000000000000000000F03F000000000000F03F\t01050000000100000001020000000200000000000000000000000000000000000000000000000000F03F000000000000F03F\t0103000000010000000200000000000000000000000000000000000000000000000000F03F000000000000F03F\t0106000000010000000103000000010000000200000000000000000000000000000000000000000000000000F03F000000000000F03F\t010200000000000000\t01030000000100000000000000"},
            {"SELECT toTypeName(wkb(readWKT('POINT (1 2)'))), hex(wkb(readWKT('POINT (1 2)'))), hex(wkb(readWKT('POLYGON ((0 0, 1 0, 1 1, 0 0))'))), hex(wkb(readWKT('LINESTRING (-1 -2, 3.5 1e10)')))", "Nullable(String)\t0101000000000000000000F03F0000000000000040\t0103000000010000000400000000000000000000000000000000000000000000000000F03F0000000000000000000000000000F03F000000000000F03F00000000000000000000000000000000\t010200000002000000000000000000F0BF00000000000000C00000000000000C40000000205FA00242"},
            {"SELECT wkb(CAST(NULL AS Geometry)), toTypeName(wkb(CAST(NULL AS Geometry))), wkb(NULL), toTypeName(wkb(NULL))", "\\N\tNullable(String)\t\\N\tNullable(Nothing)"},
            {"SELECT wkb([(0.,0.),(1.,1.)]::Ring)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT wkb((1., 2.))", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT wkb('a')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT wkb()", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"CREATE TABLE h3geo_wkb (a Point, l LineString, p Polygon, g Geometry) ENGINE = Memory", ""},
            {"INSERT INTO h3geo_wkb VALUES ((0, 0), [(1, 2), (3, 4)], [[(0, 0), (1, 0), (1, 1)]], (5, 6)), ((-1.5, 2.25), [], [], [(7, 8)])", ""},
            {"SELECT hex(wkb(a)), hex(wkb(l)), hex(wkb(p)), hex(wkb(g)), readWKB(wkb(g)) FROM h3geo_wkb ORDER BY a.1", "0101000000000000000000F8BF0000000000000240\t010200000000000000\t010300000000000000\t0102000000010000000000000000001C400000000000002040\t[(7,8)]\n010100000000000000000000000000000000000000\t010200000002000000000000000000F03F000000000000004000000000000008400000000000001040\t0103000000010000000300000000000000000000000000000000000000000000000000F03F0000000000000000000000000000F03F000000000000F03F\t010100000000000000000014400000000000001840\t(5,6)"},
            {"DROP TABLE h3geo_wkb", ""},
        };
    }
}
