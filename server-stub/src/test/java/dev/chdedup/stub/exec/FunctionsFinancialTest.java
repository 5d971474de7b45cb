package dev.chdedup.stub.exec;

/**
 * The Financial functions held to the engine's answers: net present values (periodic from period 0 or 1, dated with
 * each day count), internal rates of return from several guesses (Boost's Newton iteration, to the last digit; a guess far from the root,
 * whose steps halve towards the bounds, can end a binary digit away from the engine's), the
 * NaN of flows without a root, unsorted or repeated dates, and the errors for wrong argument types.
 */
class FunctionsFinancialTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT financialInternalRateOfReturn([-100, 39, 59, 55, 20])", "0.2809484211599611"},
            {"SELECT financialInternalRateOfReturn([-100, 39, 59, 55, 20], 0.1), financialInternalRateOfReturn([-100, 39, 59, 55, 20], 0.5), financialInternalRateOfReturn([-100., 39, 59]), financialInternalRateOfReturn([100., 39]), financialInternalRateOfReturn(CAST([], 'Array(Float64)'))", "0.2809484211599611\t0.28094842115996105\t-0.01251971633358603\tnan\tnan"},
            {"SELECT financialInternalRateOfReturn([-1000., 300, 300, 300, 300]), financialInternalRateOfReturn([-1000., 100, 100, 100, 1000]), financialInternalRateOfReturn([-5000., 500, 500, 500, 500, 500, 500, 500, 500, 500, 500, 500, 600])", "0.07713847295208363\t0.07773344418395152\t0.03155492283447085"},
            {"SELECT financialInternalRateOfReturn([-100., 39, 59], 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT financialInternalRateOfReturn([toUInt8(100), 39])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT financialInternalRateOfReturnExtended([-10000, 5750, 4250, 3250], [toDate('2020-01-01'), toDate('2020-03-01'), toDate('2020-10-30'), toDate('2021-02-15')])", "0.6342972615260243"},
            {"SELECT financialInternalRateOfReturnExtended([-10000, 5750, 4250, 3250], [toDate('2020-01-01'), toDate('2020-03-01'), toDate('2020-10-30'), toDate('2021-02-15')], 0.5)", "0.6342972615260243"},
            {"SELECT financialInternalRateOfReturnExtended([100000, -110000], [toDate('2020-01-01'), toDate('2021-01-01')], 0.1, 'ACT_365_25'), financialInternalRateOfReturnExtended([100000, -110000], [toDate('2020-01-01'), toDate('2021-01-01')], 0.1, 'ACT_365F')", "0.09978518245839686\t0.09971358593414113"},
            {"SELECT financialInternalRateOfReturnExtended([-100, 110], [toDate('2020-01-01'), toDate('2020-01-01')]), financialInternalRateOfReturnExtended([-100, 110], [toDate32('1950-01-01'), toDate32('1951-07-01')]), financialInternalRateOfReturnExtended([-0., 0.], [toDate('2020-01-01'), toDate('2020-01-02')])", "nan\t0.06578826534854658\tnan"},
            {"SELECT financialNetPresentValue(0.08, [-40000., 5000., 8000., 12000., 30000.]), financialNetPresentValue(0.08, [-40000., 5000., 8000., 12000., 30000.], false), financialNetPresentValue(0.08, [-40000, 5000]), financialNetPresentValue(-1., [1., 2.]), financialNetPresentValue(0., [1., 2.]), toTypeName(financialNetPresentValue(toFloat32(0.1), [toInt8(1)]))", "3065.2226681795255\t2838.1691372032656\t-35370.37037037037\tinf\t3\tFloat64"},
            {"SELECT financialNetPresentValue(1, [-40000., 5000.])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT financialNetPresentValueExtended(0.1, [-10000., 5750., 4250., 3250.], [toDate('2020-01-01'), toDate('2020-03-01'), toDate('2020-10-30'), toDate('2021-02-15')]), financialNetPresentValueExtended(0.1, [-10000., 5750., 4250., 3250.], [toDate('2020-01-01'), toDate('2020-03-01'), toDate('2020-10-30'), toDate('2021-02-15')], 'ACT_365_25')", "2506.579458169746\t2507.067268742502"},
            {"SELECT financialNetPresentValueExtended(0.1, [-10000., 5750.], [toDate('2020-01-01'), toDate('2020-03-01')], 'X')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT financialNetPresentValueExtended(0.1, [-10000., 5750.], [toDate('2020-01-01')])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
        };
    }
}
