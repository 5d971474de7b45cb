#!/usr/bin/env python3
"""Writes the functions section of docs/stub.md from the function examples corpus: by category, how many functions
answer every documented example as ClickHouse 26.7 does (server-stub/src/test/resources/functions/answered.txt, which
FunctionExamplesTest holds and rewrites with -Dfunctions.write=true) and the names of those that do not yet, so that a
user sees what the stub lacks before a test does. The section sits between the two marker comments in docs/stub.md.

  mvn -o -B test -pl server-stub -Dtest=FunctionExamplesTest -Dfunctions.write=true && python3 tools/function_coverage.py
"""
import collections, os

ROOT = os.path.join(os.path.dirname(__file__), '..')
CORPUS = os.path.join(ROOT, 'server-stub', 'src', 'test', 'resources', 'functions', 'examples.tsv')
ANSWERED = os.path.join(ROOT, 'server-stub', 'src', 'test', 'resources', 'functions', 'answered.txt')
DOC = os.path.join(ROOT, 'docs', 'stub.md')
BEGIN = '<!-- function coverage: written by tools/function_coverage.py -->'
END = '<!-- end of function coverage -->'


def main():
    compared, excluded = collections.defaultdict(set), set()
    for line in open(CORPUS, encoding='utf-8'):
        f = line.rstrip('\n').split('\t')
        if len(f) < 3:
            continue
        if f[2] == '-':
            excluded.add(f[0])
        else:
            compared[f[1]].add(f[0])
    answered = set(l.strip() for l in open(ANSWERED, encoding='utf-8') if l.strip())
    total = sum(len(v) for v in compared.values())
    ok = sum(len(v & answered) for v in compared.values())
    out = [BEGIN, '',
           'Of the %d functions whose documented examples (system.functions of ClickHouse 26.7) are deterministic, %d '
           '(%.1f%%) answer every example as the engine does (`FunctionExamplesTest`; %d more are not compared: their '
           'examples read the clock, chance or the machine). By category, with the functions that do not yet:' %
           (total, ok, 100.0 * ok / total, len(excluded)), '',
           '| category | as the engine | of | not yet |', '| --- | --- | --- | --- |']
    for category in sorted(compared):
        names = compared[category]
        missing = sorted(names - answered)
        out.append('| %s | %d | %d | %s |' % (category, len(names & answered), len(names),
                                              ', '.join('`%s`' % n for n in missing) or '-'))
    out += ['', END]
    doc = open(DOC, encoding='utf-8').read()
    if BEGIN in doc:
        doc = doc[:doc.index(BEGIN)] + '\n'.join(out) + doc[doc.index(END) + len(END):]
    else:
        doc = doc.rstrip('\n') + '\n\n## Functions: what answers as the engine\n\n' + '\n'.join(out) + '\n'
    open(DOC, 'w', encoding='utf-8').write(doc)
    print('%d of %d functions' % (ok, total))


if __name__ == '__main__':
    main()
