#!/usr/bin/env python3
"""A game program for the tests that tries what its sandbox forbids, at
the start, and says how each try went in its end's details."""
import json
import os
import socket
import sys


def attempt(what):
    try:
        what()
        return "done"
    except OSError as e:
        return "refused: %s" % e.strerror


for line in sys.stdin:
    msg = json.loads(line)
    options = msg.get("options", {})
    if msg["type"] == "start":
        tries = {
            "connect": attempt(lambda: socket.create_connection(("127.0.0.1", options["port"]), timeout=2).close()),
            "read_hidden": attempt(lambda: open(options["secret"]).read()),
            "write_home": attempt(lambda: open(os.path.join(os.environ["HOME"], "notes"), "w").write("mine")),
            "write_beside": attempt(lambda: open("scribble", "w").write("no")),
            "env": " ".join(sorted(os.environ)),
        }
        sys.stdout.write(json.dumps({"type": "end", "winner": "", "details": tries, "reason": "tried"}) + "\n")
        sys.stdout.flush()
