#!/usr/bin/env python3
"""Writes tests/strings/regex_ops_cases.h: known answers of Python's re (with re.ASCII) for
the host test of gcol's regex extract and replace (test_regex_host.c):
  - extract: re.search(p, s) and each group's span in UTF-8 bytes (-1 when unset or no
    match), the groups of gcol_strings_regex_extract's columns;
  - replace: re.sub(p, template, s, count) (gcol's max_count: -1 for all, Python's 0), or
    the template's error (re.error; IndexError for an unknown group name) for a template
    Python rejects.

Run: python3 tests/strings/gen_regex_ops_cases.py > tests/strings/regex_ops_cases.h
"""
import re
import sys

SUBJECTS = ["", "a", "abc", "aaa", "abab", "xaby", "ab\ncd\n", "a1_ b2!", "\u00e9\u20aca",
            "x\U0010ffffy", "foo bar  baz", "aXbXc", "12-34 5-6", "\u00e9\u00e9b\u20ac"]

EXTRACT = ["(a)", "(a)(b)?", "(a|b)+", "(a*)(b*)", "(x)?a", "(a)|(b)", "((a)|b)+",
           "(\\d+)-(\\d+)", "(\\w+) (\\w+)", "(.)(.)?", "(\u20ac)(.)?", "^(.*)$", "(?:a(b))?c",
           "(\u00e9+)(b)", "()", "(a*?)(b)", "(\\S+)\\s*$"]

SUB = [
    ("a", "-", -1), ("a", "-", 1), ("a", "", -1), ("", "-", -1), ("x*", "-", -1),
    ("a*", "<\\g<0>>", -1), ("(a)(b)?", "[\\2|\\1]", -1), ("(a)(b)?", "\\g<2>\\g<1>", 2),
    ("(\\d+)-(\\d+)", "\\2-\\1", -1), ("(\\w+)", "<\\1>", -1), ("\\s+", " ", -1),
    (".", "\\n", -1), ("b", "\\\\", -1), ("a", "\\t\\r\\f\\v\\a\\b", -1), ("a", "\\0", -1),
    ("a", "\\012", -1), ("a", "\\101\\1010", 1), ("a", "\\-\\.", -1),
    ("(.)", "\\1\\1", 3), ("\u20ac", "\u00e9", -1), ("(\u00e9+)", "[\\1]", -1),
    ("a", "\\377", -1), ("a|", "_", -1), ("$", "!", -1), ("^", "!", -1), ("\\b", "|", -1),
    ("a", "x", 0), ("(a)|(b)", "[\\1\\2]", -1), ("(?:a(b))?c", "<\\1>", -1),
    ("((((((((((a))))))))))", "\\10\\1", -1),
    ("(?P<first>\\w)(?P<rest>\\w*)", "\\g<rest>\\g<first>", -1),
    ("(?P<d>\\d)|(?P<e>\u20ac)", "[\\g<d>\\g<e>\\g<1>]", -1), ("(?P<_a1>a)", "\\g<_a1>\\g<0>", 1),
]

BAD_TEMPLATES = [("(a)", "\\2"), ("a", "\\1"), ("a", "\\g<1>"),
                 ("a", "\\g<"), ("a", "\\g<>"), ("a", "\\g"), ("a", "\\q"), ("a", "x\\"),
                 ("a", "\\400"), ("(a)", "\\g<2>"), ("(a)", "\\10"), ("(?P<a>x)", "\\g<b>"),
                 ("(?P<a>x)", "\\g<a-b>"), ("a", "\\g<x>"), ("(?P<a>x)", "\\g<1a>")]


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


def main():
    w = sys.stdout.write
    w("/* Written by gen_regex_ops_cases.py (Python %s): do not edit. */\n\n" % sys.version.split()[0])
    w("static const extract_case extract_cases[] = {\n")
    for p in EXTRACT:
        rx = re.compile(p, re.ASCII)
        for s in SUBJECTS:
            m = rx.search(s)
            spans = []
            for g in range(1, rx.groups + 1):
                a, b = m.span(g) if m else (-1, -1)
                spans += [byte_pos(s, a), byte_pos(s, b)]
            w("    {%s, %s, %d, %d, {%s}},\n" % (c_string(p), c_string(s), rx.groups,
                                               1 if m else 0, ", ".join(map(str, spans)) or "0"))
    w("};\n\n")
    w("static const replace_case replace_cases[] = {\n")
    for p, t, count in SUB:
        rx = re.compile(p, re.ASCII)
        for s in SUBJECTS:
            if count == 0:
                want = s
            else:
                want = rx.sub(t, s, count=0 if count < 0 else count)
            w("    {%s, %s, %d, %s, %s, %d},\n" % (c_string(p), c_string(t), count, c_string(s),
                                                  c_string(want), len(want.encode("utf-8"))))
    w("};\n\n")
    w("static const bad_template bad_templates[] = {\n")
    for p, t in BAD_TEMPLATES:
        rx = re.compile(p, re.ASCII)
        try:
            rx.sub(t, "a")
            sys.exit("template %r is accepted" % t)
        except (re.error, IndexError) as e:  # IndexError: an unknown group name
            w("    {%s, %s}, /* %s */\n" % (c_string(p), c_string(t), str(e).replace("*/", "* /")))
    w("};\n")


if __name__ == "__main__":
    main()
