#!/usr/bin/env python3
"""Even/odd as a game program (docs/games.md, "Writing a game").

It plays exactly as leaguetui's built-in even_odd: the same moves, the same
reasons, and the same drawn number, which it draws as the engine does,
engine.MatchRand(league_seed, match_id, "draw").IntN(10) + 1: Go's PCG
(math/rand/v2) seeded with the league seed and the FNV-1a hash of
"draw\\0" + match id. A game of your own would simply draw from "seed".
Standard library only.
"""
import json
import sys

M64 = (1 << 64) - 1
MUL = (2549297995355413924 << 64) | 4865540595714422341
INC = (6364136223846793005 << 64) | 1442695040888963407


def fnv64a(text):
    h = 0xCBF29CE484222325
    for byte in text.encode():
        h = ((h ^ byte) * 0x100000001B3) & M64
    return h


class PCG:
    """Go's math/rand/v2 PCG (128-bit LCG, DXSM output)."""

    def __init__(self, seed1, seed2):
        self.state = ((seed1 & M64) << 64) | (seed2 & M64)

    def uint64(self):
        self.state = (self.state * MUL + INC) & ((1 << 128) - 1)
        hi, lo = self.state >> 64, self.state & M64
        hi ^= hi >> 32
        hi = (hi * 0xDA942042E4DD58B5) & M64
        hi ^= hi >> 48
        return (hi * (lo | 1)) & M64

    def intn(self, n):
        """Go's Rand.IntN: Lemire's multiply-and-reject."""
        if n & (n - 1) == 0:
            return self.uint64() & (n - 1)
        product = self.uint64() * n
        hi, lo = product >> 64, product & M64
        if lo < n:
            thresh = ((1 << 64) - n) % n
            while lo < thresh:
                product = self.uint64() * n
                hi, lo = product >> 64, product & M64
        return hi


def match_rand(league_seed, match_id, purpose):
    return PCG(league_seed, fnv64a(purpose + "\0" + match_id))


OPTIONS = ["even", "odd"]


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def both_asked():
    return {"type": "turn", "seats": [
        {"seat": seat, "asked": True, "move_type": "choose_parity", "options": OPTIONS} for seat in ("A", "B")]}


def main():
    match, moves = None, {}
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "start":
            match = msg
            send(both_asked())
        elif kind == "move":
            move = msg["move"].strip().lower()
            if move not in OPTIONS:
                send({"type": "verdict", "seat": msg["seat"], "verdict": "not_a_move",
                      "reason": "%s is not one of [even odd]" % json.dumps(msg["move"])})
                continue
            moves[msg["seat"]] = move
            send({"type": "verdict", "seat": msg["seat"], "verdict": "accepted", "move": move})
        elif kind == "advance":
            n = match_rand(match["league_seed"], match["match_id"], "draw").intn(10) + 1
            parity = "even" if n % 2 == 0 else "odd"
            a, b = moves["A"] == parity, moves["B"] == parity
            winner = "A" if a and not b else "B" if b and not a else ""
            send({"type": "end", "winner": winner, "details": {"drawn_number": n, "number_parity": parity},
                  "right": parity, "step": "drawn %d" % n,
                  "reason": "A chose %s, B chose %s, drawn %d is %s" % (moves["A"], moves["B"], n, parity)})
        else:
            send({"type": "error", "message": "unknown message type %r" % kind})


if __name__ == "__main__":
    main()
