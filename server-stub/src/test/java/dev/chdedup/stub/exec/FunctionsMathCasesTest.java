package dev.chdedup.stub.exec;

/**
 * The Mathematical functions beyond their documented examples, held to the engine's answers: Float64 results of
 * every number type, NULL and Nullable arguments, the special functions (erf, lgamma, tgamma, the inverse hyperbolic
 * ones) over a range of values, intExp2 and intExp10 at their limits, factorial, isPrime and isProbablePrime, widthBucket,
 * and the engine's errors for wrong types and counts; and system.functions' rows of the families of this work.
 */
class FunctionsMathCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT name, is_aggregate, case_insensitive, alias_to, categories FROM system.functions WHERE name IN ('acos','atan2','ln','power','e','pi','factorial','widthBucket','width_bucket','intExp2','isPrime','bitCount','bitSlice','bitTestAny','intDiv','intDivOrNull','modOrNull','pmod','positive_modulo','divideOrNull','lcm','avg2','midpoint','sqr','byteSwap','ifNotFinite','divideDecimal','round','roundBankers','ceiling','truncate','roundDown','roundAge','nullIn','globalNotNullInIgnoreSet','isDistinctFrom') ORDER BY name", "acos\t0\t1\t\tMathematical\natan2\t0\t1\t\tMathematical\navg2\t0\t1\t\tArithmetic\nbitCount\t0\t0\t\tBit\nbitSlice\t0\t0\t\tBit\nbitTestAny\t0\t0\t\tBit\nbyteSwap\t0\t1\t\tArithmetic\nceiling\t0\t1\tceil\t\ndivideDecimal\t0\t0\t\tArithmetic\ndivideOrNull\t0\t0\t\tArithmetic\ne\t0\t0\t\tMathematical\nfactorial\t0\t1\t\tMathematical\nglobalNotNullInIgnoreSet\t0\t0\t\tComparison\nifNotFinite\t0\t0\t\tArithmetic\nintDiv\t0\t0\t\tArithmetic\nintDivOrNull\t0\t0\t\tArithmetic\nintExp2\t0\t0\t\tMathematical\nisDistinctFrom\t0\t0\t\tComparison\nisPrime\t0\t0\t\tMathematical\nlcm\t0\t0\t\tArithmetic\nln\t0\t1\tlog\t\nmidpoint\t0\t1\t\tArithmetic\nmodOrNull\t0\t1\tmoduloOrNull\t\nnullIn\t0\t0\t\tComparison\npi\t0\t1\t\tMathematical\npmod\t0\t1\tpositiveModulo\t\npositive_modulo\t0\t1\tpositiveModulo\t\npower\t0\t1\tpow\t\nround\t0\t1\t\tRounding\nroundAge\t0\t0\t\tRounding\nroundBankers\t0\t0\t\tRounding\nroundDown\t0\t0\t\tRounding\nsqr\t0\t1\t\tArithmetic\ntruncate\t0\t1\ttrunc\t\nwidthBucket\t0\t0\t\tMathematical\nwidth_bucket\t0\t1\twidthBucket\t"},
            {"SELECT asinh(0), atan(1), atan2(1, 1), atanh(0), cbrt(8), cos(0), cosh(0), degrees(3.141592653589793), erf(3 / sqrt(2)), erfc(0), exp10(2), exp2(3)", "0\t0.7853981633974483\t0.7853981633974483\t0\t2\t1\t1\t180\t0.9973002039367398\t1\t100\t8"},
            {"SELECT factorial(10), hypot(1, 1), intExp10(2), intExp2(3), isPrime(17), isPrime(18), isPrime(18446744073709551557), isPrime(18446744073709551615)", "3628800\t1.4142135623730951\t100\t8\t1\t0\t1\t0"},
            {"SELECT isProbablePrime(17), isProbablePrime(18446744073709551557), isProbablePrime(toUInt128('170141183460469231731687303715884105727')), isProbablePrime(toUInt256('57896044618658097711785492504343953926634992332820282019728792003956564819949'), 5)", "1\t1\t1\t1"},
            {"SELECT lgamma(5), log10(100), log1p(0), log2(8), radians(180), sigmoid(0), sin(1.23), sinh(0), tan(0), tanh(0), tgamma(5), widthBucket(10.15, -8.6, 23, 18)", "3.1780538303479458\t2\t0\t3\t3.141592653589793\t0.5\t0.9424888019316975\t0\t0\t0\t24\t11"},
            {"SELECT toTypeName(sin(toFloat32(1))), toTypeName(sin(toDecimal32(1,2))), sin(toDecimal32(1,2)), toTypeName(sin(toUInt256(1))), toTypeName(sin(NULL)), toTypeName(sin(toNullable(1)))", "Float64\tFloat64\t0.8414709848078965\tFloat64\tNullable(Nothing)\tNullable(Float64)"},
            {"SELECT sin('a')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT sin(1,2)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT atan2(1)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT atan2('a',1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT sin(true)", "0.8414709848078965"},
            {"SELECT sin(toDate('2020-01-01'))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"select toTypeName(intExp2(3)), toTypeName(intExp10(3)), intExp2(64), intExp2(-1), intExp10(20), intExp10(-1), intExp10(1.5), intExp2(2.7), intExp2(63), intExp10(19)", "UInt64\tUInt64\t18446744073709551615\t0\t18446744073709551615\t0\t10\t4\t9223372036854775808\t10000000000000000000"},
            {"select toTypeName(intExp2(toInt8(3))), toTypeName(intExp10(toFloat32(3))), intExp2(-0.5), intExp10(-0.5), intExp2(63.9), intExp10(18.9), intExp10(19), intExp2(inf), intExp2(-inf), toTypeName(intExp2(NULL)), intExp2(toUInt64(18446744073709551615))", "UInt64\tUInt64\t0\t0\t9223372036854775808\t1000000000000000000\t10000000000000000000\t18446744073709551615\t0\tNullable(Nothing)\t18446744073709551615"},
            {"select intExp2(nan)", "Code: 36 BAD_ARGUMENTS"},
            {"select intExp2(toInt128(3))", "Code: 48 NOT_IMPLEMENTED"},
            {"select intExp10(toDecimal32(2,1))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"select intExp2('a')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"select intExp2(true)", "2"},
            {"select factorial(toInt8(-5)), factorial(0), factorial(true), toTypeName(factorial(toInt64(3)))", "1\t1\t1\tUInt64"},
            {"select factorial(21)", "Code: 36 BAD_ARGUMENTS"},
            {"select factorial(1.5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"select factorial(toUInt128(3))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"select factorial(toDecimal32(3,0))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT toTypeName(widthBucket(10, 1, 20, toUInt8(18))), toTypeName(widthBucket(10, 1, 20, toUInt64(18))), widthBucket(100, 1, 20, 5), widthBucket(-1, 1, 20, 5), widthBucket(5, 20, 1, 5), widthBucket(5, 1, 1, 5), widthBucket(20,1,20,5), widthBucket(1,1,20,5), widthBucket(100,1,20,toUInt8(255)), toTypeName(widthBucket(100,1,20,toUInt16(255)))", "UInt16\tUInt64\t6\t0\t0\t0\t6\t1\t256\tUInt32"},
            {"SELECT widthBucket(5, 1, 20, 0)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT widthBucket(5, 1, 20, -1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT widthBucket(5, 1, inf, 5)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT widthBucket(nan, 1, 20, 5)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT widthBucket('a', 1, 20, 5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT widthBucket(toDecimal32(5,1), 1, 20, 5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT isPrime(toInt8(-7))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT isPrime(toUInt128(7))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT isPrime(1), isPrime(0), isPrime(2), toTypeName(isPrime(toNullable(3))), isPrime(true), isPrime(NULL)", "0\t0\t1\tNullable(UInt8)\t0\t\\N"},
            {"SELECT isProbablePrime(toInt32(-7))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT isProbablePrime(9, 0)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT isProbablePrime(7, 1.5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT isProbablePrime(7, number) from numbers(2)", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT isProbablePrime(1,2,3)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT POWER(2, 10), Ln(e()), PI(), SQRT(4), pow(toFloat32(2), 0.5), e(1)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT exp(1), log(10), ln(2), sqrt(2), pow(2, -1), pow(-8, 1/3)", "2.718281828459045\t2.302585092994046\t0.6931471805599453\t1.4142135623730951\t0.5\tnan"},
            {"SELECT erf(x), erfc(x), lgamma(x), asinh(x), atanh(x/10) FROM (SELECT arrayJoin([0.1, 0.7, 1.1, 3.7, 7.9, 13.2, -0.45, -2.7, 1e-10, 25.5, 100.25]) x)", "0.1124629160182849\t0.8875370839817152\t2.2527126517342055\t0.09983407889920758\t0.010000333353334763\n0.6778011938374184\t0.32219880616258156\t0.2608672465316666\t0.6526665660823557\t0.07011467065432511\n0.8802050695740817\t0.11979493042591827\t-0.049872441259839764\t0.9503469298211343\t0.11044691579009716\n0.9999998328489421\t1.6715105790914596e-7\t1.428072326665388\t2.0192606561549606\t0.38842309971829614\n1\t5.572718056952545e-29\t8.32426586800881\t2.7639918511000183\t1.0714316840586662\n1\t9.081198495979797e-78\t20.494004194566035\t3.274795734544773\tnan\n-0.47548171978692366\t1.4754817197869237\t1.2785385523288975\t-0.43604966885174057\t-0.04503041195909056\n-0.9998656672600594\t1.9998656672600594\t-0.07140708531564649\t-1.7190518512089272\t-0.2768638226551001\n1.1283791670955126e-10\t0.999999999887162\t23.025850929882736\t1e-10\t1.0000000000000001e-11\n1\t8.801662690727949e-285\t56.389167643719944\t3.9322098787031616\tnan\n1\t0\t360.28455963776423\t5.3008391212856845\tnan"},
            {"SELECT acosh(x), sin(x), cos(x), cbrt(x), exp2(x), sinh(x), atan(x), log1p(x), sigmoid(x) FROM (SELECT arrayJoin([1, 1.5, 2, 1000, 0.5, 3]) x)", "0\t0.8414709848078965\t0.5403023058681398\t1\t2\t1.1752011936438014\t0.7853981633974483\t0.6931471805599453\t0.7310585786300049\n0.9624236501192069\t0.9974949866040544\t0.0707372016677029\t1.1447142425533319\t2.8284271247461903\t2.1292794550948173\t0.982793723247329\t0.9162907318741551\t0.8175744761936437\n1.3169578969248166\t0.9092974268256817\t-0.4161468365471424\t1.2599210498948732\t4\t3.626860407847019\t1.1071487177940904\t1.0986122886681098\t0.8807970779778823\n7.600902209541989\t0.8268795405320025\t0.5623790762907029\t10\t1.0715086071862673e301\tinf\t1.5697963271282298\t6.90875477931522\t1\nnan\t0.479425538604203\t0.8775825618903728\t0.7937005259840998\t1.4142135623730951\t0.5210953054937474\t0.4636476090008061\t0.4054651081081644\t0.6224593312018546\n1.762747174039086\t0.1411200080598672\t-0.9899924966004454\t1.4422495703074083\t8\t10.017874927409903\t1.2490457723982544\t1.3862943611198906\t0.9525741268224334"},
            {"SELECT tgamma(x) FROM (SELECT arrayJoin([1, 2, 3, 10]) x)", "1\n1\n2\n362880"},
            {"SELECT lgamma(toInt8(-3)), erf(toDecimal32(1.5, 1)), erfc(-30), erf(-inf), asinh(-1e300), acosh(1e300), atanh(1), atanh(-1), atanh(2)", "nan\t0.9661051464753108\t2\t-1\t-691.4686750787736\t691.4686750787736\tinf\t-inf\tnan"},
            {"SELECT intExp2(number), intExp10(number) FROM numbers(21) WHERE number % 5 = 0", "1\t1\n32\t100000\n1024\t10000000000\n32768\t1000000000000000\n1048576\t18446744073709551615"},
        };
    }
}
