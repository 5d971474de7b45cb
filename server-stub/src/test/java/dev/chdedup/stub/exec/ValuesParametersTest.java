package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import org.junit.jupiter.api.Test;

/**
 * {@code {name:Type}} inside an INSERT's VALUES is the query's parameter, as in ClickHouse 26.7: alone, among literals
 * and inside expressions, with the engine's errors for a parameter not given (456) or not of its type (457), which
 * write nothing. The answers are the engine's (shared/oracle, parameters as param_x URL parameters).
 */
class ValuesParametersTest {
    @Test
    void parametersInValuesAnswerAsTheEngine() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            assertEquals("", EngineAnswers.answer(s, "", "CREATE TABLE pv (a UInt8, s String, d Date) ENGINE = Memory"));
            assertEquals("", EngineAnswers.answer(s, "param_p=5&param_s=hi&param_d=2020-01-02",
                "INSERT INTO pv VALUES ({p:UInt8}, {s:String}, {d:Date})"));
            assertEquals("", EngineAnswers.answer(s, "param_p=6&param_s=yo%27q&param_d=2021-01-01",
                "INSERT INTO pv VALUES ({p:UInt8}, 'x', '2020-01-01'), (2, {s:String}, {d:Date})"));
            assertEquals("", EngineAnswers.answer(s, "param_p=7&param_s=z", "INSERT INTO pv VALUES ({p:UInt8} + 1, concat({s:String}, '!'), '2020-03-04')"));
            assertEquals("Code: 456 UNKNOWN_QUERY_PARAMETER", EngineAnswers.answer(s, "", "INSERT INTO pv VALUES ({q:UInt8}, 'x', today())"));
            assertEquals("Code: 457 BAD_QUERY_PARAMETER", EngineAnswers.answer(s, "param_p=abc", "INSERT INTO pv VALUES (1, 'ok', today()), ({p:UInt8}, 'x', today())"));
            assertEquals("2\tyo\\'q\t2021-01-01\n5\thi\t2020-01-02\n6\tx\t2020-01-01\n8\tz!\t2020-03-04",
                EngineAnswers.answer(s, "", "SELECT * FROM pv ORDER BY a FORMAT TSV"));
        }
    }
}
