#!/usr/bin/env python3
"""A small simultaneous game that misbehaves as its argument says, one way
per check of `leaguetui check --game` (league/check's game tests).

Each of three turns both seats pick 1, 2 or 3; the higher total wins.
Modes: good (no fault), random (draws from an unseeded source), refuse
(refuses the listed move 3), crash (exits on an answer that is no move),
endless (never ends), leak (tells a refused seat the other's move), slow
(sleeps past its answer deadline once).
"""
import json
import random
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
OPTIONS = ["1", "2", "3"]


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def turn(number, totals):
    seats = []
    for seat in ("A", "B"):
        obs = {"turn": number, "totals": totals}
        if MODE == "random":
            obs["noise"] = random.SystemRandom().random()
        seats.append({"seat": seat, "asked": True, "move_type": "pick", "options": OPTIONS, "observation": obs})
    return {"type": "turn", "seats": seats}


def main():
    number, totals, pending = 1, {"A": 0, "B": 0}, {}
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "start":
            send(turn(number, totals))
        elif kind == "move":
            seat, move = msg["seat"], msg["move"].strip()
            other = "B" if seat == "A" else "A"
            if move in OPTIONS and not (MODE == "refuse" and move == "3"):
                pending[seat] = int(move)
                send({"type": "verdict", "seat": seat, "verdict": "accepted", "move": move})
                continue
            if MODE == "crash":
                sys.exit(3)
            reason = "want 1, 2 or 3"
            if MODE == "leak" and other in pending:
                reason += " (%s picked %d)" % (other, pending[other])
            send({"type": "verdict", "seat": seat, "verdict": "not_a_move", "reason": reason})
        elif kind == "advance":
            if MODE == "slow" and number == 1:
                time.sleep(2)
            for seat, n in pending.items():
                totals[seat] += n
            pending = {}
            number += 1
            if number > 3 and MODE != "endless":
                winner = "A" if totals["A"] > totals["B"] else "B" if totals["B"] > totals["A"] else ""
                send({"type": "end", "winner": winner, "details": {"totals": totals}, "reason": "totals %d to %d" % (totals["A"], totals["B"])})
            else:
                send(turn(number, totals))


main()
