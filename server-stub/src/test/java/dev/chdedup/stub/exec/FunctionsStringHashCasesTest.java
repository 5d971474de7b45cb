package dev.chdedup.stub.exec;

/**
 * The similarity hashes of FunctionsStringHash held to the engine: n-grams of bytes and of code points, word shingles
 * (short words skipped, fewer words than a shingle), strings shorter than a shingle, empty strings, both case forms,
 * shingle sizes and hash counts, the result types, and the engine's errors for wrong arguments.
 */
class FunctionsStringHashCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT toTypeName(ngramMinHash('a')), toTypeName(ngramMinHashArg('a', 3, 2)), toTypeName(ngramSimHash('a')), ngramSimHash(''), ngramMinHash(''), ngramMinHashArg('', 3, 2), wordShingleMinHash(''), wordShingleSimHash('ab cd'), ngramMinHashArg('ab'), toTypeName(ngramSimHash(NULL)), toTypeName(ngramSimHash('a'::Nullable(String))), ngramSimHash('ab'), ngramSimHashUTF8('ab'), ngramMinHash('ab')", "Tuple(UInt64, UInt64)\tTuple(Tuple(String, String), Tuple(String, String))\tUInt64\t18446744073709551615\t(10693559443859979498,10693559443859979498)\t(('',''),('',''))\t(0,0)\t0\t(('ab','','','','',''),('ab','','','','',''))\tNullable(Nothing)\tNullable(UInt64)\t492689097\t492689097\t(16416356667897345160,16416356667897345160)"},
            {"SELECT ngramSimHash('a', 0)", "Code: 69 ARGUMENT_OUT_OF_BOUND"},
            {"SELECT ngramSimHash('a', 1, 2)", "Code: 34 TOO_MANY_ARGUMENTS_FOR_FUNCTION"},
            {"SELECT ngramMinHash('a', 3, 26)", "Code: 69 ARGUMENT_OUT_OF_BOUND"},
            {"SELECT ngramMinHash('a', 26)", "Code: 69 ARGUMENT_OUT_OF_BOUND"},
            {"SELECT ngramMinHash(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT ngramMinHash(toFixedString('a', 1))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT ngramMinHash('a', -1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT ngramMinHash('a', 1, 1, 1)", "Code: 34 TOO_MANY_ARGUMENTS_FOR_FUNCTION"},
            {"SELECT ngramMinHash()", "Code: 35 TOO_FEW_ARGUMENTS_FOR_FUNCTION"},
            {"SELECT ngramSimHashUTF8('привет мир'), ngramMinHashArgCaseInsensitiveUTF8('ПриВет', 2, 3), wordShingleMinHashArgUTF8('мир труд май hello world', 2, 2)", "2357755784\t(('ри','иВ','ет'),('иВ','ри','Ве'))\t(('мир труд','труд май'),('hello world','май hello'))"},
            {"SELECT ngramSimHash('ClickHouse'), ngramSimHashCaseInsensitive('ClickHouse'), ngramSimHashCaseInsensitiveUTF8('ClickHouse'), ngramSimHashUTF8('ClickHouse'), ngramMinHash('ClickHouse'), ngramMinHashCaseInsensitive('ClickHouse'), ngramMinHashCaseInsensitiveUTF8('ClickHouse'), ngramMinHashUTF8('ClickHouse')", "1627567969\t562180645\t1636742693\t1628157797\t(18333312859352735453,9054248444481805918)\t(2106263556442004574,13203602793651726206)\t(12493625717655877135,13203602793651726206)\t(18333312859352735453,6742163577938632877)"},
            {"SELECT ngramMinHashArg('ClickHouse'), ngramMinHashArgCaseInsensitive('ClickHouse'), ngramMinHashArgCaseInsensitiveUTF8('ClickHouse'), ngramMinHashArgUTF8('ClickHouse')", "(('ous','ick','lic','Hou','kHo','use'),('Hou','lic','ick','ous','ckH','Cli'))\t(('ous','ick','lic','kHo','use','Cli'),('kHo','lic','ick','ous','ckH','Hou'))\t(('ckH','ous','ick','lic','kHo','use'),('kHo','lic','ick','ous','ckH','Hou'))\t(('ous','ick','lic','Hou','kHo','use'),('kHo','Hou','lic','ick','ous','ckH'))"},
            {"SELECT wordShingleMinHash('ClickHouse® is a column-oriented database management system (DBMS) for online analytical processing of queries (OLAP).'), wordShingleMinHashCaseInsensitive('ClickHouse® is a column-oriented database management system (DBMS) for online analytical processing of queries (OLAP).'), wordShingleSimHash('ClickHouse® is a column-oriented database management system (DBMS) for online analytical processing of queries (OLAP).'), wordShingleSimHashCaseInsensitiveUTF8('ClickHouse® is a column-oriented database management system (DBMS) for online analytical processing of queries (OLAP).')", "(16452112859864147620,5844417301642981317)\t(3065874883688416519,1634050779997673240)\t2328277067\t2194812424"},
            {"SELECT wordShingleMinHashArg('ClickHouse® is a column-oriented database management system (DBMS) for online analytical processing of queries (OLAP).', 1, 3), wordShingleMinHashArgCaseInsensitive('ClickHouse® is a column-oriented database management system (DBMS) for online analytical processing of queries (OLAP).', 2, 4)", "(('OLAP','database','analytical'),('online','oriented','processing'))\t(('column-oriented','processing of queries','analytical processing','management system'),('database management','online analytical','queries (OLAP','DBMS) for online'))"},
            {"SELECT wordShingleSimHash('one two three four five six seven eight nine ten eleven', 2), wordShingleMinHashArg('aaaa bbbb cccc dddd aaaa bbbb', 2, 3), wordShingleSimHash('tiny words a b c'), wordShingleMinHashArg('just three words', 5, 2)", "142742019\t(('bbbb cccc','dddd aaaa','cccc dddd'),('dddd aaaa','bbbb cccc','aaaa bbbb'))\t1572434713\t(('just three words',''),('just three words',''))"},
            {"SELECT ngramSimHash('The quick brown fox jumps over the lazy dog', 5), ngramMinHash('The quick brown fox jumps over the lazy dog', 4, 10), ngramMinHashArgUTF8('日本語のテキスト', 2, 2), ngramSimHashCaseInsensitiveUTF8('ÄÖÜ äöü', 1)", "2829312802\t(565606475994539181,12895571400204874086)\t(('テキ','本語'),('のテ','スト'))\t2486321778"},
            {"SELECT number, ngramSimHash(toString(number * 12345)), wordShingleMinHash(concat('word', toString(number), ' second third fourth')) FROM numbers(3) FORMAT TSV", "0\t2640438559\t(17373122231031847262,14119138762925616830)\n1\t4018467978\t(6727604165865821085,12894129629512233856)\n2\t1909927377\t(5975981036392587910,17665528594492936903)"},
        };
    }
}
