package dev.chdedup.stub.exec;

/**
 * Geometry, ClickHouse 26.7's Variant of the geo types under its own name: a column of it takes a Point, a LineString
 * (the first of the array-of-points variants), a MultiLineString or a MultiPolygon from text and shows the value as the
 * variant shows it; its binary type encoding is the custom type's name (BinaryTypeHeaderTest's neighbours hold the
 * bytes).
 */
class GeometryTypeTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT toTypeName(CAST(CAST((1.5, 2) AS Point) AS Geometry)) AS t, CAST(CAST((1.5, 2) AS Point) AS Geometry) AS g FORMAT TSV", "Geometry\t(1.5,2)"},
            {"CREATE TABLE geo_t (k UInt8, g Geometry) ENGINE = Memory", ""},
            {"INSERT INTO geo_t VALUES (1, (1, 2)), (2, [(0, 0), (1, 1)]), (3, [[(0, 0), (1, 0), (1, 1)]]), (4, [[[(0, 0), (1, 0), (0, 1)]]])", ""},
            {"SELECT k, g, toTypeName(g) FROM geo_t ORDER BY k FORMAT TSV", "1\t(1,2)\tGeometry\n2\t[(0,0),(1,1)]\tGeometry\n3\t[[(0,0),(1,0),(1,1)]]\tGeometry\n4\t[[[(0,0),(1,0),(0,1)]]]\tGeometry"},
            {"SELECT k, g FROM geo_t ORDER BY k FORMAT JSONEachRow", "{\"k\":1,\"g\":[1,2]}\n{\"k\":2,\"g\":[[0,0],[1,1]]}\n{\"k\":3,\"g\":[[[0,0],[1,0],[1,1]]]}\n{\"k\":4,\"g\":[[[[0,0],[1,0],[0,1]]]]}"},
            {"DESCRIBE geo_t", "k\tUInt8\t\t\t\t\t\ng\tGeometry\t\t\t\t\t"},
            {"SELECT toTypeName(CAST([(1, 2)] AS Ring)), toTypeName(CAST([[[(1, 2)]]] AS MultiPolygon)) FORMAT TSV", "Ring\tMultiPolygon"},
            {"SELECT hex(CAST(g AS String)) FROM geo_t WHERE k = 1 FORMAT TSV", "28312C3229"}
        };
    }
}
