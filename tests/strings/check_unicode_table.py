#!/usr/bin/env python3
"""Checks gcol's character classes and case conversions (kernels/strings/char_props.h over
the generated kernels/strings/unicode_data.h) against Python's str methods. Output is TAP.

  check_unicode_table.py SOURCE_ROOT UNICODE_DUMP_EXE

1. the committed table is what scripts/gen-unicode-table generates now;
2. every code point alone: upper, lower, title (simple mappings) and the eight classes;
3. random strings (every script, U+10FFFF, invalid bytes) against a reference of the
   str methods' rules written here over the simple mappings: swapcase, capitalize, title;
4. random strings without special casing (no multi-character full mapping, no sigma)
   against Python's own str.upper/lower/swapcase/capitalize/title, so the rules above are
   checked too.
Skips when this Python's Unicode version is not the table's.
"""
import os
import random
import re
import subprocess
import sys
import unicodedata
import importlib.util
from importlib.machinery import SourceFileLoader

root, dump = sys.argv[1], sys.argv[2]
header_path = os.path.join(root, 'kernels', 'strings', 'unicode_data.h')
with open(header_path, encoding='utf-8') as f:
    header = f.read()
version = re.search(r'GCOL_DETAIL_UNICODE_VERSION "([^"]+)"', header).group(1)
if version != unicodedata.unidata_version:
    print('1..0 # SKIP table is Unicode %s, this Python has %s' %
          (version, unicodedata.unidata_version))
    sys.exit(0)

gen_path = os.path.join(root, 'scripts', 'gen-unicode-table')
_loader = SourceFileLoader('gen_unicode_table', gen_path)
gen = importlib.util.module_from_spec(importlib.util.spec_from_loader('gen_unicode_table', _loader))
_loader.exec_module(gen)
UPPER, LOWER, TITLE = gen.simple_mappings()

print('1..4')
failures = 0


def report(n, ok, name, details=()):
    global failures
    print('%s %d - %s' % ('ok' if ok else 'not ok', n, name))
    for d in (list(details)[:20] if not ok else []):
        print('# ' + d)
    if not ok:
        failures += 1


def is_escape(ch):
    return 0xDC80 <= ord(ch) <= 0xDCFF  # an invalid byte (surrogateescape)


def cased(ch):
    return ch.isupper() or ch.islower() or unicodedata.category(ch) == 'Lt'


def convert(s, op):
    out = []
    prev = False
    for i, ch in enumerate(s):
        if is_escape(ch):
            out.append(ch)
            prev = False
            continue
        cp = ord(ch)
        if op == 'upper':
            m = UPPER[cp]
        elif op == 'lower':
            m = LOWER[cp]
        elif op == 'swapcase':
            m = LOWER[cp] if ch.isupper() else (UPPER[cp] if ch.islower() else cp)
        elif op == 'capitalize':
            m = TITLE[cp] if i == 0 else LOWER[cp]
        else:
            m = LOWER[cp] if prev else TITLE[cp]
        out.append(chr(m))
        prev = cased(ch)
    return ''.join(out)


def classes(s):
    checks = [str.isdecimal, str.isdigit, str.isnumeric, str.isalpha, str.isalnum, str.isspace,
              str.isupper, str.islower]
    bits = 0
    for i, fn in enumerate(checks):
        if fn(s):
            bits |= 1 << i
    return bits


def enc(s):
    return s.encode('utf-8', 'surrogateescape')


def run_dump(strings):
    data = ''.join((enc(s).hex() or '-') + '\n' for s in strings)
    res = subprocess.run([dump], input=data.encode(), stdout=subprocess.PIPE, check=True)
    rows = []
    for line in res.stdout.decode().splitlines():
        parts = line.split()
        conv = [bytes.fromhex(p) if p != '-' else b'' for p in parts[:5]]
        rows.append((conv, int(parts[5], 16)))
    assert len(rows) == len(strings), 'dump printed %d rows for %d strings' % (len(rows), len(strings))
    return rows


OPS = ['upper', 'lower', 'swapcase', 'capitalize', 'title']

# 1. the table is current
res = subprocess.run([sys.executable, gen_path], stdout=subprocess.PIPE, check=True)
report(1, res.stdout.decode('utf-8') == header, 'kernels/strings/unicode_data.h is current',
       ['rerun scripts/gen-unicode-table > kernels/strings/unicode_data.h'])

# 2. every code point alone
singles = [chr(cp) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]
rows = run_dump(singles)
bad = []
for s, (conv, bits) in zip(singles, rows):
    want = [enc(convert(s, op)) for op in OPS]
    if conv != want or bits != classes(s):
        bad.append('U+%04X: got %s %x, want %s %x' % (ord(s), [c.hex() for c in conv], bits,
                                                    [w.hex() for w in want], classes(s)))
report(2, not bad, 'every code point alone (%d): mappings and classes' % len(singles), bad)

# 3. and 4. random strings
rng = random.Random(12)
special = set()
for cp in range(0x110000):
    if 0xD800 <= cp <= 0xDFFF:
        continue
    ch = chr(cp)
    if len(ch.upper()) != 1 or len(ch.lower()) != 1 or len(ch.title()) != 1:
        special.add(ch)
special |= {'\u03a3', '\u03c3', '\u03c2'}  # final sigma is context-sensitive in Python
pools = [
    [chr(c) for c in range(0x20, 0x7F)] + ['\t', '\n', '\x1c', '\x0b'],
    [chr(c) for c in range(0xA0, 0x250)],
    [chr(c) for c in range(0x370, 0x530)],
    [chr(c) for c in range(0x10A0, 0x1100)] + [chr(c) for c in range(0x1C90, 0x1CC0)],
    [chr(c) for c in range(0x1E00, 0x2000)],
    [chr(c) for c in range(0x2150, 0x2190)] + ['\u3000', '\u2028', '\u00bd', '\u4e00', '\u4e8c'],
    ['\U0010FFFF', '\U0001D400', '\U00010400', '\U00010428', '\U0001F600', '\uFFFD'],
    [chr(0xDC80 + b) for b in range(0x80)],  # invalid bytes
    sorted(special),
]
randoms = ['']
for _ in range(20000):
    n = rng.randint(1, 12)
    text = ''.join(rng.choice(rng.choice(pools)) for _ in range(n))
    # Adjacent invalid bytes may form a valid sequence: compare what the bytes decode to.
    randoms.append(enc(text).decode('utf-8', 'surrogateescape'))
rows = run_dump(randoms)
bad = []
for s, (conv, bits) in zip(randoms, rows):
    want = [enc(convert(s, op)) for op in OPS]
    if conv != want or bits != classes(s):
        bad.append('%s: got %s %x, want %s %x' % (enc(s).hex(), [c.hex() for c in conv], bits,
                                                [w.hex() for w in want], classes(s)))
report(3, not bad, 'random strings (%d) against the simple-mapping rules' % len(randoms), bad)

bad = []
checked = 0
for s, (conv, bits) in zip(randoms, rows):
    if any(ch in special or is_escape(ch) for ch in s):
        continue
    checked += 1
    want = [enc(getattr(s, op)()) for op in OPS]
    if conv != want:
        bad.append('%s: got %s, want %s' % (enc(s).hex(), [c.hex() for c in conv],
                                           [w.hex() for w in want]))
report(4, not bad and checked > 1000,
       'random strings without special casing (%d) against Python\'s str methods' % checked, bad)
sys.exit(1 if failures else 0)
