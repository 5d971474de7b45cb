package dev.chdedup.stub.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import org.junit.jupiter.api.Test;

class EnumTypeTest {
    @Test
    void elementsAreOrderedByValueAndTheSmallestIsTheDefault() {
        DataType t = DataTypes.parse("Enum8('b' = 2, 'a' = 1, 'neg' = -5)");
        assertEquals("Enum8('neg' = -5, 'a' = 1, 'b' = 2)", t.name());
        assertEquals(-5L, t.defaultValue());
    }

    @Test
    void unknownNamesAndValuesAreRefused() {
        DataType t = DataTypes.parse("Enum16('x' = -1000, 'y' = 1000)");
        assertEquals(1000L, t.parseText("y"));
        assertEquals(ErrorCode.UNKNOWN_ELEMENT_OF_ENUM, assertThrows(ChException.class, () -> t.parseText("z")).code());
        assertEquals(ErrorCode.UNKNOWN_ELEMENT_OF_ENUM, assertThrows(ChException.class, () -> t.convert(7L, DataTypes.INT64)).code());
    }

    @Test
    void enumWithoutNumbersCountsFromOne() {
        DataType t = DataTypes.parse("Enum('p', 'q')");
        assertEquals("Enum8('p' = 1, 'q' = 2)", t.name());
    }
}
