#!/usr/bin/env python3
"""Verify a Herald dice export, independently of Herald.

Reads a game's export (JSON Lines: a header, then one line per log entry,
as specified in docs/dice.md) and checks, with the Python 3 standard
library only:

  * that every line is exactly its canonical encoding (so no byte can be
    changed unnoticed),
  * the hash chain: each entry's hash and its link to the entry before,
  * each batch's seed against the commitment published before it,
  * each order block against its SHA-256,
  * every roll's value (HMAC-SHA256 of the roll message, rejection
    sampling), its batch, index and per-game sequence number,
  * the Ed25519 signature of every seal, with a pure-Python Ed25519
    verifier written from RFC 8032 (slow: a few milliseconds per seal;
    --no-signatures skips it),
  * the checkpoints given with --checkpoint (from your mailbox).

It does NOT replay the orders through the rules engine: that check (that
the logged orders and rolls produce exactly the logged events and final
state) needs Herald itself: herald verify.

It stops at the first entry that fails and names it: entry 0 is the header,
entry N the N-th line after it. Exit status: 0 the export verifies, 1 it
fails, 2 bad usage or an unreadable file.
"""

import argparse
import hashlib
import hmac
import json
import re
import struct
import sys

VERSION = 1
MAX_LINE = 1 << 20
MAX_U64 = (1 << 64) - 1
MIN_I64, MAX_I64 = -(1 << 63), (1 << 63) - 1

ROLL_DOMAIN = b"herald/dice/roll/v1"
HEAD_DOMAIN = b"herald/dice/head/v1"

HEX64 = re.compile(r"[0-9a-f]{64}\Z")
HEX128 = re.compile(r"[0-9a-f]{128}\Z")

# Members of each kind of line, in canonical order, with their types:
# u = unsigned 64-bit integer, i = signed 64-bit integer, s = string,
# h = 32 bytes in hex, g = 64 bytes in hex, l = list of strings.
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
}


class Failure(Exception):
    def __init__(self, entry, kind, reason):
        super().__init__(reason)
        self.entry, self.kind, self.reason = entry, kind, reason

    def __str__(self):
        if self.kind:
            return "entry %d (%s): %s" % (self.entry, self.kind, self.reason)
        return "entry %d: %s" % (self.entry, self.reason)


# ---------------------------------------------------------------- bytes

def u64(v):
    return struct.pack(">Q", v)


def field(b):
    return u64(len(b)) + b


def roll_message(game, batch, index, purpose, orders_sha256, attempt):
    return (field(ROLL_DOMAIN) + field(game.encode("utf-8")) + u64(batch) + u64(index)
            + field(purpose.encode("utf-8")) + field(orders_sha256) + u64(attempt))


def derive(seed, game, batch, index, purpose, orders_sha256):
    attempt = 0
    while True:
        mac = hmac.new(seed, roll_message(game, batch, index, purpose, orders_sha256, attempt),
                       hashlib.sha256).digest()
        for c in mac:
            if c < 250:
                return c % 10
        attempt += 1


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


def parse(line, members_for):
    """Parse a line, check its members and canonical form; return a dict."""
    try:
        text = line.decode("utf-8")
        pairs = json.loads(text, object_pairs_hook=Pairs)
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
            "s": lambda v: type(v) is str and utf8_ok(v),
            "h": lambda v: type(v) is str and HEX64.match(v) is not None,
            "g": lambda v: type(v) is str and HEX128.match(v) is not None,
            "l": lambda v: type(v) is list and all(type(s) is str and utf8_ok(s) for s in v),
        }[typ](v)
        if not ok:
            raise ValueError("member %r has a wrong type or spelling: %r" % (name, v))
    if encode(obj, members) != text:
        raise ValueError("not in canonical form")
    return obj


def utf8_ok(s):
    try:
        s.encode("utf-8")
        return True
    except UnicodeEncodeError:  # a lone surrogate
        return False


def line_hash(obj, members):
    return hashlib.sha256(encode(obj, members, with_hash=False).encode("ascii")).hexdigest()


# ---------------------------------------------------------------- Ed25519 (RFC 8032)
# Verification only, following Go's crypto/ed25519 exactly: the public key
# may be a non-canonical encoding, S must be below L, and the encoding of
# [S]B - [k]A must equal R byte for byte.

P = 2 ** 255 - 19
L = 2 ** 252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def _add(a, b):
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
    y %= P
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
    if len(pub) != 32 or len(sig) != 64 or sig[63] & 224:
        return False
    a = _decode(pub)
    if a is None:
        return False
    s = int.from_bytes(sig[32:], "little")
    if s >= L:
        return False
    k = int.from_bytes(hashlib.sha512(sig[:32] + pub + msg).digest(), "little") % L
    minus_a = ((P - a[0]) % P, a[1], a[2], (P - a[3]) % P)
    r = _add(_mul(k, minus_a), _mul(s, _B))
    return _encode(r) == sig[:32]


def self_test():
    """RFC 8032 section 7.1, tests 1 and 2."""
    vectors = [
        ("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
         "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
         "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
        ("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
         "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
         "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
    ]
    for pub, msg, sig in vectors:
        pub, msg, sig = bytes.fromhex(pub), bytes.fromhex(msg), bytes.fromhex(sig)
        if not ed25519_verify(pub, msg, sig):
            return False
        bad = bytearray(sig)
        bad[5] ^= 1
        if ed25519_verify(pub, msg, bytes(bad)):
            return False
    return True


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
            if len(last) > MAX_LINE:
                raise Failure(i, kind, "the line is longer than %d bytes" % MAX_LINE)
            raise Failure(i, kind, "the line does not end with a newline")
        self.end(n)

    def check_line(self, i, line):
        kind = "header" if i == 0 else ""
        if len(line) > MAX_LINE:
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
        if h["herald_dice"] != VERSION:
            fail("format version %d, this verifier reads %d" % (h["herald_dice"], VERSION))
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
            return KINDS[k]
        try:
            e = parse(line, members_for)
        except ValueError as err:
            raise Failure(i, claimed_kind(line), str(err))
        kind = e["kind"]

        def fail(reason):
            raise Failure(i, kind, reason)
        if e["i"] != i:
            fail("numbered %d, but it is line %d after the header" % (e["i"], i))
        if e["prev"] != self.head:
            fail("prev %s, but entry %d hashes to %s" % (e["prev"], i - 1, self.head))
        got = line_hash(e, KINDS[kind])
        if got != e["hash"]:
            fail("hash %s, but the entry hashes to %s" % (e["hash"], got))
        if kind != self.expect:
            fail("a %s where %s" % (kind, self.expected()))
        if kind == "seal":
            if self.signatures and not ed25519_verify(
                    bytes.fromhex(self.h["public_key"]),
                    head_message(self.game, i - 1, bytes.fromhex(e["prev"])),
                    bytes.fromhex(e["sig"])):
                fail("the signature of checkpoint %d:%s is not the installation key's" % (i - 1, e["prev"]))
            self.seals += 1
            self.expect = "block"
        elif kind == "block":
            if e["batch"] != self.batches + 1:
                fail("batch %d, want %d" % (e["batch"], self.batches + 1))
            if e["side"] not in self.h["sides"]:
                fail("side %r is not one of the game's sides" % e["side"])
            c = hashlib.sha256(bytes.fromhex(e["seed"])).hexdigest()
            if c != self.commit:
                fail("seed %s hashes to %s, but the commitment published before it is %s"
                     % (e["seed"], c, self.commit))
            oh = hashlib.sha256(e["orders"].encode("utf-8")).hexdigest()
            if oh != e["orders_sha256"]:
                fail("orders_sha256 %s, but the orders hash to %s" % (e["orders_sha256"], oh))
            self.commit = e["next_commit"]
            self.batch, self.seed = e["batch"], bytes.fromhex(e["seed"])
            self.orders_sha256 = bytes.fromhex(e["orders_sha256"])
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
            want = derive(self.seed, self.game, e["batch"], e["index"], e["purpose"], self.orders_sha256)
            if e["value"] != want:
                fail("value %d, but the seed and the orders give %d for %r" % (e["value"], want, e["purpose"]))
            self.rolls += 1
            self.index += 1
            self.left -= 1
            if self.left == 0:
                self.expect = "seal"
        self.n = self.entries = i
        self.head = e["hash"]
        self.checkpoints(i, kind)

    def expected(self):
        if self.expect == "roll":
            return "roll %d of batch %d was expected" % (self.index, self.batch)
        if self.expect == "seal" and self.n == 0:
            return "the opening seal was expected"
        if self.expect == "seal":
            return "the seal of batch %d was expected" % self.batch
        return "a block was expected"

    def checkpoints(self, i, kind):
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
        if self.expect != "block":
            raise Failure(n + 1, self.expect, "missing: the export ends where " + self.expected())
        beyond = [length for length in self.cps if length > n]
        if beyond:
            raise Failure(n + 1, "", "missing: a checkpoint covers %d entries, the export holds %d: "
                          "entries were removed" % (min(beyond), n))


def claimed_kind(line):
    try:
        k = json.loads(line).get("kind")
    except Exception:
        return ""
    return k if k in KINDS else ""


def parse_checkpoint(s):
    parts = s.lower().split(":")
    if len(parts) not in (2, 3) or not parts[0].isdigit() or not HEX64.match(parts[1]) \
            or (len(parts) == 3 and not HEX128.match(parts[2])):
        raise argparse.ArgumentTypeError("want LENGTH:HEAD or LENGTH:HEAD:SIG (hex), got %r" % s)
    return int(parts[0]), parts[1], parts[2] if len(parts) == 3 else None


def parse_key(s):
    s = s.lower()
    if not HEX64.match(s):
        raise argparse.ArgumentTypeError("want 64 hex digits, got %r" % s)
    return s


def main(argv=None):
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
    if not args.export:
        ap.error("the export file is required")
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
    if failure is not None:
        result.update(entry=failure.entry, kind=failure.kind, reason=failure.reason)
    if args.json:
        print(json.dumps(result))
    elif failure is None:
        print("OK: %d entries, %d batches, %d rolls, %d seals; head %d:%s; %d checkpoints matched%s"
              % (v.entries, v.batches, v.rolls, v.seals, v.entries, v.head, v.matched,
                 "" if v.signatures else " (signatures NOT checked)"))
    else:
        print("FAILED: %s" % failure)
    return 0 if failure is None else 1


if __name__ == "__main__":
    sys.exit(main())
