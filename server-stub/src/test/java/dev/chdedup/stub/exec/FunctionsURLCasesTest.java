package dev.chdedup.stub.exec;

/**
 * The URL functions (FunctionsURL) beyond their documented examples, held to the engine's answers: hosts with and
 * without a protocol, userinfo, ports and restricted bytes, the RFC forms, IPv6 literals, the public suffixes of
 * firstSignificantSubdomain, the URL parameter scans, the hierarchies, percent-decoding of broken escapes, NULL and
 * Nullable arguments (an array result is never Nullable), rows of a column, and the engine's errors for wrong types,
 * counts and non-constant arguments.
 */
class FunctionsURLCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT domain(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT domain(toFixedString('a.b',3))", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT domain(NULL), toTypeName(domain(NULL)), toTypeName(domain(toNullable('x')))", "\\N\tNullable(Nothing)\tNullable(String)"},
            {"SELECT domain('a','b')", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT port(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT port('http://a.b:80', 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT port('http://a.b', toUInt16(5)), port('http://a.b:99999'), port('http://a.b:8x'), port('a.b:81'), port('http://a.b:80/x'), toTypeName(port('a'))", "5\t0\t0\t81\t80\tUInt16"},
            {"SELECT port('http://a.b:80', toUInt16(443)), port('http://a.b:', toUInt16(3)), portRFC('http://u:p@a.b:8080/', toUInt16(1))", "80\t3\t8080"},
            {"SELECT cutURLParameter(1, 'a')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT cutURLParameter('a', 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT cutURLParameter('http://a/?a=1', [1])", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT cutURLParameter('http://a/?a=1&b=2&a=3', 'a'), cutURLParameter('http://a/?x=1&a=2', 'a'), cutURLParameter('http://a/#a=2', ['a','a']), cutURLParameter('http://a/?a=1', []), cutURLParameter('http://a/?ba=1&a=2', 'a')", "http://a/?b=2&a=3\thttp://a/?x=1\thttp://a/#\thttp://a/?a=1\thttp://a/?ba=1"},
            {"SELECT extractURLParameter('http://a/?ab=1&b=2#a=3', 'a'), extractURLParameter('http://a/?a', 'a'), extractURLParameter('http://a/#a=5&x', 'a'), extractURLParameter('http://a/?b=1&a=', 'a'), extractURLParameter('?a=1', 'a'), extractURLParameter('a=1', 'a')", "3\t\t5\t\t1\t"},
            {"SELECT extractURLParameter(1, 'a')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT extractURLParameter('a', 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT extractURLParameters('http://a/?a=1&b&c=3#d=4?e=5'), extractURLParameterNames('http://a/?a=1&b&c=3#d=4?e=5'), extractURLParameterNames('http://a/?a=1&b'), extractURLParameters('http://a/?a=1&b')", "['a=1','b','c=3','d=4?e=5']\t['a','b','c','d']\t['a']\t['a=1']"},
            {"SELECT extractURLParameters('http://a/?'), extractURLParameters('http://a/?&&x=1&'), extractURLParameterNames('http://a/?&&x=1&'), extractURLParameters('a?b?c=1'), extractURLParameterNames('a?b?c=1'), extractURLParameters('')", "[]\t['','','x=1']\t['','','x']\t['c=1']\t['c']\t[]"},
            {"SELECT URLHierarchy('a.b/c'), URLPathHierarchy('a.b/c'), URLHierarchy('http://a.b'), URLPathHierarchy('http://a.b//x//y?z#w'), URLHierarchy('HTTP://a.b/c'), URLHierarchy('')", "['a.b/c']\t[]\t['http://a.b']\t['//x/','//x//y?','//x//y?z#','//x//y?z#w']\t['HTTP://a.b/c']\t[]"},
            {"SELECT URLHierarchy('http://a.b/'), URLPathHierarchy('http://a.b/'), URLHierarchy('https://x.y/a//b/?#'), URLHierarchy('zip://x'), URLHierarchy('http://')", "['http://a.b/']\t[]\t['https://x.y/','https://x.y/a/','https://x.y/a//b/']\t['zip://x']\t['http://']"},
            {"SELECT cutToFirstSignificantSubdomainCustom('a.b.c', 'other')", "Code: 562 TLD_LIST_NOT_FOUND"},
            {"SELECT firstSignificantSubdomainCustom('a.b')", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT firstSignificantSubdomainCustom(1, 'x')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT firstSignificantSubdomain('http://news.yandex.co.uk/'), firstSignificantSubdomain('http://a.b.com.tr'), firstSignificantSubdomain('www.com'), firstSignificantSubdomain('x.y.z.github.io'), cutToFirstSignificantSubdomain('x.y.z.github.io'), firstSignificantSubdomain('a.b.c.')", "yandex\tb\tcom\tz\tz.github.io\t"},
            {"SELECT firstSignificantSubdomain('http://www.a.co.uk:80/'), cutToFirstSignificantSubdomain('http://www.a.co.uk:80/'), cutToFirstSignificantSubdomainWithWWW('http://www.co.uk'), firstSignificantSubdomainRFC('http://u:p@news.a.com:1/'), firstSignificantSubdomain('co.uk'), firstSignificantSubdomain('a.co.uk')", "a\ta.co.uk\twww.co.uk\ta\tco\ta"},
            {"SELECT decodeURLComponent('%41%4g%4%'), decodeURLComponent('a+b%2'), encodeURLComponent('a b~é'), encodeURLFormComponent('a b~é'), decodeURLFormComponent('%zz+')", "A%4g%4%\ta+b%2\ta%20b~%C3%A9\ta+b~%C3%A9\t%zz "},
            {"SELECT decodeURLComponent('%%41'), decodeURLFormComponent('%+41+'), decodeURLComponent('%'), decodeURLComponent('%4'), decodeURLComponent('%C3%A9'), encodeURLComponent('\\0x'), encodeURLComponent('')", "%%41\t%+41 \t%\t%4\té\t%00x\t"},
            {"SELECT netloc('http://a.b:80/x?y'), netloc('a.b?x'), netloc('//u@a/b'), netloc('http://a b/c'), netloc('ftp://u:p@h.c:21/x#y')", "a.b:80\ta.b\tu@a\ta\tu:p@h.c:21"},
            {"SELECT netloc('a.b/c/d'), netloc('a.b?c?d'), netloc('//a/b/c'), domain('.a.b'), domainRFC('.a.b'), netloc('a;b/c'), netloc('a@b;c/d')", "a.b/c\ta.b?c\ta/b\t.a.b\t.a.b\t\ta@b"},
            {"SELECT netloc('ab;cd'), netloc('ab;cd/e'), netloc('ab%cd'), netloc('http://ab;cd'), netloc('http://ab cd'), netloc('ab cd'), netloc('a;b/c'), netloc(''), netloc('//'), netloc('http://a@b@c/d')", "\t\t\tab\tab\t\t\t\t/\ta@b@c"},
            {"SELECT path('a.b/c?d'), path('http://a.b'), path('//a/b'), pathFull('http://a.b'), pathFull('/x?y'), path('x/y#z'), path('/'), path('//'), pathFull('a//b/c')", "/c\t\t/b\t\t/x?y\t/y\t/\t\t/c"},
            {"SELECT protocol('a:b'), protocol('1a://x'), protocol('a+b-c.d://x'), protocol('abc:'), protocol('abc:/'), protocol('abc:///'), protocol('')", "\t\ta+b-c.d\t\t\tabc\t"},
            {"SELECT fragment('a#b#c'), fragment('a'), queryString('a?b?c#d'), queryStringAndFragment('a#b'), queryStringAndFragment('a?b#c'), cutQueryString('a#b?c'), cutFragment('a?b'), cutQueryStringAndFragment('a#b?c')", "b#c\t\tb?c\t#b\tb#c\ta#b\ta?b\ta#b"},
            {"SELECT cutWWW('www.a.com'), cutWWW('http://u@www.a.com'), cutWWW('//www.a.b'), cutWWW('http://www.'), cutWWW('http://www.a'), cutWWW('x/http://www.a.b'), cutWWW('1http://www.a.b')", "www.a.com\thttp://u@a.com\t//a.b\thttp://www.\thttp://a\tx/http://www.a.b\t1http://www.a.b"},
            {"SELECT topLevelDomain('1.2.3.4'), topLevelDomain('a.b.'), topLevelDomainRFC('http://[::1]:80/'), domainRFC('http://[::1]:80/'), domainRFC('http://u@a.b@c.d/'), domainRFC('a.b:80.c')", "\t\t\t::1\ta.b\ta.b"},
            {"SELECT domain('http://a.b:80/'), domain('user@a.b'), domain('a.b?'), domain('a..b'), domain('a.b.'), domain('http://a.b/c.d'), domain('https://[::1]/'), domain('a.b c'), domain('ab'), domain('x'), domain('')", "a.b\ta.b\ta.b\ta..b\t\ta.b\t\t\t\t\t"},
            {"SELECT domainRFC('http://a.b%20c/'), domainRFC('http://u;x@a.b/'), domainRFC('http://a.b:80 x'), domainRFC('http://[1.2]/'), domainRFC('a'), domainRFC('http://u:p@a.b:80@c.d'), domainWithoutWWW('www.x'), domainWithoutWWW('http://www.a.b')", "\ta.b\ta.b\t\t\ta.b\tx\ta.b"},
            {"SELECT domain(s), netloc(s), port(s), URLHierarchy(s), cutURLParameter(s, 'a'), extractURLParameter(s, 'b') FROM (SELECT arrayJoin(['http://a.b:8/x?a=1&b=2', 'ftp://u@c.d/y#b=3', '']) AS s)", "a.b\ta.b:8\t8\t['http://a.b:8/','http://a.b:8/x?','http://a.b:8/x?a=1&b=2']\thttp://a.b:8/x?b=2\t2\nc.d\tu@c.d\t0\t['ftp://u@c.d/','ftp://u@c.d/y#','ftp://u@c.d/y#b=3']\tftp://u@c.d/y#b=3\t3\n\t\t0\t[]\t\t"},
            {"SELECT domain(toNullable('http://a.b/')), toTypeName(domain(toNullable('http://a.b/'))), port(NULL), toTypeName(port(NULL)), extractURLParameters(NULL), cutURLParameter(NULL, 'a')", "a.b\tNullable(String)\t\\N\tNullable(Nothing)\t\\N\t\\N"},
            {"SELECT protocol('x', 'y')", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT URLHierarchy(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT encodeURLComponent(toFixedString('a', 1))", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT port('a', toUInt16(1), 2)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT toTypeName(extractURLParameters(toNullable('a'))), toTypeName(URLHierarchy(toNullable('a'))), URLPathHierarchy(CAST(NULL AS Nullable(String)))", "Array(String)\tArray(String)\t[]"},
        };
    }
}
