// A league.v2 player in one file, the JDK's standard library only (Java 17 or newer).
//
// Copy it, replace the two strategy functions, and check it; java runs the source, no build step:
//
//   leaguetui check --strict -- java Player.java --port {port} --manager {manager} --name {name} --data {data}
//
// It registers with the manager, saves its credentials and presents them when
// it registers again after a restart, answers the referee's invitation, move
// and result calls (even_odd and link_race), checks match tickets, serves
// GET /health and the MCP tools/list, and logs one line per match.
// The wire is described in leaguetui's docs/protocol.md and docs/joining.md.
import com.sun.net.httpserver.*;
import java.io.*;
import java.net.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.security.MessageDigest;
import java.time.*;
import java.util.*;
import java.util.concurrent.Executors;
import javax.crypto.*;
import javax.crypto.spec.SecretKeySpec;

public class Player {
    static final int MAX_BODY = 1 << 20; // larger requests are refused unread

    // --- strategies: replace these two ------------------------------------------

    /** even_odd: answer "even" or "odd". */
    static String chooseParity(Object opponentId) { return new Random().nextBoolean() ? "even" : "odd"; }

    /** link_race: answer one of the current page's links (the target if it is there). */
    static Object chooseLink(Object currentPage, List<?> links, Object targetPage) {
        return targetPage != null && links.contains(targetPage) ? targetPage : links.get(0);
    }

    // --- the wire -----------------------------------------------------------------

    final Map<String, String> args = new HashMap<>(Map.of("port", "8101", "manager", "http://127.0.0.1:8000/mcp",
            "name", "java-starter", "data", System.getProperty("user.home") + "/.leaguetui-starter"));
    Map<String, Object> creds = new LinkedHashMap<>(); // player_id, auth_token, league_id, match_ticket_key

    static String now() { return Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString(); } // UTC, whole seconds
    static String str(Object o) { return o instanceof String s ? s : ""; }
    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) { return o instanceof Map ? (Map<String, Object>) o : new LinkedHashMap<>(); }
    static byte[] utf8(String s) { return s.getBytes(StandardCharsets.UTF_8); }
    static void fail(String why) { System.err.println(why); System.exit(1); }
    Path credsPath() { return Path.of(args.get("data"), "credentials-" + args.get("name") + ".json"); }

    Map<String, Object> envelope(String type, Map<String, Object> request, Object... fields) {
        Map<String, Object> env = new LinkedHashMap<>(Map.of("protocol", "league.v2", "message_type", type,
                "sender", "player:" + creds.getOrDefault("player_id", args.get("name")), "timestamp", now()));
        env.put("conversation_id", request.getOrDefault("conversation_id", ""));
        for (String key : List.of("league_id", "round_id", "match_id")) // echo the match's ids
            if (request.containsKey(key)) env.put(key, request.get(key));
        for (int i = 0; i + 1 < fields.length; i += 2) env.put((String) fields[i], fields[i + 1]);
        return env;
    }

    /** Register, presenting saved credentials if there are any. */
    void register() throws Exception {
        if (Files.exists(credsPath())) creds = map(Json.parse(Files.readString(credsPath())));
        Map<String, Object> meta = new LinkedHashMap<>(Map.of("display_name", args.get("name"), "version", "1.0.0",
                "game_types", List.of("even_odd", "link_race"), "contact_endpoint", "http://127.0.0.1:" + args.get("port") + "/mcp"));
        String joinCode = System.getenv("LEAGUETUI_JOIN_CODE"); // an external roster entry's, from its organiser
        if (joinCode != null && !joinCode.isEmpty()) meta.put("join_code", joinCode);
        Map<String, Object> msg = envelope("LEAGUE_REGISTER_REQUEST", Map.of("conversation_id", "conv-register-" + args.get("name")),
                "player_meta", meta);
        if (!str(creds.get("auth_token")).isEmpty()) msg.put("auth_token", creds.get("auth_token")); // "it is me again"
        byte[] body = utf8(Json.write(Map.of("jsonrpc", "2.0", "id", 1, "method", "register_player", "params", msg)));
        Map<String, Object> result = null;
        for (int attempt = 0; attempt < 10 && result == null; attempt++) { // the manager may still be starting
            try {
                HttpURLConnection c = (HttpURLConnection) URI.create(args.get("manager")).toURL().openConnection();
                c.setConnectTimeout(10_000);
                c.setReadTimeout(10_000);
                c.setDoOutput(true); // a POST
                c.setRequestProperty("Content-Type", "application/json");
                try (OutputStream out = c.getOutputStream()) { out.write(body); }
                byte[] raw = c.getInputStream().readNBytes(MAX_BODY + 1); // at most one byte past the cap
                if (raw.length > MAX_BODY) throw new IOException("the manager's reply is over " + MAX_BODY + " bytes");
                result = map(map(Json.parse(new String(raw, StandardCharsets.UTF_8))).get("result"));
            } catch (IOException | IllegalArgumentException e) {
                System.err.println("registration: " + e + "; trying again");
                Thread.sleep(1000L * Math.min(1 << attempt, 10));
            }
        }
        if (result == null) fail("registration: the manager at " + args.get("manager") + " never answered");
        if (!"ACCEPTED".equals(result.get("status"))) fail("registration rejected: " + result.get("reason"));
        creds = new LinkedHashMap<>();
        for (String key : List.of("player_id", "auth_token", "league_id", "match_ticket_key")) creds.put(key, result.get(key));
        Files.createDirectories(Path.of(args.get("data")));
        Files.writeString(credsPath(), Json.write(creds));
        System.err.println("registered as " + creds.get("player_id") + " in " + creds.get("league_id"));
    }

    /** A leaguetui manager gives a match_ticket_key: then a match call must carry
     *  mt-<hex HMAC-SHA256(key, "match_ticket\0" league\0 match\0 referee\0)> as auth_token. */
    boolean ticketOk(Map<String, Object> msg) throws Exception {
        String key = str(creds.get("match_ticket_key")), sender = str(msg.get("sender"));
        if (key.isEmpty()) return true; // a manager without tickets: nothing to check
        String referee = sender.contains("referee:") ? sender.substring(sender.indexOf("referee:") + 8) : "";
        String league = str(msg.get("league_id")).isEmpty() ? str(creds.get("league_id")) : str(msg.get("league_id"));
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(utf8(key), "HmacSHA256"));
        for (String part : List.of("match_ticket", league, str(msg.get("match_id")), referee)) mac.update(utf8(part + "\0"));
        return MessageDigest.isEqual(utf8("mt-" + HexFormat.of().formatHex(mac.doFinal())), utf8(str(msg.get("auth_token"))));
    }

    /** Answer one league message: the result, or an RPCError. */
    Map<String, Object> handle(String method, Map<String, Object> msg) throws Exception {
        String kind = str(msg.get("message_type")).isEmpty() ? method : str(msg.get("message_type"));
        Object me = creds.getOrDefault("player_id", "");
        if (List.of("GAME_INVITATION", "CHOOSE_PARITY_CALL", "GAME_MOVE_CALL", "GAME_OVER").contains(kind) && !ticketOk(msg))
            return envelope("LEAGUE_ERROR", msg, "error_code", "E012", "error_name", "AUTH_TOKEN_INVALID",
                    "error_description", "not this match's ticket", "retryable", false);
        if (kind.equals("GAME_INVITATION") || kind.equals("handle_game_invitation"))
            return envelope("GAME_JOIN_ACK", msg, "player_id", me, "arrival_timestamp", now(), "accept", true);
        if (kind.equals("CHOOSE_PARITY_CALL") || kind.equals("choose_parity"))
            return envelope("CHOOSE_PARITY_RESPONSE", msg, "player_id", me,
                    "parity_choice", chooseParity(map(msg.get("context")).get("opponent_id")));
        if (kind.equals("GAME_MOVE_CALL") || kind.equals("game_move_call")) {
            Map<String, Object> state = map(map(msg.get("move_request")).get("context"));
            List<?> links = state.get("links") instanceof List<?> l && !l.isEmpty() ? l : List.of("");
            Object link = chooseLink(state.get("current_page"), links, state.get("target_page"));
            return envelope("GAME_MOVE_RESPONSE", msg, "player_id", me, "move_data", Map.of("move_type", "navigate", "choice", link));
        }
        if (kind.equals("GAME_OVER")) {
            Map<String, Object> result = map(msg.get("game_result"));
            System.err.println("match " + msg.get("match_id") + " " + msg.get("game_type") + ": " + result.get("status")
                    + ", winner " + result.get("winner_player_id"));
        }
        if (List.of("GAME_OVER", "ROUND_ANNOUNCEMENT", "LEAGUE_STANDINGS_UPDATE", "ROUND_COMPLETED", "LEAGUE_COMPLETED",
                "GAME_ERROR", "ping").contains(kind))
            return envelope(kind.toUpperCase() + "_ACK", msg, "status", "ok");
        throw new RPCError(-32601, "method not found: " + method);
    }

    static class RPCError extends Exception {
        final int code;
        RPCError(int code, String message) { super(message); this.code = code; }
    }

    static final List<Object> TOOLS = List.of(tool("handle_game_invitation", "GAME_INVITATION: answers GAME_JOIN_ACK"),
            tool("choose_parity", "CHOOSE_PARITY_CALL: answers CHOOSE_PARITY_RESPONSE"),
            tool("game_move_call", "GAME_MOVE_CALL: answers GAME_MOVE_RESPONSE"),
            tool("notify_match_result", "GAME_OVER: answers an acknowledgement"));
    static Object tool(String name, String text) { return Map.of("name", name, "description", text, "inputSchema", Map.of("type", "object")); }

    static Map<String, Object> response(Object id, String key, Object value) {
        Map<String, Object> r = new LinkedHashMap<>(Map.of("jsonrpc", "2.0", key, value));
        r.put("id", id); // null when there is none
        return r;
    }
    static Map<String, Object> error(Object id, int code, String message) { return response(id, "error", Map.of("code", code, "message", message)); }

    void serve(HttpExchange ex) {
        try (ex) {
            if (ex.getRequestMethod().equals("GET")) {
                if (!ex.getRequestURI().getPath().equals("/health")) { reply(ex, 404, Map.of("error", "not found")); return; }
                Map<String, Object> health = new LinkedHashMap<>(Map.of("status", "ok"));
                health.put("player_id", creds.get("player_id"));
                reply(ex, 200, health);
                return;
            }
            String length = String.valueOf(ex.getRequestHeaders().getFirst("Content-Length"));
            boolean large = length.matches("\\d{1,18}") && Long.parseLong(length) > MAX_BODY;
            byte[] raw = large ? null : ex.getRequestBody().readNBytes(MAX_BODY + 1);
            if (large || raw.length > MAX_BODY) { // refused unread
                ex.getResponseHeaders().set("Connection", "close");
                reply(ex, 413, error(null, -32600, "request body too large"));
                return;
            }
            Object parsed;
            try { parsed = Json.parse(new String(raw, StandardCharsets.UTF_8)); } catch (IllegalArgumentException e) {
                reply(ex, 200, error(null, -32700, "parse error"));
                return;
            }
            if (!(parsed instanceof Map<?, ?> req) || !(req.get("method") instanceof String method)) {
                reply(ex, 200, error(null, -32600, "invalid request"));
                return;
            }
            Map<String, Object> params = map(req.get("params")), resp;
            try {
                if (method.equals("tools/list")) {
                    resp = response(req.get("id"), "result", Map.of("tools", TOOLS));
                } else if (method.equals("tools/call")) { // an MCP client: the league message is the arguments
                    Map<String, Object> answer = handle(str(params.get("name")), map(params.get("arguments")));
                    resp = response(req.get("id"), "result", Map.of("content", List.of(Map.of("type", "text", "text", Json.write(answer))),
                            "structuredContent", answer));
                } else {
                    resp = response(req.get("id"), "result", handle(method, params));
                }
            } catch (RPCError e) {
                resp = error(req.get("id"), e.code, e.getMessage());
            }
            if (!req.containsKey("id")) ex.sendResponseHeaders(202, -1); // a notification: acted on, never answered
            else reply(ex, 200, resp);
        } catch (Exception e) {
            System.err.println("request: " + e);
        }
    }

    static void reply(HttpExchange ex, int status, Object obj) throws IOException {
        byte[] body = utf8(Json.write(obj));
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, body.length);
        ex.getResponseBody().write(body);
    }

    public static void main(String[] argv) throws Exception {
        Player player = new Player();
        for (int i = 0; i < argv.length; i += 2) {
            if (i + 1 == argv.length || !argv[i].startsWith("--") || !player.args.containsKey(argv[i].substring(2)))
                fail("usage: java Player.java [--port N] [--manager URL] [--name NAME] [--data FOLDER]");
            player.args.put(argv[i].substring(2), argv[i + 1]);
        }
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(player.args.get("port"))), 64);
        server.createContext("/", player::serve);
        server.setExecutor(Executors.newCachedThreadPool());
        server.start(); // listen before registering
        player.register();
    }
}

/** JSON in a few lines: objects, arrays, strings, true, false, null, and numbers kept as written (ids echo exactly). */
class Json {
    record Num(String text) { public String toString() { return text; } }
    final String s;
    int i;
    Json(String s) { this.s = s; }
    static Object parse(String s) {
        Json p = new Json(s);
        try {
            Object v = p.value();
            if (p.ws() != s.length()) throw new IllegalArgumentException("data after the value");
            return v;
        } catch (IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("the input ends too soon");
        }
    }
    int ws() { while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++; return i; }
    boolean eat(char c) { if (ws() < s.length() && s.charAt(i) == c) { i++; return true; } return false; }
    void want(char c) { if (!eat(c)) throw new IllegalArgumentException("want " + c + " at " + i); }
    Object value() {
        if (eat('{')) {
            Map<String, Object> m = new LinkedHashMap<>();
            if (!eat('}')) { do { ws(); String k = string(); want(':'); m.put(k, value()); } while (eat(',')); want('}'); }
            return m;
        }
        if (eat('[')) {
            List<Object> l = new ArrayList<>();
            if (!eat(']')) { do l.add(value()); while (eat(',')); want(']'); }
            return l;
        }
        if (i < s.length() && s.charAt(i) == '"') return string();
        for (Object lit : new Object[] {true, false, null})
            if (s.startsWith(String.valueOf(lit), i)) { i += String.valueOf(lit).length(); return lit; }
        int start = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
        String n = s.substring(start, i);
        if (!n.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?")) throw new IllegalArgumentException("bad value at " + start);
        return new Num(n);
    }

    String string() {
        if (i >= s.length() || s.charAt(i++) != '"') throw new IllegalArgumentException("want a string at " + i);
        StringBuilder b = new StringBuilder();
        for (char c; (c = s.charAt(i++)) != '"'; ) { // past the end: an IndexOutOfBoundsException
            if (c != '\\') { b.append(c); continue; }
            int at = "\"\\/bfnrt".indexOf(c = s.charAt(i++));
            if (at >= 0) b.append("\"\\/\b\f\n\r\t".charAt(at));
            else if (c == 'u') { b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; }
            else throw new IllegalArgumentException("bad escape at " + i);
        }
        return b.toString();
    }

    static String write(Object v) {
        if (v instanceof String str) {
            StringBuilder b = new StringBuilder("\"");
            for (char c : str.toCharArray())
                b.append(c == '"' || c == '\\' ? "\\" + c : c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            return b.append('"').toString();
        }
        if (v instanceof Map<?, ?> m) {
            StringJoiner j = new StringJoiner(",", "{", "}");
            m.forEach((k, x) -> j.add(write(String.valueOf(k)) + ":" + write(x)));
            return j.toString();
        }
        if (v instanceof List<?> l) {
            StringJoiner j = new StringJoiner(",", "[", "]");
            l.forEach(x -> j.add(write(x)));
            return j.toString();
        }
        return String.valueOf(v); // null, true, false, a number
    }
}
