#!/usr/bin/env python3
"""A league.v2 player in Python's standard library only, for leaguetui's roster.

    python3 player.py --port PORT --manager URL --name NAME --data DIR

It serves POST /mcp (JSON-RPC 2.0) and GET /health, registers with the
manager, and keeps its player_id and auth_token in DIR/credentials.json so
that, started again after a crash, it registers again as itself.
It plays even/odd (choose_parity) and the link race (game_move_call).

Test switches: --crash-after N exits on its N-th move of its first run;
--hog-after N makes its N-th move allocate memory without end (a roster
memory limit stops it).
"""
import argparse
import datetime
import json
import os
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ARGS = None
STATE = {"player_id": None, "auth_token": None, "moves": 0}
LOCK = threading.Lock()
HOG = threading.Event()


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def envelope(message_type, conversation_id):
    env = {"protocol": "league.v2", "message_type": message_type,
           "sender": "player:" + (STATE["player_id"] or ARGS.name),
           "timestamp": now(), "conversation_id": conversation_id or "conv-" + ARGS.name}
    return env


def choose(match_id, options):
    # Deterministic: the same league gives the same moves.
    return options[sum(ord(c) for c in match_id) % len(options)]


def answer(msg):
    kind = msg.get("message_type")
    conv = msg.get("conversation_id")
    match_id = msg.get("match_id", "")
    me = STATE["player_id"] or ARGS.name
    if kind == "GAME_INVITATION":
        reply = envelope("GAME_JOIN_ACK", conv)
        reply.update(match_id=match_id, player_id=me, arrival_timestamp=now(), accept=True)
        return reply
    if kind in ("CHOOSE_PARITY_CALL", "GAME_MOVE_CALL"):
        count_move()
        if kind == "CHOOSE_PARITY_CALL":
            reply = envelope("CHOOSE_PARITY_RESPONSE", conv)
            reply.update(match_id=match_id, player_id=me, parity_choice=choose(match_id, ["even", "odd"]))
            return reply
        request = msg.get("move_request") or {}
        options = request.get("valid_options") or (request.get("context") or {}).get("links") or [""]
        reply = envelope("GAME_MOVE_RESPONSE", conv)
        reply.update(match_id=match_id, player_id=me,
                     move_data={"move_type": request.get("move_type", "navigate"), "choice": choose(match_id, options)})
        return reply
    # GAME_OVER, GAME_ERROR, ROUND_ANNOUNCEMENT, LEAGUE_STANDINGS_UPDATE,
    # ROUND_COMPLETED, LEAGUE_COMPLETED: nothing to say but an ack.
    return {"status": "ok"}


def count_move():
    with LOCK:
        STATE["moves"] += 1
        n = STATE["moves"]
    if ARGS.crash_after and n == ARGS.crash_after and not os.path.exists(marker()):
        open(marker(), "w").close()
        os._exit(3)  # a crash: no answer, no goodbye
    if ARGS.hog_after and n == ARGS.hog_after:
        HOG.set()
        time.sleep(60)  # the main thread allocates meanwhile


def marker():
    return os.path.join(ARGS.data, "crashed-once")


class Handler(BaseHTTPRequestHandler):
    def log_message(self, fmt, *args):
        pass

    def send_json(self, status, obj):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/health":
            self.send_json(200, {"status": "ok", "id": STATE["player_id"], "role": "player"})
        else:
            self.send_json(404, {"error": "not found"})

    def do_POST(self):
        if self.path != "/mcp":
            self.send_json(404, {"error": "not found"})
            return
        try:
            request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        except ValueError:
            self.send_json(200, {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
            return
        params = request.get("params") or {}
        if not isinstance(params, dict) or "message_type" not in params:
            self.send_json(200, {"jsonrpc": "2.0", "id": request.get("id"),
                                 "error": {"code": -32601, "message": "method not found"}})
            return
        reply = {"jsonrpc": "2.0", "id": request.get("id"), "result": answer(params)}
        log_wire(request, reply)
        self.send_json(200, reply)


def log_wire(request, reply):
    if ARGS.log_wire:
        with LOCK, open(ARGS.log_wire, "a") as f:
            f.write(json.dumps({"request": request, "reply": reply}) + "\n")


def register():
    creds = os.path.join(ARGS.data, "credentials.json")
    saved = {}
    if os.path.exists(creds):
        with open(creds) as f:
            saved = json.load(f)
    msg = envelope("LEAGUE_REGISTER_REQUEST", "conv-" + ARGS.name + "-register")
    if saved:  # registering again as itself keeps its id and place
        msg["sender"] = "player:" + saved["player_id"]
        msg["auth_token"] = saved["auth_token"]
    msg["player_meta"] = {"display_name": ARGS.name, "version": "1.0.0",
                          "game_types": ["even_odd", "link_race"],
                          "contact_endpoint": "http://127.0.0.1:%d/mcp" % ARGS.port}
    if os.environ.get("LEAGUETUI_JOIN_CODE"):  # an external roster entry's, from its organiser
        msg["player_meta"]["join_code"] = os.environ["LEAGUETUI_JOIN_CODE"]
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "register_player", "params": msg}).encode()
    for attempt in range(50):
        try:
            req = urllib.request.Request(ARGS.manager, body, {"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=10) as resp:
                reply = json.load(resp)
            log_wire(json.loads(body), reply)
            result = reply.get("result") or {}
            if result.get("status") == "ACCEPTED":
                STATE["player_id"], STATE["auth_token"] = result["player_id"], result["auth_token"]
                with open(creds, "w") as f:
                    json.dump({"player_id": result["player_id"], "auth_token": result["auth_token"]}, f)
                print("registered as", result["player_id"], flush=True)
                return
            print("registration refused:", result.get("reason"), flush=True)
        except OSError as e:
            print("registration failed:", e, flush=True)
        time.sleep(0.2)
    sys.exit("could not register")


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--manager", required=True)
    p.add_argument("--name", required=True)
    p.add_argument("--data", required=True)
    p.add_argument("--crash-after", type=int, default=0)
    p.add_argument("--hog-after", type=int, default=0)
    p.add_argument("--log-wire", default="", help="append each exchange (request and reply) to this file")
    ARGS = p.parse_args()
    os.makedirs(ARGS.data, exist_ok=True)
    server = ThreadingHTTPServer(("127.0.0.1", ARGS.port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    register()
    HOG.wait()
    hog = []
    while True:  # past a memory limit this raises MemoryError, and the program ends
        hog.append(bytearray(16 << 20))


if __name__ == "__main__":
    main()
