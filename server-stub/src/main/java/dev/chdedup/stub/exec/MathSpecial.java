package dev.chdedup.stub.exec;

/**
 * The special functions of doubles that java.lang.Math lacks, computed as the C library ClickHouse links computes them
 * (fdlibm's methods, which glibc and musl share for these): erf and erfc, lgamma, tgamma, the inverse hyperbolic
 * functions, and log2. Each is within an ulp of the true value and equal to the C library's for the cases tested
 * against the engine.
 */
final class MathSpecial {
    private MathSpecial() {
    }

    private static final double LN2 = 6.93147180559945286227e-01;

    private static int high(double x) {
        return (int) (Double.doubleToRawLongBits(x) >>> 32);
    }

    /** {@code x} with its low 32 bits cleared. */
    private static double clearLow(double x) {
        return Double.longBitsToDouble(Double.doubleToRawLongBits(x) & 0xFFFFFFFF00000000L);
    }

    // erf and erfc: rational approximations on [0, 0.84375), [0.84375, 1.25), [1.25, 1/0.35) and [1/0.35, 28)
    private static final double ERX = 8.45062911510467529297e-01;
    private static final double EFX = 1.28379167095512586316e-01;
    private static final double EFX8 = 1.02703333676410069053e+00;
    private static final double[] PP = {1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02,
        -5.77027029648944159157e-03, -2.37630166566501626084e-05};
    private static final double[] QQ = {1.0, 3.97917223959155352819e-01, 6.50222499887672944485e-02, 5.08130628187576562776e-03,
        1.32494738004321644526e-04, -3.96022827877536812320e-06};
    private static final double[] PA = {-2.36211856075265944077e-03, 4.14856118683748331666e-01, -3.72207876035701323847e-01,
        3.18346619901161753674e-01, -1.10894694282396677476e-01, 3.54783043256182359371e-02, -2.16637559486879084300e-03};
    private static final double[] QA = {1.0, 1.06420880400844228286e-01, 5.40397917702171048937e-01, 7.18286544141962662868e-02,
        1.26171219808761642112e-01, 1.36370839120290507362e-02, 1.19844998467991074170e-02};
    private static final double[] RA = {-9.86494403484714822705e-03, -6.93858572707181764372e-01, -1.05586262253232909814e+01,
        -6.23753324503260060396e+01, -1.62396669462573470355e+02, -1.84605092906711035994e+02, -8.12874355063065934246e+01,
        -9.81432934416914548592e+00};
    private static final double[] SA = {1.0, 1.96512716674392571292e+01, 1.37657754143519042600e+02, 4.34565877475229228821e+02,
        6.45387271733267880336e+02, 4.29008140027567833386e+02, 1.08635005541779435134e+02, 6.57024977031928170135e+00,
        -6.04244152148580987438e-02};
    private static final double[] RB = {-9.86494292470009928597e-03, -7.99283237680523006574e-01, -1.77579549177547519889e+01,
        -1.60636384855821916062e+02, -6.37566443368389627722e+02, -1.02509513161107724954e+03, -4.83519191608651397019e+02};
    private static final double[] SB = {1.0, 3.03380607434824582924e+01, 3.25792512996573918826e+02, 1.53672958608443695994e+03,
        3.19985821950859553908e+03, 2.55305040643316442583e+03, 4.74528541206955367215e+02, -2.24409524465858183362e+01};

    /** c[0] + z * (c[1] + z * (...)), Horner's rule from the highest coefficient down. */
    private static double poly(double[] c, double z) {
        double r = c[c.length - 1];
        for (int i = c.length - 2; i >= 0; i--) {
            r = c[i] + z * r;
        }
        return r;
    }

    /** exp(-x*x - 0.5625 + R/S) / x for |x| in [1.25, 28), x positive. */
    private static double erfcTail(double x, int ix) {
        double s = 1.0 / (x * x);
        double r;
        double q;
        if (ix < 0x4006DB6E) {
            r = poly(RA, s);
            q = poly(SA, s);
        } else {
            r = poly(RB, s);
            q = poly(SB, s);
        }
        double z = clearLow(x);
        return Math.exp(-z * z - 0.5625) * Math.exp((z - x) * (z + x) + r / q) / x;
    }

    static double erf(double x) {
        int hx = high(x);
        int ix = hx & 0x7fffffff;
        if (ix >= 0x7ff00000) {
            return Double.isNaN(x) ? x : x > 0 ? 1.0 : -1.0;
        }
        if (ix < 0x3feb0000) {
            if (ix < 0x3e300000) {
                return ix < 0x00800000 ? 0.125 * (8.0 * x + EFX8 * x) : x + EFX * x;
            }
            double z = x * x;
            return x + x * (poly(PP, z) / poly(QQ, z));
        }
        if (ix < 0x3ff40000) {
            double s = Math.abs(x) - 1.0;
            double pq = poly(PA, s) / poly(QA, s);
            return hx >= 0 ? ERX + pq : -ERX - pq;
        }
        if (ix >= 0x40180000) {
            return hx >= 0 ? 1.0 - 1e-300 : 1e-300 - 1.0;
        }
        double r = erfcTail(Math.abs(x), ix);
        return hx >= 0 ? 1.0 - r : r - 1.0;
    }

    static double erfc(double x) {
        int hx = high(x);
        int ix = hx & 0x7fffffff;
        if (ix >= 0x7ff00000) {
            return Double.isNaN(x) ? x : x > 0 ? 0.0 : 2.0;
        }
        if (ix < 0x3feb0000) {
            if (ix < 0x3c700000) {
                return 1.0 - x;
            }
            double z = x * x;
            double y = poly(PP, z) / poly(QQ, z);
            if (hx < 0x3fd00000) {
                return 1.0 - (x + x * y);
            }
            double r = x * y + (x - 0.5);
            return 0.5 - r;
        }
        if (ix < 0x3ff40000) {
            double s = Math.abs(x) - 1.0;
            double pq = poly(PA, s) / poly(QA, s);
            return hx >= 0 ? (1.0 - ERX) - pq : 1.0 + (ERX + pq);
        }
        if (ix < 0x403c0000) {
            if (hx < 0 && ix >= 0x40180000) {
                return 2.0 - 1e-300;
            }
            double r = erfcTail(Math.abs(x), ix);
            return hx > 0 ? r : 2.0 - r;
        }
        return hx > 0 ? 0.0 : 2.0 - 1e-300;
    }

    // lgamma: reduction to [1.5, 2.5] or [2, 3], polynomials around the minimum, Stirling's series from 8
    private static final double TC = 1.46163214496836224576e+00;
    private static final double TF = -1.21486290535849611461e-01;
    private static final double TT = -3.63867699703950536541e-18;
    private static final double[] A_EVEN = {7.72156649015328655494e-02, 6.73523010531292681824e-02, 7.38555086081402883957e-03,
        1.19270763183362067845e-03, 2.20862790713908385557e-04, 2.52144565451257326939e-05};
    private static final double[] A_ODD = {3.22467033424113591611e-01, 2.05808084325167332806e-02, 2.89051383673415629091e-03,
        5.10069792153511336608e-04, 1.08011567247583939954e-04, 4.48640949618915160150e-05};
    private static final double[] T0 = {4.83836122723810047042e-01, -3.27885410759859649565e-02, 6.10053870246291332635e-03,
        -1.40346469989232843813e-03, 3.15632070903625950361e-04};
    private static final double[] T1 = {-1.47587722994593911752e-01, 1.79706750811820387126e-02, -3.68452016781138256760e-03,
        8.81081882437654011382e-04, -3.12754168375120860518e-04};
    private static final double[] T2 = {6.46249402391333854778e-02, -1.03142241298341437450e-02, 2.25964780900612472250e-03,
        -5.38595305356740546715e-04, 3.35529192635519073543e-04};
    private static final double[] U = {-7.72156649015328655494e-02, 6.32827064025093366517e-01, 1.45492250137234768737e+00,
        9.77717527963372745603e-01, 2.28963728064692451092e-01, 1.33810918536787660377e-02};
    private static final double[] V = {1.0, 2.45597793713041134822e+00, 2.12848976379893395361e+00, 7.69285150456672783825e-01,
        1.04222645593369134254e-01, 3.21709242282423911810e-03};
    private static final double[] S = {-7.72156649015328655494e-02, 2.14982415960608852501e-01, 3.25778796408930981787e-01,
        1.46350472652464452805e-01, 2.66422703033638609560e-02, 1.84028451407337715652e-03, 3.19475326584100867617e-05};
    private static final double[] R = {1.0, 1.39200533467621045958e+00, 7.21935547567138069525e-01, 1.71933865632803078993e-01,
        1.86459191715652901344e-02, 7.77942496381893596434e-04, 7.32668430744625636189e-06};
    private static final double[] W = {4.18938533204672725052e-01, 8.33333333333329678849e-02, -2.77777777728775536470e-03,
        7.93650558643019558500e-04, -5.95187557450339963135e-04, 8.36339918996282139126e-04, -1.63092934096575273989e-03};

    static double lgamma(double x) {
        long bits = Double.doubleToRawLongBits(x);
        boolean negative = bits < 0;
        int ix = (int) (bits >>> 32) & 0x7fffffff;
        if (ix >= 0x7ff00000) {
            return x * x;
        }
        if (ix < (0x3ff - 70) << 20) {
            return -Math.log(Math.abs(x));
        }
        double nadj = 0;
        if (negative) {
            x = -x;
            if (x == Math.rint(x)) {
                return Double.NaN; // the engine's answer at the poles (a C library's would be inf)
            }
            double t = Math.sin(Math.PI * x);
            nadj = Math.log(Math.PI / (Math.abs(t) * x));
        }
        double r;
        if ((ix == 0x3ff00000 || ix == 0x40000000) && (int) bits == 0) {
            r = 0;
        } else if (ix < 0x40000000) {
            double y;
            int i;
            if (ix <= 0x3feccccc) {
                r = -Math.log(x);
                if (ix >= 0x3FE76944) {
                    y = 1.0 - x;
                    i = 0;
                } else if (ix >= 0x3FCDA661) {
                    y = x - (TC - 1.0);
                    i = 1;
                } else {
                    y = x;
                    i = 2;
                }
            } else {
                r = 0.0;
                if (ix >= 0x3FFBB4C3) {
                    y = 2.0 - x;
                    i = 0;
                } else if (ix >= 0x3FF3B4C4) {
                    y = x - TC;
                    i = 1;
                } else {
                    y = x - 1.0;
                    i = 2;
                }
            }
            if (i == 0) {
                double z = y * y;
                double p = y * poly(A_EVEN, z) + z * poly(A_ODD, z);
                r += p - 0.5 * y;
            } else if (i == 1) {
                double z = y * y;
                double w = z * y;
                double p = z * poly(T0, w) - (TT - w * (poly(T1, w) + y * poly(T2, w)));
                r += TF + p;
            } else {
                r += -0.5 * y + y * poly(U, y) / poly(V, y);
            }
        } else if (ix < 0x40200000) {
            int i = (int) x;
            double y = x - i;
            r = 0.5 * y + y * poly(S, y) / poly(R, y);
            double z = 1.0;
            for (int k = i - 1; k >= 2; k--) {
                z *= y + k;
            }
            if (i >= 3) {
                r += Math.log(z);
            }
        } else if (ix < 0x43900000) {
            double t = Math.log(x);
            double z = 1.0 / x;
            double y = z * z;
            double w = W[0] + z * (W[1] + y * (W[2] + y * (W[3] + y * (W[4] + y * (W[5] + y * W[6])))));
            r = (x - 0.5) * (t - 1.0) + w;
        } else {
            r = x * (Math.log(x) - 1.0);
        }
        return negative ? nadj - r : r;
    }

    /** Gamma(x): exact for the positive integers whose factorials a double holds, else from lgamma and its sign. */
    static double tgamma(double x) {
        if (Double.isNaN(x) || x == Double.NEGATIVE_INFINITY) {
            return Double.NaN;
        }
        if (x == 0) {
            return 1.0 / x;
        }
        if (x < 0 && x == Math.rint(x)) {
            return Double.NaN;
        }
        if (x == Math.rint(x) && x <= 23) {
            double f = 1;
            for (int i = 2; i < (int) x; i++) {
                f *= i;
            }
            return f;
        }
        if (x > 171.7) {
            return Double.POSITIVE_INFINITY;
        }
        double g = Math.exp(lgamma(x));
        if (x < 0 && ((long) Math.floor(x)) % 2 != 0) {
            g = -g;
        }
        return g;
    }

    static double asinh(double x) {
        double a = Math.abs(x);
        int ix = high(x) & 0x7fffffff;
        if (ix >= 0x7ff00000) {
            return x + x;
        }
        if (ix < 0x3e300000) {
            return x;
        }
        double w;
        if (ix > 0x41b00000) {
            w = Math.log(a) + LN2;
        } else if (ix > 0x40000000) {
            w = Math.log(2.0 * a + 1.0 / (Math.sqrt(x * x + 1.0) + a));
        } else {
            double t = x * x;
            w = Math.log1p(a + t / (1.0 + Math.sqrt(1.0 + t)));
        }
        return x < 0 ? -w : w;
    }

    static double acosh(double x) {
        if (Double.isNaN(x) || x < 1) {
            return Double.NaN;
        }
        int hx = high(x);
        if (hx >= 0x41b00000) {
            return hx >= 0x7ff00000 ? x + x : Math.log(x) + LN2;
        }
        if (x == 1.0) {
            return 0.0;
        }
        if (hx > 0x40000000) {
            double t = x * x;
            return Math.log(2.0 * x - 1.0 / (x + Math.sqrt(t - 1.0)));
        }
        double t = x - 1.0;
        return Math.log1p(t + Math.sqrt(2.0 * t + t * t));
    }

    static double atanh(double x) {
        double a = Math.abs(x);
        if (Double.isNaN(x) || a > 1) {
            return Double.NaN;
        }
        if (a == 1) {
            return x / 0.0;
        }
        int ix = high(x) & 0x7fffffff;
        if (ix < 0x3e300000) {
            return x;
        }
        double t;
        if (ix < 0x3fe00000) {
            t = a + a;
            t = 0.5 * Math.log1p(t + t * a / (1.0 - a));
        } else {
            t = 0.5 * Math.log1p((a + a) / (1.0 - a));
        }
        return x < 0 ? -t : t;
    }

    /** log(1 + x): the logarithm of 1 + x itself where that sum is exact (closer to the C library's), else Math.log1p. */
    static double log1p(double x) {
        double u = 1 + x;
        return u - 1 == x && u != 1 ? Math.log(u) : Math.log1p(x);
    }

    /** log2(x): exact at powers of two, else the exponent plus log2 of the mantissa in [sqrt(1/2), sqrt(2)). */
    static double log2(double x) {
        if (!(x > 0) || Double.isInfinite(x)) {
            return x == 0 ? Double.NEGATIVE_INFINITY : x < 0 ? Double.NaN : x;
        }
        int e = Math.getExponent(x);
        if (e < Double.MIN_EXPONENT) {
            return log2(x * 0x1p54) - 54;
        }
        double m = x / Math.scalb(1.0, e);
        if (m == 1.0) {
            return e;
        }
        if (m > Math.sqrt(2)) {
            m /= 2;
            e++;
        }
        return e + Math.log(m) / LN2;
    }
}
