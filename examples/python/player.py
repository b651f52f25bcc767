#!/usr/bin/env python3
"""A league.v2 player in one file, Python's standard library only.

Copy it, replace the two strategy functions, and check it:

    leaguetui check --strict -- python3 player.py --port {port} --manager {manager} --name {name} --data {data}

It registers with the manager, saves its credentials and presents them when
it registers again after a restart, answers the referee's invitation, move
and result calls (even_odd and link_race), checks match tickets, serves
GET /health and the MCP tools/list, and logs one line per match. With --pull
it listens on no port (behind NAT, a firewall): it takes the league's calls
over connections it opens to the manager, each request carrying the answer to
the last call and bringing the next.
The wire is described in leaguetui's docs/protocol.md and docs/joining.md.
"""
import argparse, hashlib, hmac, json, os, queue, random, sys, threading, time, urllib.error, urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_BODY = 1 << 20  # larger requests are refused unread


# --- strategies: replace these two --------------------------------------

def choose_parity(opponent_id):
    """even_odd: answer "even" or "odd"."""
    return random.choice(["even", "odd"])


def choose_link(current_page, links, target_page):
    """link_race: answer one of the current page's links (the target if it is there)."""
    return target_page if target_page in links else links[0]


# --- the wire --------------------------------------------------------------

def now():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())  # UTC, whole seconds


class Player:
    def __init__(self, args):
        self.args = args
        self.endpoint = "http://127.0.0.1:%d/mcp" % args.port
        self.creds_path = os.path.join(args.data, "credentials-%s.json" % args.name)
        self.creds = {}  # player_id, auth_token, league_id, match_ticket_key
        self.renewing = threading.Lock()  # one registration at a time (--pull's workers)

    def envelope(self, message_type, conversation_id, request=None):
        env = {"protocol": "league.v2", "message_type": message_type,
               "sender": "player:" + self.creds.get("player_id", self.args.name),
               "timestamp": now(), "conversation_id": conversation_id}
        for key in ("league_id", "round_id", "match_id"):  # echo the match's ids
            if request and key in request:
                env[key] = request[key]
        return env

    def register(self):
        """Register, presenting saved credentials if there are any."""
        if os.path.exists(self.creds_path):
            with open(self.creds_path) as f:
                self.creds = json.load(f)
        msg = self.envelope("LEAGUE_REGISTER_REQUEST", "conv-register-" + self.args.name)
        if self.creds.get("auth_token"):
            msg["auth_token"] = self.creds["auth_token"]  # "it is me again"
        msg["player_meta"] = {"display_name": self.args.name, "version": "1.0.0",
                              "game_types": ["even_odd", "link_race"], "contact_endpoint": self.endpoint}
        if os.environ.get("LEAGUETUI_JOIN_CODE"):  # an external roster entry's, from its organiser
            msg["player_meta"]["join_code"] = os.environ["LEAGUETUI_JOIN_CODE"]
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "register_player", "params": msg}).encode()
        for attempt in range(10):  # the manager may still be starting
            try:
                req = urllib.request.Request(self.args.manager, body, {"Content-Type": "application/json"})
                with urllib.request.urlopen(req, timeout=10) as resp:
                    raw = resp.read(MAX_BODY + 1)  # at most one byte past the cap
                if len(raw) > MAX_BODY:
                    raise OSError("the manager's reply is over %d bytes" % MAX_BODY)
                result = json.loads(raw).get("result") or {}
                break
            except OSError as e:
                print("registration: %s; trying again" % e, file=sys.stderr)
                time.sleep(min(2 ** attempt, 10))
        else:
            sys.exit("registration: the manager at %s never answered" % self.args.manager)
        if result.get("status") != "ACCEPTED":
            sys.exit("registration rejected: %s" % result.get("reason"))
        self.creds = {k: result.get(k) for k in ("player_id", "auth_token", "league_id", "match_ticket_key")}
        os.makedirs(self.args.data, exist_ok=True)
        with open(self.creds_path, "w") as f:
            json.dump(self.creds, f)
        print("registered as %s in %s" % (self.creds["player_id"], self.creds["league_id"]), file=sys.stderr)

    def ticket_ok(self, msg):
        """A leaguetui manager gives a match_ticket_key: then a match call must carry
        mt-<hex HMAC-SHA256(key, "match_ticket\\0" league\\0 match\\0 referee\\0)> as auth_token."""
        key = self.creds.get("match_ticket_key")
        if not key:
            return True  # a manager without tickets: nothing to check
        referee = msg.get("sender", "").partition("referee:")[2]
        league = msg.get("league_id") or self.creds.get("league_id") or ""
        data = "".join(part + "\0" for part in ("match_ticket", league, msg.get("match_id", ""), referee))
        want = "mt-" + hmac.new(key.encode(), data.encode(), hashlib.sha256).hexdigest()
        return hmac.compare_digest(want, msg.get("auth_token", ""))

    def handle(self, method, msg):
        """Answer one league message; return the result, or raise RPCError."""
        kind = msg.get("message_type") or method
        me = self.creds.get("player_id", "")
        if kind in ("GAME_INVITATION", "CHOOSE_PARITY_CALL", "GAME_MOVE_CALL", "GAME_OVER") and not self.ticket_ok(msg):
            return dict(self.envelope("LEAGUE_ERROR", msg.get("conversation_id", ""), msg), error_code="E012",
                        error_name="AUTH_TOKEN_INVALID", error_description="not this match's ticket", retryable=False)
        if kind in ("GAME_INVITATION", "handle_game_invitation"):
            return dict(self.envelope("GAME_JOIN_ACK", msg.get("conversation_id", ""), msg),
                        player_id=me, arrival_timestamp=now(), accept=True)
        if kind in ("CHOOSE_PARITY_CALL", "choose_parity"):
            choice = choose_parity(msg.get("context", {}).get("opponent_id"))
            return dict(self.envelope("CHOOSE_PARITY_RESPONSE", msg.get("conversation_id", ""), msg),
                        player_id=me, parity_choice=choice)
        if kind in ("GAME_MOVE_CALL", "game_move_call"):
            state = (msg.get("move_request") or {}).get("context") or {}
            link = choose_link(state.get("current_page"), state.get("links") or [""], state.get("target_page"))
            return dict(self.envelope("GAME_MOVE_RESPONSE", msg.get("conversation_id", ""), msg),
                        player_id=me, move_data={"move_type": "navigate", "choice": link})
        if kind in ("GAME_OVER", "notify_match_result"):
            result = msg.get("game_result", {})
            print("match %s %s: %s, winner %s" % (msg.get("match_id"), msg.get("game_type"),
                                                  result.get("status"), result.get("winner_player_id")), file=sys.stderr)
        if kind in ("GAME_OVER", "ROUND_ANNOUNCEMENT", "LEAGUE_STANDINGS_UPDATE", "ROUND_COMPLETED",
                    "LEAGUE_COMPLETED", "GAME_ERROR", "ping"):
            return dict(self.envelope(kind.upper() + "_ACK", msg.get("conversation_id", ""), msg), status="ok")
        raise RPCError(-32601, "method not found: " + method)


class RPCError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code, self.message = code, message


TOOLS = [{"name": name, "description": text, "inputSchema": {"type": "object"}} for name, text in [
    ("handle_game_invitation", "GAME_INVITATION: answers GAME_JOIN_ACK"),
    ("choose_parity", "CHOOSE_PARITY_CALL: answers CHOOSE_PARITY_RESPONSE"),
    ("game_move_call", "GAME_MOVE_CALL: answers GAME_MOVE_RESPONSE"),
    ("notify_match_result", "GAME_OVER: answers an acknowledgement")]]


def answer(player, raw):
    """One JSON-RPC request's answer: (HTTP status, the response object, or None for none)."""
    try:
        req = json.loads(raw)
    except ValueError:
        return 200, {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}}
    if not isinstance(req, dict) or not isinstance(req.get("method"), str):
        return 200, {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "invalid request"}}
    method, params = req["method"], req.get("params") or {}
    try:
        if method == "tools/list":
            result = {"tools": TOOLS}
        elif method == "tools/call":  # an MCP client: the league message is the arguments
            answer = player.handle(params.get("name", ""), params.get("arguments") or {})
            result = {"content": [{"type": "text", "text": json.dumps(answer)}], "structuredContent": answer}
        else:
            result = player.handle(method, params)
        response = {"jsonrpc": "2.0", "id": req.get("id"), "result": result}
    except RPCError as e:
        response = {"jsonrpc": "2.0", "id": req.get("id"), "error": {"code": e.code, "message": e.message}}
    if "id" not in req:  # a notification: acted on, never answered
        return 202, None
    return 200, response


def make_handler(player):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path != "/health":
                return self.reply(404, {"error": "not found"})
            self.reply(200, {"status": "ok", "player_id": player.creds.get("player_id")})

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                self.close_connection = True  # refused unread
                return self.reply(413, {"jsonrpc": "2.0", "id": None,
                                        "error": {"code": -32600, "message": "request body too large"}})
            status, response = answer(player, self.rfile.read(length))
            if response is None:
                self.send_response(status)
                self.send_header("Content-Length", "0")
                return self.end_headers()
            self.reply(status, response)

        def reply(self, status, obj):
            body = json.dumps(obj).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):  # one line per match is enough
            pass
    return Handler


# --- --pull: no port; calls come over connections this player opens ----

PULL_WORKERS = 4  # calls come concurrently (a notification during a match): one worker each


def pull(player):
    """Take the league's calls over connections this player opens to the manager's
    relay, with PULL_WORKERS workers (see pull_worker); return only to end the
    player, when one of them could not register again."""
    ended = queue.Queue()  # sys.exit in a thread ends only that thread: hand it to the main one

    def worker():
        try:
            pull_worker(player)
        except SystemExit as e:
            ended.put(e)
    for _ in range(PULL_WORKERS):
        threading.Thread(target=worker, daemon=True).start()
    raise ended.get()


def pull_worker(player):
    """One worker's loop: POST .../next carrying the answer to this worker's last
    call (none the first time), which the relay writes as that caller's HTTP
    response and then waits for the next call (or answers 204 when none came for
    a while); answer that call, and repeat. One request a call."""
    url = player.args.manager.rsplit("/mcp", 1)[0] + "/pull/%s/next" % player.creds["player_id"]
    delivery, answer_body = None, b""  # the last call's delivery id and its answer
    while True:
        token = player.creds["auth_token"]
        headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
        if delivery:
            headers["League-Delivery"] = delivery
        req = urllib.request.Request(url, answer_body, headers, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                delivery, raw = resp.headers.get("League-Delivery"), resp.read(MAX_BODY + 1)
            answer_body = reply_to(player, raw) if delivery else b""  # 204: no call this time
        except urllib.error.HTTPError as e:
            if e.code == 401:  # the token is no longer this seat's: register again, keep the answer
                renew(player, token)
            elif delivery and e.code in (404, 410, 413):  # the answer went nowhere: poll on without it
                print("answer %s: %s" % (delivery, e), file=sys.stderr)
                delivery, answer_body = None, b""
            else:
                time.sleep(1)
        except OSError as e:  # the manager is away: try again shortly, answer and all
            print("poll: %s" % e, file=sys.stderr)
            time.sleep(1)


def reply_to(player, raw):
    """The answer to one call, as this player would write it as the HTTP response
    on its own /mcp (an empty body for a notification)."""
    if len(raw) > MAX_BODY:
        response = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "request body too large"}}
    else:
        _, response = answer(player, raw)
    return b"" if response is None else json.dumps(response).encode()


def renew(player, token):
    """Register again, once for all the workers refused token: the first registers,
    the others find a new token in use and poll on with it."""
    with player.renewing:
        if player.creds.get("auth_token") == token:
            player.register()


def main():
    parser = argparse.ArgumentParser(description="a league.v2 player")
    parser.add_argument("--port", type=int, default=8101)
    parser.add_argument("--manager", default="http://127.0.0.1:8000/mcp")
    parser.add_argument("--name", default="python-starter")
    parser.add_argument("--data", default=os.path.join(os.path.expanduser("~"), ".leaguetui-starter"),
                        help="folder for the saved credentials (default ~/.leaguetui-starter)")
    parser.add_argument("--pull", action="store_true",
                        help="listen on no port: take the league's calls over connections this player opens (a pull seat)")
    player = Player(parser.parse_args())
    try:
        if player.args.pull:
            player.endpoint = "pull"  # the manager gives this player a pull seat
            player.register()
            pull(player)
        server = ThreadingHTTPServer(("127.0.0.1", player.args.port), make_handler(player))
        threading.Thread(target=server.serve_forever, daemon=True).start()  # listen before registering
        player.register()
        threading.Event().wait()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
