#!/usr/bin/env python3
"""Verify a Herald dice export or the dice records of its mails, independently of Herald.

Reads a game's export (JSON Lines: a header, then one line per log entry,
as specified in docs/dice.md, format version 1 or 2) and checks, with the
Python 3 standard library only:

  * that every line is exactly its canonical encoding (so no byte can be
    changed unnoticed),
  * the hash chain: each entry's hash and its link to the entry before,
  * each batch's seed against the commitment published before it,
  * each order block against its SHA-256,
  * every roll's value (HMAC-SHA256 of the roll message, rejection
    sampling; version 2 binds it to the sender's block and to the
    checkpoint the batch follows, and a die other than a d10 to its
    faces), its batch, index and per-game sequence number,
  * the Ed25519 signature of every seal, with a pure-Python Ed25519
    verifier written from RFC 8032 (slow: a few milliseconds per seal;
    --no-signatures skips it),
  * the checkpoints given with --checkpoint (from your mailbox).

It does NOT replay the orders through the rules engine: that check (that
the logged orders and rolls produce exactly the logged events and final
state) needs Herald itself: herald verify.

It stops at the first entry that fails and names it as herald verify does:
"FAILED: line N (entry N-1, KIND): reason", the line as an editor counts
(the header is line 1, entry 0), and for a roll "roll #SEQ, PURPOSE" in
place of the kind.

With --mail FILE.eml (repeatable) it checks instead the dice records that
the mails of a version 2 game carry ("The record in every mail"): each
record's signed checkpoint, seed, order lines and rolls, and that the
mails, taken by batch, follow one another without a gap.

Exit status: 0 everything verifies, 1 it fails, 2 bad usage or an
unreadable file.
"""

import argparse
import email
import email.policy
import hashlib
import hmac
import json
import re
import struct
import sys

VERSION_ONE, VERSION_TWO = 1, 2
VERSIONS = (VERSION_ONE, VERSION_TWO)
MAX_LINE = 1 << 20  # bytes of a line, its newline not counted
MAX_U64 = (1 << 64) - 1
MIN_I64, MAX_I64 = -(1 << 63), (1 << 63) - 1

ROLL_DOMAIN_V1 = b"herald/dice/roll/v1"
ROLL_DOMAIN_V2 = b"herald/dice/roll/v2"
ROLL_DOMAIN_FACES = b"herald/dice/roll/v2/faces"
D10, MIN_FACES, MAX_FACES = 10, 2, 256
HEAD_DOMAIN = b"herald/dice/head/v1"
DRAW_DOMAIN = b"herald/dice/draw/v2"

HEX64 = re.compile(r"[0-9a-f]{64}\Z")
HEX128 = re.compile(r"[0-9a-f]{128}\Z")
DECIMAL = re.compile(r"(0|[1-9][0-9]*)\Z")

# Members of each kind of line, in canonical order, with their types:
# u = unsigned 64-bit integer, i = signed 64-bit integer, s = string,
# h = 32 bytes in hex, g = 64 bytes in hex, l = list of strings. The "i"
# members (herald_dice, faces, value) read as Herald reads them, any signed
# 64-bit integer; their narrower ranges (herald_dice 1 or 2, faces 2-256,
# value 0 to faces-1) are
# checked where Herald checks them, so that a failure names the same line
# the same way ("entry 0, header" or "roll #SEQ, PURPOSE").
HEADER = [("herald_dice", "i"), ("game", "s"), ("scenario", "s"), ("sides", "l"),
          ("public_key", "h"), ("commit", "h"), ("hash", "h")]
KINDS = {
    "seal": [("i", "u"), ("kind", "s"), ("sig", "g"), ("prev", "h"), ("hash", "h")],
    "block": [("i", "u"), ("kind", "s"), ("batch", "u"), ("side", "s"), ("move", "u"),
              ("orders", "s"), ("orders_sha256", "h"), ("rolls", "u"),
              ("events_sha256", "h"), ("state_sha256", "h"), ("seed", "h"),
              ("next_commit", "h"), ("prev", "h"), ("hash", "h")],
    "roll": [("i", "u"), ("kind", "s"), ("seq", "u"), ("batch", "u"), ("index", "u"),
             ("purpose", "s"), ("value", "i"), ("prev", "h"), ("hash", "h")],
    # Hidden draws (docs/dice.md, "Hidden draws").
    "draw": [("i", "u"), ("kind", "s"), ("side", "s"), ("pool", "l"), ("count", "u"),
             ("commit", "h"), ("prev", "h"), ("hash", "h")],
    "play": [("i", "u"), ("kind", "s"), ("batch", "u"), ("side", "s"), ("counter", "u"),
             ("name", "s"), ("prev", "h"), ("hash", "h")],
    "reveal": [("i", "u"), ("kind", "s"), ("side", "s"), ("seed", "h"), ("prev", "h"), ("hash", "h")],
}
MAX_POOL = 256
# A roll of a die other than a d10 (docs/dice.md, "A roll of another die"):
# "faces" before "value"; a d10's line never has it.
ROLL_FACES = [("i", "u"), ("kind", "s"), ("seq", "u"), ("batch", "u"), ("index", "u"),
              ("purpose", "s"), ("faces", "i"), ("value", "i"), ("prev", "h"), ("hash", "h")]


class Failure(Exception):
    """The first entry that fails: entry 0 is the header."""

    def __init__(self, entry, kind, reason, roll=""):
        super().__init__(reason)
        self.entry, self.kind, self.reason, self.roll = entry, kind, reason, roll

    def where(self):
        # As Herald's Failure.Where: "line 5 (entry 4, roll #2, Fire DR: …)".
        what = "entry %d" % self.entry
        if self.roll:
            what += ", " + self.roll
        elif self.kind:
            what += ", " + self.kind
        return "line %d (%s)" % (self.entry + 1, what)

    def __str__(self):
        return "%s: %s" % (self.where(), self.reason)


def roll_words(seq, purpose):
    return "roll #%d, %s" % (seq, purpose)


# ---------------------------------------------------------------- bytes

def u64(v):
    return struct.pack(">Q", v)


def field(b):
    return u64(len(b)) + b


def draw_message(game, side, pool_size, step, attempt):
    return (field(DRAW_DOMAIN) + field(game.encode("utf-8")) + field(side.encode("utf-8"))
            + u64(pool_size) + u64(step) + u64(attempt))


def draw_hand(seed, game, side, pool_size, count):
    """The positions a hidden seed draws: a Fisher-Yates shuffle stopped
    after count steps, step k picking j below pool_size - k from the first
    byte of its MAC under the largest multiple of pool_size - k."""
    pos = list(range(pool_size))
    for k in range(count):
        left = pool_size - k
        limit = 256 - 256 % left
        attempt, j = 0, None
        while j is None:
            mac = hmac.new(seed, draw_message(game, side, pool_size, k, attempt), hashlib.sha256).digest()
            j = next((c % left for c in mac if c < limit), None)
            attempt += 1
        pos[k], pos[k + j] = pos[k + j], pos[k]
    return pos[:count]


def roll_message_v1(game, batch, index, purpose, orders_sha256, attempt):
    return (field(ROLL_DOMAIN_V1) + field(game.encode("utf-8")) + u64(batch) + u64(index)
            + field(purpose.encode("utf-8")) + field(orders_sha256) + u64(attempt))


def roll_message_v2(game, batch, index, purpose, block_sha256, after_length, after_head, attempt):
    return (field(ROLL_DOMAIN_V2) + field(game.encode("utf-8")) + u64(batch) + u64(index)
            + field(purpose.encode("utf-8")) + field(block_sha256)
            + u64(after_length) + field(after_head) + u64(attempt))


def roll_message_faces(game, batch, index, purpose, block_sha256, after_length, after_head, faces, attempt):
    return (field(ROLL_DOMAIN_FACES) + field(game.encode("utf-8")) + u64(batch) + u64(index)
            + field(purpose.encode("utf-8")) + field(block_sha256)
            + u64(after_length) + field(after_head) + u64(faces) + u64(attempt))


def first_face(seed, message, faces=D10):
    """The first byte of HMAC-SHA256(seed, message(attempt)) below the
    largest multiple of faces a byte holds (250 for a d10), mod faces."""
    limit = 256 - 256 % faces
    attempt = 0
    while True:
        mac = hmac.new(seed, message(attempt), hashlib.sha256).digest()
        for c in mac:
            if c < limit:
                return c % faces
        attempt += 1


def derive_v1(seed, game, batch, index, purpose, orders_sha256):
    return first_face(seed, lambda a: roll_message_v1(game, batch, index, purpose, orders_sha256, a))


def derive_v2(seed, game, batch, index, purpose, block_sha256, after_length, after_head, faces=D10):
    """A version 2 roll of a die of faces faces: a d10 from the v2 message,
    any other die from its own message, which holds the faces."""
    if faces == D10:
        return first_face(seed, lambda a: roll_message_v2(game, batch, index, purpose, block_sha256,
                                                          after_length, after_head, a))
    return first_face(seed, lambda a: roll_message_faces(game, batch, index, purpose, block_sha256,
                                                         after_length, after_head, faces, a), faces)


# Kept for callers of the version 1 name.
derive = derive_v1


def sender_block(orders):
    """The sender's block of a batch's order text (bytes): the part after its
    last line that begins with "[" and ends with "]", or all of it."""
    rest = orders
    i = 0
    while i < len(orders):
        end = orders.find(b"\n", i)
        if end < 0:
            end = len(orders)
        line = orders[i:end]
        if len(line) >= 2 and line[:1] == b"[" and line[-1:] == b"]":
            rest = orders[end + 1:]
        i = end + 1
    return rest


def head_message(game, length, head):
    return field(HEAD_DOMAIN) + field(game.encode("utf-8")) + u64(length) + field(head)


# ---------------------------------------------------------------- canonical JSON

def encode(obj, members, with_hash=True):
    parts = []
    for name, _ in members:
        if name == "hash" and not with_hash:
            continue
        v = obj[name]
        if isinstance(v, list):
            enc = "[" + ",".join(json.dumps(s, ensure_ascii=True) for s in v) + "]"
        else:
            enc = json.dumps(v, ensure_ascii=True)
        parts.append(json.dumps(name) + ":" + enc)
    return "{" + ",".join(parts) + "}"


class Pairs(list):
    pass


def _no_constant(name):
    raise ValueError("%s is not JSON" % name)  # Python's json reads NaN, Infinity; JSON has none


def _int(s):
    # Longer than any 64-bit integer: out of range, without converting
    # a million digits.
    return int(s) if len(s) <= 24 else (1 << 80)


LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def go_string(s):
    """The string as Go's encoding/json decodes it: a \\uD800-\\uDFFF escape
    that is not half of a proper pair becomes U+FFFD. (Python's json keeps
    it as a lone surrogate.) Re-encoding then differs from the line, which
    is thus not canonical, as with Herald."""
    return LONE_SURROGATE.sub("\ufffd", s)


def parse(line, members_for):
    """Parse a line, check its members and canonical form; return a dict."""
    try:
        text = line.decode("utf-8")
        pairs = json.loads(text, object_pairs_hook=Pairs, parse_constant=_no_constant, parse_int=_int)
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise ValueError("not JSON: %s" % e)
    if not isinstance(pairs, Pairs):
        raise ValueError("not a JSON object")
    obj = dict(pairs)
    members = members_for(obj)
    names = [k for k, _ in pairs]
    if names != [n for n, _ in members]:
        raise ValueError("members %s, want %s" % (names, [n for n, _ in members]))
    for name, typ in members:
        v = obj[name]
        ok = {
            "u": lambda v: type(v) is int and 0 <= v <= MAX_U64,
            "i": lambda v: type(v) is int and MIN_I64 <= v <= MAX_I64,
            "s": lambda v: type(v) is str,
            "h": lambda v: type(v) is str and HEX64.match(v) is not None,
            "g": lambda v: type(v) is str and HEX128.match(v) is not None,
            "l": lambda v: type(v) is list and all(type(s) is str for s in v),
        }[typ](v)
        if not ok:
            raise ValueError("member %r has a wrong type or spelling: %r" % (name, v))
        if typ == "s":
            obj[name] = go_string(v)
        elif typ == "l":
            obj[name] = [go_string(s) for s in v]
    if encode(obj, members) != text:
        raise ValueError("not in canonical form")
    return obj


def line_hash(obj, members):
    return hashlib.sha256(encode(obj, members, with_hash=False).encode("ascii")).hexdigest()


def _kind_key(k):
    # Go's encoding/json matches a member to the struct field "kind" when
    # the names are equal under Unicode simple case folding: k may also be
    # K or the Kelvin sign.
    return (len(k) == 4 and k[0] in "kK\u212a" and k[1] in "iI" and k[2] in "nN"
            and k[3] in "dD")


def claimed_kind(line):
    """The kind a line claims, for naming a line that does not parse: what
    Herald reads with encoding/json into a struct of one string "kind"
    (lenient: invalid UTF-8 allowed, keys matched without case, the last
    one winning; any type error means none)."""
    try:
        text = line.decode("utf-8", errors="replace")
        pairs = json.loads(text, object_pairs_hook=Pairs, parse_constant=_no_constant,
                           parse_int=str, parse_float=str)
    except (ValueError, RecursionError):
        return ""
    if not isinstance(pairs, Pairs):
        return ""
    kind = ""
    for k, v in pairs:
        if not _kind_key(k) or v is None:
            continue
        if type(v) is not str:
            return ""
        kind = v
    return kind if kind in KINDS else ""


# ---------------------------------------------------------------- Ed25519 (RFC 8032)
# Verification only, deciding exactly as Go's crypto/ed25519.Verify does
# (docs/dice.md, "A checkpoint and its signature"): S must be below L; the
# public key A decodes by RFC 8032 5.1.3 except that a y of p or more is
# taken modulo p and x = 0 with the sign bit set is accepted; k is
# SHA-512(R || A || M) mod L over the bytes as given; and the canonical
# encoding of [S]B - [k]A must equal R byte for byte (cofactorless).

P = 2 ** 255 - 19
L = 2 ** 252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def _add(a, b):
    # Extended coordinates, a = -1 (add-2008-hwcd-3): complete, so it also
    # doubles and handles the identity and points of small order.
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    A = (y1 - x1) * (y2 - x2) % P
    B = (y1 + x1) * (y2 + x2) % P
    C = 2 * t1 * t2 * D % P
    Dd = 2 * z1 * z2 % P
    E, F, G, H = B - A, Dd - C, Dd + C, B + A
    return (E * F % P, G * H % P, F * G % P, E * H % P)


def _mul(s, pt):
    q = (0, 1, 1, 0)
    while s > 0:
        if s & 1:
            q = _add(q, pt)
        pt = _add(pt, pt)
        s >>= 1
    return q


def _decode(b):
    y = int.from_bytes(b, "little") & ((1 << 255) - 1)
    sign = b[31] >> 7
    y %= P  # Go accepts y >= p (a non-canonical encoding)
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    if x2 == 0:
        x = 0  # Go accepts a set sign bit here ("-0")
    else:
        x = pow(x2, (P + 3) // 8, P)
        if (x * x - x2) % P != 0:
            x = x * SQRT_M1 % P
        if (x * x - x2) % P != 0:
            return None
        if x & 1 != sign:
            x = P - x
    return (x, y, 1, x * y % P)


def _encode(pt):
    zi = pow(pt[2], P - 2, P)
    x, y = pt[0] * zi % P, pt[1] * zi % P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


_BY = 4 * pow(5, P - 2, P) % P
_B = _decode(_BY.to_bytes(32, "little"))


def ed25519_verify(pub, msg, sig):
    if len(pub) != 32 or len(sig) != 64:
        return False
    s = int.from_bytes(sig[32:], "little")
    if s >= L:  # includes any S with one of the top three bits set
        return False
    a = _decode(pub)
    if a is None:
        return False
    k = int.from_bytes(hashlib.sha512(sig[:32] + pub + msg).digest(), "little") % L
    minus_a = ((P - a[0]) % P, a[1], a[2], (P - a[3]) % P)
    r = _add(_mul(k, minus_a), _mul(s, _B))
    return _encode(r) == sig[:32]


def self_test():
    """RFC 8032 section 7.1, tests 1 to 3; S >= L refused; and Go's verdicts
    on keys and R of small order in canonical and non-canonical encodings."""
    vectors = [
        ("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
         "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
         "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
        ("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
         "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
         "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
        ("fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
         "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac"
         "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
    ]
    for pub, msg, sig in vectors:
        pub, msg, sig = bytes.fromhex(pub), bytes.fromhex(msg), bytes.fromhex(sig)
        if not ed25519_verify(pub, msg, sig):
            return False
        bad = bytearray(sig)
        bad[5] ^= 1
        if ed25519_verify(pub, msg, bytes(bad)):
            return False
        # S + L: the same point [S]B, so only the rule S < L refuses it
        # (the top three bits of the last byte are still clear).
        s = int.from_bytes(sig[32:], "little") + L
        if s >> 253:
            return False  # the vectors all leave room below 2^253
        malleated = sig[:32] + s.to_bytes(32, "little")
        if ed25519_verify(pub, msg, malleated):
            return False
        r, a = _decode(sig[:32]), _decode(pub)
        k = int.from_bytes(hashlib.sha512(sig[:32] + pub + msg).digest(), "little") % L
        if _encode(_add(_mul(s, _B), _mul(k, ((P - a[0]) % P, a[1], a[2], (P - a[3]) % P)))) != _encode(r):
            return False  # [S+L]B - [k]A would match R: the test means something
    # Go's crypto/ed25519.Verify on message "herald", for each public key
    # (y = 1; y = 1 with the sign bit; y = p+1; y = p-1; y = p-1 with the
    # sign bit; y = p), each R (y = 1; y = p+1; y = 1 with the sign bit;
    # y = p-1) and S of 0 and 1, in that order: 1 valid, 0 not.
    want = "100000001000000010000000100000000000001000000000"

    def enc(y, sign=0):
        return (y | sign << 255).to_bytes(32, "little")
    pubs = [enc(1), enc(1, 1), enc(P + 1), enc(P - 1), enc(P - 1, 1), enc(P)]
    rs = [enc(1), enc(P + 1), enc(1, 1), enc(P - 1)]
    got = ""
    for pub in pubs:
        for r in rs:
            for s in (0, 1):
                got += "1" if ed25519_verify(pub, b"herald", r + s.to_bytes(32, "little")) else "0"
    return got == want


# ---------------------------------------------------------------- verification

class Verifier:
    def __init__(self, checkpoints, public_key, signatures):
        self.cps = {}
        for length, head, sig in checkpoints:
            self.cps.setdefault(length, []).append((head, sig))
        self.public_key = public_key
        self.signatures = signatures
        self.entries = self.batches = self.rolls = self.seals = self.matched = 0
        self.head = None
        # Hidden draws: side -> {pool, count, commit, played {position: entry}, hand}.
        self.draws, self.draw_sides, self.plays = {}, [], 0
        self.opened = self.revealing = False
        self.batch = 0

    def verify(self, data):
        if not data:
            raise Failure(0, "header", "the export is empty")
        lines = data.split(b"\n")
        last = lines.pop()  # after the final newline: empty if there is one
        n = 0
        for i, line in enumerate(lines):
            self.check_line(i, line)
            n = i
        if last:
            i = len(lines)
            kind = "header" if i == 0 else ""
            if len(last) > MAX_LINE + 1:  # as Herald, which reads a line and its newline
                raise Failure(i, kind, "the line is longer than %d bytes" % MAX_LINE)
            raise Failure(i, kind, "the line does not end with a newline")
        self.end(n)

    def check_line(self, i, line):
        kind = "header" if i == 0 else ""
        if len(line) > MAX_LINE:  # the newline not counted
            raise Failure(i, kind, "the line is longer than %d bytes" % MAX_LINE)
        if i == 0:
            self.header(line)
        else:
            self.entry(i, line)

    def header(self, line):
        def fail(reason):
            raise Failure(0, "header", reason)
        try:
            h = parse(line, lambda obj: HEADER)
        except ValueError as e:
            fail(str(e))
        if line_hash(h, HEADER) != h["hash"]:
            fail("hash %s, but the header hashes to %s" % (h["hash"], line_hash(h, HEADER)))
        if h["herald_dice"] not in VERSIONS:
            fail("format version %d, this verifier reads %d and %d" % (h["herald_dice"], VERSION_ONE, VERSION_TWO))
        if not h["game"] or not h["scenario"]:
            fail("empty game or scenario id")
        sides = h["sides"]
        if len(sides) < 2:
            fail("%d sides, want at least 2" % len(sides))
        for j, s in enumerate(sides):
            if not s or s in sides[:j]:
                fail("side %r is empty or repeated" % s)
        if self.public_key is not None and self.public_key != h["public_key"]:
            fail("installation key %s, but the game's first mail gave %s" % (h["public_key"], self.public_key))
        self.h = h
        self.version = h["herald_dice"]
        self.game = h["game"]
        self.head = h["hash"]
        self.commit = h["commit"]
        self.expect = "seal"
        self.n = 0
        self.checkpoints(0, "header")

    def entry(self, i, line):
        def members_for(obj):
            k = obj.get("kind")
            if not isinstance(k, str) or k not in KINDS:
                raise ValueError("unknown kind %r" % (k,))
            if k == "roll" and "faces" in obj:
                return ROLL_FACES
            return KINDS[k]
        try:
            e = parse(line, members_for)
            # A d10's line has no "faces" (Herald reads 0 as 10 too).
            if e["kind"] == "roll" and e.get("faces", 1) in (0, D10):
                raise ValueError("not in canonical form: a d10's roll has no \"faces\"")
        except ValueError as err:
            raise Failure(i, claimed_kind(line), str(err))
        kind = e["kind"]
        members = ROLL_FACES if "faces" in e else KINDS[kind]

        def fail(reason):
            raise Failure(i, kind, reason, roll_words(e["seq"], e["purpose"]) if kind == "roll" else "")
        if e["i"] != i:
            fail("numbered %d, but it is line %d after the header" % (e["i"], i))
        if e["prev"] != self.head:
            fail("prev %s, but entry %d hashes to %s" % (e["prev"], i - 1, self.head))
        got = line_hash(e, members)
        if got != e["hash"]:
            fail("hash %s, but the entry hashes to %s" % (e["hash"], got))
        if not self.allows(kind):
            fail("a %s where %s" % (kind, self.expected()))
        if kind in ("draw", "play", "reveal"):
            reason = self.hidden(i, e)
            if reason:
                fail(reason)
        elif kind == "seal":
            if self.signatures and not ed25519_verify(
                    bytes.fromhex(self.h["public_key"]),
                    head_message(self.game, i - 1, bytes.fromhex(e["prev"])),
                    bytes.fromhex(e["sig"])):
                fail("the signature of checkpoint %d:%s is not the installation key's" % (i - 1, e["prev"]))
            # The checkpoint the next batch follows (version 2 rolls).
            self.after = (i - 1, bytes.fromhex(e["prev"]))
            self.seals += 1
            self.expect = "" if self.revealing else "block"
            self.opened = True
        elif kind == "block":
            if e["batch"] != self.batches + 1:
                fail("batch %d, want %d" % (e["batch"], self.batches + 1))
            if e["side"] not in self.h["sides"]:
                fail("side %r is not one of the game's sides" % e["side"])
            c = hashlib.sha256(bytes.fromhex(e["seed"])).hexdigest()
            if c != self.commit:
                fail("seed %s hashes to %s, but the commitment published before it is %s"
                     % (e["seed"], c, self.commit))
            orders = e["orders"].encode("utf-8")
            oh = hashlib.sha256(orders).hexdigest()
            if oh != e["orders_sha256"]:
                fail("orders_sha256 %s, but the orders hash to %s" % (e["orders_sha256"], oh))
            self.commit = e["next_commit"]
            self.batch, self.seed = e["batch"], bytes.fromhex(e["seed"])
            self.orders_sha256 = bytes.fromhex(e["orders_sha256"])
            self.block_sha256 = hashlib.sha256(sender_block(orders)).digest()
            self.left, self.index = e["rolls"], 0
            self.batches += 1
            self.expect = "roll" if e["rolls"] > 0 else "seal"
        else:
            if e["batch"] != self.batch:
                fail("batch %d, but it follows the block of batch %d" % (e["batch"], self.batch))
            if e["index"] != self.index:
                fail("index %d, want %d" % (e["index"], self.index))
            if e["seq"] != self.rolls + 1:
                fail("seq %d, want %d: a roll was dropped or repeated" % (e["seq"], self.rolls + 1))
            faces = e.get("faces", D10)
            if not MIN_FACES <= faces <= MAX_FACES:
                fail("a die of %d faces: a die has %d to %d" % (faces, MIN_FACES, MAX_FACES))
            if faces != D10 and self.version == VERSION_ONE:
                fail("a d%d in a game of format version 1, which rolls d10s only" % faces)
            if not 0 <= e["value"] < faces:
                fail("value %d is not a face of a d%d (0-%d)" % (e["value"], faces, faces - 1))
            if self.version == VERSION_ONE:
                want = derive_v1(self.seed, self.game, e["batch"], e["index"], e["purpose"], self.orders_sha256)
            else:
                want = derive_v2(self.seed, self.game, e["batch"], e["index"], e["purpose"],
                                 self.block_sha256, self.after[0], self.after[1], faces)
            if e["value"] != want:
                fail("value %d, but the seed and the orders give %d for %r%s"
                     % (e["value"], want, e["purpose"], "" if faces == D10 else " on a d%d" % faces))
            self.rolls += 1
            self.index += 1
            self.left -= 1
            if self.left == 0:
                self.expect = "seal"
        self.n = self.entries = i
        self.head = e["hash"]
        self.checkpoints(i, kind)

    def allows(self, kind):
        if self.expect == "":
            return False
        if kind == self.expect:
            return True
        if kind == "draw":
            return not self.opened
        if kind == "play":
            return (self.expect == "seal" and self.opened and not self.revealing
                    and self.batch > 0 and bool(self.draws))
        if kind == "reveal":
            return self.expect == "block" and bool(self.draws)
        return False

    def unrevealed(self):
        return [s for s in self.draw_sides if self.draws[s]["hand"] is None]

    def hidden(self, i, e):
        """Checks a draw, play or reveal entry; returns why it fails, or ''."""
        side = e["side"]
        if side not in self.h["sides"]:
            return "side %r is not one of the game's sides %r" % (side, self.h["sides"])
        d = self.draws.get(side)
        if e["kind"] == "draw":
            if d is not None:
                return "side %r draws a second time" % side
            pool = e["pool"]
            if not pool or len(pool) > MAX_POOL or e["count"] > len(pool):
                return "a draw of %d from a pool of %d counters (a pool holds 1 to %d)" % (
                    e["count"], len(pool), MAX_POOL)
            if "" in pool:
                return "a counter of the pool has no name"
            self.draws[side] = {"pool": pool, "count": e["count"], "commit": e["commit"],
                                "played": {}, "hand": None}
            self.draw_sides.append(side)
            return ""
        if d is None:
            return "side %r has no hidden draw" % side
        if e["kind"] == "play":
            if e["batch"] != self.batch:
                return "batch %d, but it follows the block of batch %d" % (e["batch"], self.batch)
            c = e["counter"]
            if c >= len(d["pool"]):
                return "counter %d, but %s's pool holds %d" % (c, side, len(d["pool"]))
            if e["name"] != d["pool"][c]:
                return "counter %d is named %r, but %s's pool names it %r" % (c, e["name"], side, d["pool"][c])
            if c in d["played"]:
                return "%s's counter %d (%s) was already played at entry %d" % (side, c, e["name"], d["played"][c])
            if len(d["played"]) == d["count"]:
                return "%s drew %d counters and has played them all" % (side, d["count"])
            d["played"][c] = i
            self.plays += 1
            return ""
        if d["hand"] is not None:
            return "side %r is revealed a second time" % side
        c = hashlib.sha256(bytes.fromhex(e["seed"])).hexdigest()
        if c != d["commit"]:
            return "hidden seed %s hashes to %s, but %s's draw committed to %s" % (e["seed"], c, side, d["commit"])
        hand = draw_hand(bytes.fromhex(e["seed"]), self.game, side, len(d["pool"]), d["count"])
        for pos in sorted(d["played"]):
            if pos not in hand:
                return "%s played counter %d (%s) at entry %d, but the hidden seed draws %s" % (
                    side, pos, d["pool"][pos], d["played"][pos],
                    ", ".join("%d (%s)" % (h, d["pool"][h]) for h in hand))
        d["hand"] = hand
        self.revealing = True
        self.expect = "reveal" if self.unrevealed() else "seal"
        return ""

    def hidden_line(self):
        """The report's line on hidden draws, as Herald prints it; None without any."""
        if not self.draws:
            return None
        line = "hidden draws: %d, counters played: %d" % (len(self.draws), self.plays)
        if self.unrevealed():
            return line + "; not revealed yet (the game is not over): " + ", ".join(self.unrevealed())
        return line + "; every play is in its side's revealed draw"

    def expected(self):
        if self.expect == "":
            return "nothing more: the hidden draws were revealed and sealed, the game is over"
        if self.expect == "reveal":
            return "the reveal of %s's hidden draw was expected" % " and ".join(self.unrevealed())
        if self.expect == "roll":
            return "roll %d of batch %d was expected" % (self.index, self.batch)
        if self.expect == "seal" and self.n == 0:
            return "the opening seal was expected"
        if self.expect == "seal":
            return "the seal of batch %d was expected" % self.batch
        return "a block was expected"

    def checkpoints(self, i, kind):
        # As Herald: a checkpoint's failure names the entry by its kind only.
        for head, sig in self.cps.get(i, []):
            if head != self.head:
                raise Failure(i, kind, "the chain head after %d entries is %s, but the checkpoint says %s: "
                              "the log was rewritten" % (i, self.head, head))
            if sig is not None and self.signatures and not ed25519_verify(
                    bytes.fromhex(self.h["public_key"]), head_message(self.game, i, bytes.fromhex(head)),
                    bytes.fromhex(sig)):
                raise Failure(i, kind, "the checkpoint's signature is not the installation key's")
            self.matched += 1

    def end(self, n):
        if self.expect not in ("block", ""):
            raise Failure(n + 1, self.expect, "missing: the export ends where " + self.expected())
        beyond = [length for length in self.cps if length > n]
        if beyond:
            raise Failure(n + 1, "", "missing: a checkpoint covers %d entries, the export holds %d: "
                          "entries were removed" % (min(beyond), n))


# ---------------------------------------------------------------- the record in every mail

RECORD_BEGIN = "-----BEGIN HERALD DICE-----"
RECORD_END = "-----END HERALD DICE-----"

# The white space Go's strings.Fields splits at (unicode.IsSpace); Python's
# str.split() would also split at U+001C to U+001F.
GO_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
           "\u2028\u2029\u202f\u205f\u3000"
GO_FIELDS = re.compile("[^%s]+" % re.escape(GO_SPACE))


class RecordError(Exception):
    """A record that does not read: its line in the mail's text (from 1)."""

    def __init__(self, line, reason):
        super().__init__(reason)
        self.line, self.reason = line, reason


class RecordFailure(Exception):
    def __init__(self, reason, roll=""):
        super().__init__(reason)
        self.reason, self.roll = reason, roll


class Record:
    """One mail's dice record (docs/dice.md, "The record in every mail")."""
    version = 0
    game = ""
    key = b""
    batch = 0
    side = ""
    after = (0, bytes(32))
    commit = seed = block = next = bytes(32)
    orders = None  # the sender's block, a line each; None when withheld
    checkpoint = (0, bytes(32), bytes(64))

    def __init__(self):
        self.rolls = []  # (seq, index, value, purpose, faces)

    def key_tuple(self):
        return (self.version, self.game, self.key, self.batch, self.side, self.after, self.commit,
                self.seed, self.block, tuple(self.orders) if self.orders is not None else None,
                tuple(self.rolls), self.next, self.checkpoint)


def find_records(text):
    """Every record in a mail's text, in order, as (record, line of its
    BEGIN marker). Lines are taken as they are, with trailing spaces, tabs
    and carriage returns removed (as Herald's dice.FindRecords)."""
    out = []
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    body, start, inside = [], 0, False
    for n, raw in enumerate(lines, 1):
        if len(raw.encode("utf-8", "surrogatepass")) > MAX_LINE:
            raise RecordError(n, "the line is longer than %d bytes" % MAX_LINE)
        ln = raw.rstrip(" \t\r")
        if not inside and ln == RECORD_BEGIN:
            inside, start, body = True, n, []
        elif inside and ln == RECORD_END:
            out.append((parse_record(body, start + 1), start))
            inside = False
        elif inside:
            body.append(ln)
    if inside:
        raise RecordError(start, "no %s line after it" % RECORD_END)
    return out


class RecordParser:
    """Reads a record's lines in their fixed order, as Herald's parseRecord."""

    def __init__(self, lines, first):
        self.lines, self.first, self.i, self.rest = lines, first, 0, ""

    def fail(self, reason, back=0):
        raise RecordError(self.first + self.i - back, reason)

    def next(self, k):
        if self.i >= len(self.lines) or not self.lines[self.i].startswith(k + " "):
            return False
        self.rest = self.lines[self.i][len(k) + 1:]
        self.i += 1
        return True

    def need(self, k):
        if not self.next(k):
            if self.i >= len(self.lines):
                self.fail("the record ends where %s was expected" % json.dumps(k))
            self.fail("%s where %s was expected" % (json.dumps(self.lines[self.i]), json.dumps(k)))
        return self.rest

    def text(self, k):
        s = self.need(k)
        if s == "":
            self.fail("empty %s" % k)
        return s

    def uint(self, k):
        return self.number(k, self.need(k))

    def number(self, what, s):
        # The line just read: p.i is past it.
        if not DECIMAL.match(s) or int(s) > MAX_U64:
            self.fail("%s %s is not a number" % (what, json.dumps(s)), back=1)
        return int(s)

    def hex(self, what, s, size):
        if len(s.encode("utf-8")) != 2 * size:
            self.fail("%s: want %d hex digits, got %d" % (what, 2 * size, len(s.encode("utf-8"))), back=1)
        if not re.fullmatch("[0-9a-f]*", s):
            self.fail("%s: not lowercase hex" % what, back=1)
        return bytes.fromhex(s)

    def hex_line(self, k, size=32):
        return self.hex(k, self.need(k), size)

    def checkpoint(self, k, signed):
        f = GO_FIELDS.findall(self.need(k))
        want = 3 if signed else 2
        if len(f) != want:
            self.fail("%s: want %d fields, got %d" % (k, want, len(f)), back=1)
        length = self.number(k + " length", f[0])
        head = self.hex(k + " head", f[1], 32)
        if signed:
            return (length, head, self.hex(k + " signature", f[2], 64))
        return (length, head)

    def roll(self):
        # "SEQ INDEX VALUE PURPOSE" (a d10) or "SEQ INDEX dFACES VALUE
        # PURPOSE": a value is a number, so the third field tells which.
        f = self.rest.split(" ", 3)
        faces = D10
        if len(f) == 4 and f[2].startswith("d"):
            f = self.rest.split(" ", 4)
            if len(f) != 5 or f[4] == "":
                self.fail("roll: want SEQ INDEX dFACES VALUE PURPOSE", back=1)
            faces = self.number("roll faces", f[2][1:])
            if faces == D10:
                self.fail("roll: a d10 is written without %s" % json.dumps(f[2]), back=1)
            if not MIN_FACES <= faces <= MAX_FACES:
                self.fail("roll: %s: a die has %d to %d faces" % (f[2], MIN_FACES, MAX_FACES), back=1)
            f = f[:2] + f[3:]
        if len(f) != 4 or f[3] == "":
            self.fail("roll: want SEQ INDEX VALUE PURPOSE", back=1)
        seq = self.number("roll seq", f[0])
        index = self.number("roll index", f[1])
        value = self.number("roll value", f[2])
        return (seq, index, value, f[3], faces)


def parse_record(lines, first):
    """A record's lines (without the markers); first is the line number of
    the first of them in the mail's text."""
    r = Record()
    p = RecordParser(lines, first)
    r.version = p.uint("version")
    r.game = p.text("game")
    r.key = p.hex_line("key")
    r.batch = p.uint("batch")
    if r.version != VERSION_TWO:
        raise RecordError(first, "version %d: records exist from version %d on" % (r.version, VERSION_TWO))
    if r.batch > 0:
        r.side = p.text("side")
        r.after = p.checkpoint("after", False)
        r.commit = p.hex_line("commit")
        r.seed = p.hex_line("seed")
        r.block = p.hex_line("block")
        while p.next("order"):
            if r.orders is None:
                r.orders = []
            r.orders.append(p.rest)
        while p.next("roll"):
            r.rolls.append(p.roll())
    r.next = p.hex_line("next")
    r.checkpoint = p.checkpoint("checkpoint", True)
    if p.i < len(lines):
        p.fail("%s after the checkpoint" % json.dumps(lines[p.i]))
    return r


def verify_record(r, key, signatures):
    """One record on its own, as Herald's dice.VerifyRecord: key is the
    installation key from the game's first mail (bytes), or None."""
    if key is not None and key != r.key:
        raise RecordFailure("installation key %s, but the game's first mail gave %s" % (r.key.hex(), key.hex()))
    length, head, sig = r.checkpoint
    if signatures and not ed25519_verify(r.key, head_message(r.game, length, head), sig):
        raise RecordFailure("the signature of checkpoint %d:%s is not the installation key's (%s)"
                            % (length, head.hex(), r.key.hex()))
    if r.batch == 0:
        return
    c = hashlib.sha256(r.seed).digest()
    if c != r.commit:
        raise RecordFailure("seed %s hashes to %s, but the commitment it answers is %s"
                            % (r.seed.hex(), c.hex(), r.commit.hex()))
    if r.orders is not None:
        h = hashlib.sha256("".join(o + "\n" for o in r.orders).encode("utf-8")).digest()
        if h != r.block:
            raise RecordFailure("block %s, but the orders shown hash to %s" % (r.block.hex(), h.hex()))
    for i, (seq, index, value, purpose, faces) in enumerate(r.rolls):
        def fail(reason):
            raise RecordFailure(reason, roll_words(seq, purpose))
        if index != i:
            fail("index %d, want %d" % (index, i))
        if i > 0 and seq != r.rolls[i - 1][0] + 1:
            fail("seq %d, want %d: a roll was dropped or repeated" % (seq, r.rolls[i - 1][0] + 1))
        if not 0 <= value < faces:
            fail("value %d is not a face of a d%d" % (value, faces))
        want = derive_v2(r.seed, r.game, r.batch, index, purpose, r.block, r.after[0], r.after[1], faces)
        if value != want:
            fail("value %d, but the seed and the orders give %d" % (value, want))


def follows(prev, r):
    """That r continues the game from prev, the record of the mail before
    it, as Herald's dice.Follows."""
    def fail(reason):
        raise RecordFailure(reason)
    if r.game != prev.game:
        fail("game %s, but the mail before is of game %s" % (json.dumps(r.game), json.dumps(prev.game)))
    if r.key != prev.key:
        fail("installation key %s, but the mail before gave %s" % (r.key.hex(), prev.key.hex()))
    if r.batch != prev.batch + 1:
        fail("batch %d, but the mail before reported batch %d: a batch in between was never mailed to you"
             % (r.batch, prev.batch))
    if r.after != prev.checkpoint[:2]:
        fail("it follows checkpoint %d:%s, but the mail before ended at %d:%s: the log was changed in between"
             % (r.after[0], r.after[1].hex(), prev.checkpoint[0], prev.checkpoint[1].hex()))
    if r.commit != prev.next:
        fail("its seed answers commitment %s, but the mail before committed %s" % (r.commit.hex(), prev.next.hex()))
    if r.rolls:
        if prev.rolls:
            last = prev.rolls[-1][0]
        elif prev.batch > 0:
            return  # the mail before rolled nothing: its last seq is not in it
        else:
            last = 0
        if r.rolls[0][0] != last + 1:
            fail("its first roll is #%d, but the mail before ended at #%d" % (r.rolls[0][0], last))


class MailFailure(Exception):
    def __init__(self, mail, path, line, roll, reason):
        super().__init__(reason)
        self.mail, self.path, self.line, self.roll, self.reason = mail, path, line, roll, reason

    def __str__(self):
        if not self.mail:
            return self.reason
        s = "mail %d (%s)" % (self.mail, self.path)
        if self.line:
            s += ", line %d" % self.line
            if self.roll:
                s += " (%s)" % self.roll
        elif self.roll:
            s += " (%s)" % self.roll
        return "%s: %s" % (s, self.reason)


def mail_text(data):
    """The decoded text/plain part of a mail (bytes as saved, .eml), or None."""
    msg = email.message_from_bytes(data, policy=email.policy.default)
    part = msg.get_body(preferencelist=("plain",))
    if part is None:
        return None
    try:
        return part.get_content()
    except (LookupError, UnicodeError):  # an unknown charset
        return (part.get_payload(decode=True) or b"").decode("utf-8", errors="replace")


def verify_mails(mails, key, signatures):
    """mails: [(path, bytes)]. Returns a summary dict; raises MailFailure."""
    records = []  # (mail number, path, line, record)
    skipped = []  # mails without a record: notices, refusals, checks
    for path, data in mails:
        n = len(records) + 1
        text = mail_text(data)
        if text is None:
            raise MailFailure(n, path, 0, "", "no text/plain part")
        try:
            found = find_records(text)
        except RecordError as e:
            raise MailFailure(n, path, e.line, "", "dice record: " + e.reason)
        if not found and len(mails) > 1:
            skipped.append(path)
            continue
        if not found:
            raise MailFailure(n, path, 0, "", "no dice record (%s) in it" % RECORD_BEGIN)
        for r, line in found:
            records.append((len(records) + 1, path, line, r))
    if not records:
        raise MailFailure(0, "", 0, "", "none of the %d mails holds a dice record" % len(mails))
    for n, path, line, r in records:
        try:
            verify_record(r, key, signatures)
        except RecordFailure as f:
            raise MailFailure(n, path, line, f.roll, f.reason)
    # Taken by batch (a record given twice counts once).
    seen, chain = set(), []
    for item in sorted(records, key=lambda x: x[3].batch):
        t = item[3].key_tuple()
        if t not in seen:
            seen.add(t)
            chain.append(item)
    for (_, _, _, prev), (n, path, line, r) in zip(chain, chain[1:]):
        try:
            follows(prev, r)
        except RecordFailure as f:
            raise MailFailure(n, path, line, f.roll, f.reason)
    first, last = chain[0][3], chain[-1][3]
    return {"ok": True, "mails": len(chain), "game": first.game, "first_batch": first.batch,
            "last_batch": last.batch, "rolls": sum(len(x[3].rolls) for x in chain),
            "checkpoint": "%d:%s" % (last.checkpoint[0], last.checkpoint[1].hex()),
            "skipped": skipped}


# ---------------------------------------------------------------- command line

def parse_checkpoint(s):
    parts = s.lower().split(":")
    if len(parts) not in (2, 3) or not DECIMAL.match(parts[0]) or int(parts[0]) > MAX_U64 \
            or not HEX64.match(parts[1]) or (len(parts) == 3 and not HEX128.match(parts[2])):
        raise argparse.ArgumentTypeError("want LENGTH:HEAD or LENGTH:HEAD:SIG (hex), got %r" % s)
    return int(parts[0]), parts[1], parts[2] if len(parts) == 3 else None


def parse_key(s):
    s = s.lower()
    if not HEX64.match(s):
        raise argparse.ArgumentTypeError("want 64 hex digits, got %r" % s)
    return s


def main(argv=None):
    try:  # purposes and names print as they are, whatever the locale
        sys.stdout.reconfigure(encoding="utf-8", errors="backslashreplace")
    except (AttributeError, ValueError):
        pass
    ap = argparse.ArgumentParser(
        prog="verify-dice.py",
        description=__doc__.split("\n\n")[0],
        epilog="Checks rolls, seed commitments and reveals, the hash chain, checkpoints and "
               "(unless --no-signatures) the Ed25519 signatures of seals and checkpoints, with a "
               "pure-Python Ed25519 from RFC 8032, since Python's standard library has none. "
               "It does not replay the orders through the rules engine (use herald verify). "
               "Format: docs/dice.md. Exit status 0 OK, 1 failed, 2 bad usage.")
    ap.add_argument("export", nargs="?", help="the game's export (JSON Lines); - for stdin")
    ap.add_argument("--checkpoint", action="append", default=[], type=parse_checkpoint,
                    metavar="LENGTH:HEAD[:SIG]", help="a chain head from a mail; repeatable")
    ap.add_argument("--mail", action="append", default=[], metavar="FILE",
                    help="a saved mail (.eml) of a version 2 game: check its dice record instead of "
                         "an export; repeatable, in any order (they are taken by batch)")
    ap.add_argument("--public-key", type=parse_key, metavar="HEX",
                    help="the installation key from the game's first mail")
    ap.add_argument("--no-signatures", action="store_true", help="skip Ed25519 signature checks")
    ap.add_argument("--json", action="store_true", help="print the result as one JSON object")
    ap.add_argument("--self-test", action="store_true", help="check the Ed25519 code against RFC 8032")
    args = ap.parse_args(argv)

    if args.self_test:
        ok = self_test()
        print("self-test: " + ("OK" if ok else "FAILED"))
        return 0 if ok else 1
    if args.mail:
        if args.export or args.checkpoint:
            ap.error("--mail checks mails only: no EXPORT or --checkpoint with it")
        return main_mail(args)
    if not args.export:
        ap.error("the export file (or --mail FILE) is required")
    try:
        if args.export == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(args.export, "rb") as f:
                data = f.read()
    except OSError as e:
        print("verify-dice: %s" % e, file=sys.stderr)
        return 2

    v = Verifier(args.checkpoint, args.public_key, not args.no_signatures)
    failure = None
    try:
        v.verify(data)
    except Failure as f:
        failure = f
    result = {"ok": failure is None, "entries": v.entries, "batches": v.batches, "rolls": v.rolls,
              "seals": v.seals, "checkpoints": v.matched, "head": v.head}
    if v.draws:
        result.update(draws=len(v.draws), plays=v.plays, hidden=v.unrevealed())
    if failure is not None:
        result.update(entry=failure.entry, kind=failure.kind, reason=failure.reason,
                      line=failure.entry + 1, roll=failure.roll, where=failure.where())
    if args.json:
        print(json.dumps(result))
    elif failure is None:
        print("OK: %d entries, %d batches, %d rolls, %d seals; head %d:%s; %d checkpoints matched%s"
              % (v.entries, v.batches, v.rolls, v.seals, v.entries, v.head, v.matched,
                 "" if v.signatures else " (signatures NOT checked)"))
        if v.hidden_line():
            print(v.hidden_line())
    else:
        print("FAILED: %s" % failure)
        print("before it: %d entries, %d batches, %d rolls passed" % (v.entries, v.batches, v.rolls))
    return 0 if failure is None else 1


def main_mail(args):
    mails = []
    for path in args.mail:
        try:
            with open(path, "rb") as f:
                mails.append((path, f.read()))
        except OSError as e:
            print("verify-dice: %s" % e, file=sys.stderr)
            return 2
    key = bytes.fromhex(args.public_key) if args.public_key else None
    signatures = not args.no_signatures
    try:
        result = verify_mails(mails, key, signatures)
    except MailFailure as f:
        if args.json:
            print(json.dumps({"ok": False, "mail": f.mail, "file": f.path, "line": f.line,
                              "roll": f.roll, "reason": f.reason}))
        else:
            print("FAILED: %s" % f)
        return 1
    if args.json:
        print(json.dumps(result))
    else:
        print("OK: %d mails of game %s, batches %d\u2013%d, %d rolls; checkpoint %s%s"
              % (result["mails"], result["game"], result["first_batch"], result["last_batch"],
                 result["rolls"], result["checkpoint"],
                 "" if signatures else " (signatures NOT checked)"))
        for path in result["skipped"]:
            print("skipped %s: no dice record (a notice, a refusal or a check reports no batch)" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
