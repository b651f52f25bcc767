#!/usr/bin/env python3
"""A game program for the tests: one simultaneous turn (pick x or y), A
wins, unless the options' "fault" makes it fail, in the match named by
"only_match" if given (and in its first play only with
"first_attempt_only"), as a game can: it exits, hangs, writes garbage,
contradicts itself or says it cannot go on."""
import json
import os
import sys
import time


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def turn(asked=True):
    return {"type": "turn", "seats": [
        {"seat": s, "asked": asked, "move_type": "pick", "options": ["x", "y"],
         "observation": {"secret_of": s}, "text": "seat " + s} for s in "AB"]}


fault, lost = None, set()
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "start":
        options = msg["options"]
        if options.get("only_match") in (None, msg["match_id"]) and (msg["attempt"] == 1 or not options.get("first_attempt_only")):
            fault = options.get("fault")
        if fault == "exit_at_start":
            sys.exit(3)
        if fault == "hang_at_start":
            time.sleep(60)
        send(turn())
    elif kind == "move":
        if fault == "crash_mid":
            os._exit(1)
        if fault == "hang":
            time.sleep(60)
        if fault == "garbage":
            sys.stdout.write("this is not JSON\n")
            sys.stdout.flush()
            continue
        seat = msg["seat"]
        if fault == "other_seat":
            seat = "B" if seat == "A" else "A"
        if msg["move"] == "bad":
            send({"type": "verdict", "seat": seat, "verdict": "not_a_move", "reason": "bad is not x or y"})
        elif msg["move"] == "lose":
            lost.add(seat)
            send({"type": "verdict", "seat": seat, "verdict": "loses", "reason": "lose loses"})
        else:
            send({"type": "verdict", "seat": seat, "verdict": "accepted", "move": msg["move"].strip()})
    elif kind == "advance":
        if fault == "no_seat_asked":
            send(turn(asked=False))
        elif fault == "error":
            send({"type": "error", "message": "the board caught fire"})
        elif fault == "long_line":
            send({"type": "end", "winner": "A", "reason": "x" * (2 << 20)})
        elif fault == "unknown_key":
            send({"type": "end", "winner": "A", "reason": "A wins", "colour": "red"})
        elif fault == "ask_lost" and lost:
            send(turn())
        else:
            send({"type": "end", "winner": "A", "seats": [{"seat": "A", "status": "WON"}, {"seat": "B", "status": "LOST"}],
                  "details": {"big": 12345678901234567890, "seed": msg.get("turn")}, "reason": "A wins", "step": "A won"})
