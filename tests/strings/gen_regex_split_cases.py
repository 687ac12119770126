#!/usr/bin/env python3
"""Writes tests/strings/regex_split_cases.h: known answers of Python's re (with re.ASCII) for
the host test of gcol's regex findall and split (test_regex_host.c). Each case is a pattern,
flags, a subject, the operation and max_splits, and the expected pieces as UTF-8 byte spans
of the subject (-1, -1: an unset group, the piece "") in split_spans[first ..]:
  - findall: re.findall(p, s) for a pattern of 0 or 1 group (the group's text, "" unset);
  - split (gcol max_splits: -1 all, 0 none, k): re.split(p, s, maxsplit) without the groups
    Python inserts between the pieces (for a pattern without groups, asserted equal to
    re.split itself);
  - rsplit: the cuts are the last max_splits matches of re.finditer (Python has no
    re.rsplit; libcudf's rsplit_re).
Patterns with several groups are rejected by gcol's findall (checked by the C test).

Run: python3 tests/strings/gen_regex_split_cases.py > tests/strings/regex_split_cases.h
"""
import re
import sys

M = 2  # gcol's GCOL_REGEX_MULTILINE
FINDALL, SPLIT, RSPLIT = 0, 1, 2

SUBJECTS = ["", "a", "baaac", "aaa", "abab", "a,b,,c", ",,", " a  b ", "ab\ncd\n", "x\u20acy\u00e9z",
            "1a22b333", "\U0010ffff,\u00e9", "a1_ b2!", "Words, words, words.", "\u00e9\u00e9b\u20ac"]

FINDALL_PATTERNS = [
    ("a*", 0), ("", 0), ("a", 0), ("\\d+", 0), ("[a-z]+", 0), ("(a)b?", 0), ("(a*)", 0),
    ("(x)?a", 0), ("\\b", 0), ("^", 0), ("$", 0), ("^\\w+", M), ("\\w+$", M), ("$", M),
    (".", 0), ("(?:ab)+", 0), ("\u00e9|\u20ac", 0), ("[^\\x00-\\x7f]+", 0), ("(\\d)\\d", 0),
    ("x*", 0), ("a|", 0), ("\\s*", 0), ("a*?", 0), ("(a|b)*", 0), ("(?P<n>\\w)\\w", 0),
    ("\\w+", 0), ("(\\w)(?:\\w)*", 0), ("\\B", 0), ("a??", 0), ("(a)??", 0),
]

SPLIT_PATTERNS = [
    (",", 0), ("\\s+", 0), ("x*", 0), ("a*", 0), ("", 0), ("\\b", 0), ("^", 0), ("$", 0),
    ("(,)", 0), ("\\W+", 0), ("\u20ac", 0), ("^", M), ("$", M), ("a|b", 0), ("\\d", 0), (".", 0),
    ("(a)|(,)", 0), ("a*?", 0), (",*", 0), ("\\B", 0), ("[^\\x00-\\x7f]", 0), ("a??", 0),
]

MAX_SPLITS = [-1, 0, 1, 2]


def c_string(s):
    out = []
    for b in s.encode("utf-8"):
        if 32 <= b < 127 and chr(b) not in '"\\?':
            out.append(chr(b))
        else:
            out.append("\\%03o" % b)
    return '"' + "".join(out) + '"'


def byte_pos(s, i):
    return len(s[:i].encode("utf-8")) if i >= 0 else -1


def findall_spans(rx, s):
    g = rx.groups
    spans = [m.span(g) for m in rx.finditer(s)]
    want = [s[a:b] if a >= 0 else "" for a, b in spans]
    assert want == rx.findall(s), (rx.pattern, s)
    return spans


def split_spans(rx, s, k, reverse):
    matches = [m.span() for m in rx.finditer(s)]
    if k == 0:
        cuts = []
    elif k < 0 or k >= len(matches):
        cuts = matches
    else:
        cuts = matches[-k:] if reverse else matches[:k]
    spans, begin = [], 0
    for a, b in cuts:
        spans.append((begin, a))
        begin = b
    spans.append((begin, len(s)))
    if rx.groups == 0 and not reverse and k != 0:
        py = rx.split(s, maxsplit=0 if k < 0 else k)
        assert [s[a:b] for a, b in spans] == py, (rx.pattern, s, k)
    return spans


def main():
    w = sys.stdout.write
    cases, spans = [], []

    def add(p, flags, s, kind, k, got):
        cases.append("    {%s, %u, %s, %d, %d, %d, %d},\n" % (c_string(p), flags, c_string(s), kind,
                                                             k, len(got), len(spans) // 2))
        for a, b in got:
            spans.extend([byte_pos(s, a), byte_pos(s, b)])

    for p, flags in FINDALL_PATTERNS:
        rx = re.compile(p, re.ASCII | (re.MULTILINE if flags & M else 0))
        assert rx.groups <= 1, p
        for s in SUBJECTS:
            add(p, flags, s, FINDALL, -1, findall_spans(rx, s))
    for p, flags in SPLIT_PATTERNS:
        rx = re.compile(p, re.ASCII | (re.MULTILINE if flags & M else 0))
        for s in SUBJECTS:
            for k in MAX_SPLITS:
                add(p, flags, s, SPLIT, k, split_spans(rx, s, k, False))
                if k > 0:
                    add(p, flags, s, RSPLIT, k, split_spans(rx, s, k, True))
    w("/* Written by gen_regex_split_cases.py (Python %s): do not edit. */\n\n" %
      sys.version.split()[0])
    w("static const int32_t split_spans[] = {\n")
    for j in range(0, len(spans), 16):
        w("    %s,\n" % ", ".join(map(str, spans[j:j + 16])))
    w("};\n\n")
    w("static const split_case split_cases[] = {\n")
    w("".join(cases))
    w("};\n")


if __name__ == "__main__":
    main()
